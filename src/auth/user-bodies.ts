import { FolioError, fieldErrors, type FieldProblem } from '../errors.js';
import type { RouteRequest } from '../http-kit/route.js';
import { typeMessage } from '../documents/values.js';
import { PermissionsPolicy } from './access.js';
import type { UserInput } from './accounts.js';
import { isEmail } from './email-address.js';
import { roleViews } from './users-query.js';

export const REGISTER_FIELDS = new Set(['username', 'email', 'password']);
const USER_FIELDS = new Set(['username', 'email', 'password', 'confirmed', 'blocked', 'role']);

/** The `email` of forgot-password and send-email-confirmation bodies, checked as Strapi's yup schema does. */
export function emailOf(body: Record<string, unknown>): string {
  const email = body.email;
  const bad =
    typeof email !== 'string' || !email
      ? 'email is a required field'
      : !isEmail(email)
        ? 'email must be a valid email'
        : undefined;
  if (bad) throw fieldErrors([{ path: ['email'], message: bad, value: email }]);
  return (email as string).toLowerCase();
}

/** A required string of a body, as yup checks it: missing, not a string, or empty. */
function requiredString(body: Record<string, unknown>, k: string): FieldProblem | undefined {
  const v = body[k];
  if (v === undefined || v === null) return { path: [k], message: `${k} is a required field` };
  if (typeof v !== 'string') return { path: [k], message: typeMessage(k, 'string', v), value: v };
  if (v === '') return { path: [k], message: `${k} is a required field`, value: v };
  return undefined;
}

/** Strapi's register body schema (every problem at once): e-mail, username and a password of 6 or more. */
export function registerProblems(body: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const k of ['email', 'username', 'password']) {
    const p = requiredString(body, k);
    if (p) problems.push(p);
    else if (k === 'email' && !isEmail(body.email as string))
      problems.push({ path: ['email'], message: 'email must be a valid email', value: body.email });
    else if (k === 'password' && (body.password as string).length < 6)
      problems.push({ path: ['password'], message: 'password must be at least 6 characters', value: body.password });
  }
  return problems;
}

export const bodyOf = (req: RouteRequest): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/** The role a users body names: a role id (Strapi's), its documentId or its key (`authenticated`). */
/** The role a users body names: a role id (Strapi's), its documentId or its key (`authenticated`). */
function roleOf(req: RouteRequest, value: unknown): string {
  const roles = roleViews(req.project.contentDir, req.access instanceof PermissionsPolicy ? req.access.roles() : {});
  const ref =
    value && typeof value === 'object' && !Array.isArray(value)
      ? ((value as { connect?: Array<{ id?: unknown; documentId?: unknown }> }).connect?.[0]?.id ??
        (value as { connect?: Array<{ documentId?: unknown }> }).connect?.[0]?.documentId ??
        (value as { id?: unknown }).id)
      : value;
  for (const [key, view] of roles) {
    if (ref === view.id || String(ref) === String(view.id) || ref === view.documentId || ref === key) return key;
  }
  throw new FolioError(400, 'ValidationError', `Role ${JSON.stringify(ref)} not found`, {
    errors: [{ path: ['role'], message: 'role not found', name: 'ValidationError' }],
  });
}

/** A `POST`/`PUT /api/users` body checked as Strapi's yup schemas do; `create` makes the four keys required. */
export function userInput(req: RouteRequest, body: Record<string, unknown>, create: boolean): UserInput {
  const unknown = Object.keys(body).find((k) => !USER_FIELDS.has(k));
  if (unknown !== undefined)
    throw new FolioError(400, 'ValidationError', `Invalid key ${unknown}`, {
      key: unknown,
      path: unknown,
      source: 'body',
    });
  if (!create && 'password' in body && !body.password)
    throw new FolioError(400, 'ValidationError', 'password.notNull', {});
  const problems: FieldProblem[] = [];
  for (const k of ['email', 'username', 'password'] as const) {
    const v = body[k];
    if (v === undefined || v === null || v === '') {
      if (create) problems.push({ path: [k], message: `${k} is a required field` });
      continue;
    }
    if (typeof v !== 'string') problems.push({ path: [k], message: typeMessage(k, 'string', v), value: v });
    else if (k === 'email' && !isEmail(v))
      problems.push({ path: [k], message: 'email must be a valid email', value: v });
  }
  if (create && (body.role === undefined || body.role === null || body.role === ''))
    problems.push({ path: ['role'], message: 'role is a required field' });
  for (const k of ['confirmed', 'blocked'] as const) {
    if (body[k] !== undefined && typeof body[k] !== 'boolean')
      problems.push({ path: [k], message: typeMessage(k, 'boolean', body[k]), value: body[k] });
  }
  if (problems.length) throw fieldErrors(problems);
  if (typeof body.password === 'string' && Buffer.byteLength(body.password) > 72)
    throw new FolioError(400, 'ValidationError', 'Password must be less than 73 bytes', {});
  return {
    username: body.username as string | undefined,
    email: body.email as string | undefined,
    password: body.password as string | undefined,
    confirmed: body.confirmed as boolean | undefined,
    blocked: body.blocked as boolean | undefined,
    role: body.role === undefined || body.role === null ? undefined : roleOf(req, body.role),
  };
}
