import { FolioError, applicationError, fieldErrors, forbidden, notFound, type FieldProblem } from '../errors.js';
import type { HttpModule, ModuleRequest } from '../http/app.js';
import { methodNotAllowed, sendEmpty, sendJson } from '../http/respond.js';
import { isAccountsPath } from '../http/route-paths.js';
import { parseQueryString } from '../query/parse-qs.js';
import { PermissionsPolicy, type AuthPrincipal } from './access.js';
import { RateLimiter } from './rate-limit.js';
import { EMAIL, sanitizeUser, type AuthService, type UserInput } from './service.js';
import type { AccountMailConfig, RateLimitConfig } from './config.js';
import type { UserRecord } from './state.js';
import { UsersQuery, roleViews } from './users-query.js';
import { typeMessage } from '../documents/values.js';

/** What Strapi's `ctx.unauthorized()` answers: a route the caller may use, but only as a logged-in user. */
const unauthorized = () => new FolioError(401, 'UnauthorizedError', 'Unauthorized', {});

/** The routes Strapi rate-limits (koa2-ratelimit), by path. */
const RATE_LIMITED = new Set([
  '/api/auth/local',
  '/api/auth/local/register',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/change-password',
  '/api/auth/send-email-confirmation',
]);
/**
 * Routes whose counter is also keyed by the lower-cased `body.email` (the account they target). The
 * others count per path and client address only, so that adding a made-up `email` to a login body
 * cannot buy a fresh counter.
 */
const EMAIL_KEYED = new Set(['/api/auth/forgot-password', '/api/auth/send-email-confirmation']);
const REGISTER_FIELDS = new Set(['username', 'email', 'password']);
const USER_FIELDS = new Set(['username', 'email', 'password', 'confirmed', 'blocked', 'role']);

/** The `email` of forgot-password and send-email-confirmation bodies, checked as Strapi's yup schema does. */
function emailOf(body: Record<string, unknown>): string {
  const email = body.email;
  const bad =
    typeof email !== 'string' || !email
      ? 'email is a required field'
      : !EMAIL.test(email)
        ? 'email must be a valid email'
        : undefined;
  if (bad) throw fieldErrors([{ path: ['email'], message: bad, value: email }]);
  return (email as string).toLowerCase();
}
const REFRESH_COOKIE = 'strapi_up_refresh';

/** A required string of a body, as yup checks it: missing, not a string, or empty. */
function requiredString(body: Record<string, unknown>, k: string): FieldProblem | undefined {
  const v = body[k];
  if (v === undefined || v === null) return { path: [k], message: `${k} is a required field` };
  if (typeof v !== 'string') return { path: [k], message: typeMessage(k, 'string', v), value: v };
  if (v === '') return { path: [k], message: `${k} is a required field`, value: v };
  return undefined;
}

/** Strapi's register body schema (every problem at once): e-mail, username and a password of 6 or more. */
function registerProblems(body: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const k of ['email', 'username', 'password']) {
    const p = requiredString(body, k);
    if (p) problems.push(p);
    else if (k === 'email' && !EMAIL.test(body.email as string))
      problems.push({ path: ['email'], message: 'email must be a valid email', value: body.email });
    else if (k === 'password' && (body.password as string).length < 6)
      problems.push({ path: ['password'], message: 'password must be at least 6 characters', value: body.password });
  }
  return problems;
}

const bodyOf = (req: ModuleRequest): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/** The caller, once it is known to hold `plugin::users-permissions.<action>` (403 otherwise). */
export async function requireAction(req: ModuleRequest, action: string): Promise<AuthPrincipal> {
  const p = (await req.principal()) as AuthPrincipal;
  if (!req.access.can(p, `plugin::users-permissions.${action}`)) throw forbidden();
  return p;
}

class MethodNotAllowedSignal {
  constructor(readonly allow: string[]) {}
}

/**
 * The users-permissions routes (answers are unwrapped JSON, as Strapi's): register, login, me, users
 * (find, count, findOne, create, update, destroy), change-password, forgot/reset-password, e-mail
 * confirmation and, in refresh mode, refresh, logout and sessions (404 in legacy mode). OAuth providers
 * answer "This provider is disabled", as every provider but e-mail does in a new Strapi project.
 * Each checks its Strapi action (`plugin::users-permissions.auth.register`, `.user.me`, ...) against the
 * caller's permissions.
 *
 * Folio sends no e-mail: account e-mails (reset codes, confirmation links) are written to `log`, the
 * server's log, for the developer running it.
 */
export function usersModule(
  auth: AuthService,
  rate: RateLimitConfig,
  mail: AccountMailConfig,
  log: (message: string) => void,
): HttpModule {
  const limiter = new RateLimiter(rate.max, rate.interval);
  const refreshMode = auth.config.jwtManagement === 'refresh';

  /** The caller's user: an API token or the public role may pass the permission check but has none. */
  const requireUser = (p: AuthPrincipal): UserRecord => {
    if (!p.user) throw unauthorized();
    return p.user;
  };

  const cookieMode = (req: ModuleRequest) =>
    auth.config.httpOnly || req.event.node.req.headers['x-strapi-refresh-cookie'] === 'httpOnly';
  const setRefreshCookie = (req: ModuleRequest, value: string, maxAge: number) => {
    const secure = (req.event.node.req.socket as { encrypted?: boolean }).encrypted ? '; Secure' : '';
    // A cleared cookie also carries Strapi's 1970 expiry, for clients that read Expires rather than Max-Age.
    const expires = maxAge === 0 ? `; Expires=${new Date(0).toUTCString()}` : '';
    req.event.node.res.setHeader(
      'set-cookie',
      `${REFRESH_COOKIE}=${value}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${expires}${secure}`,
    );
  };

  /**
   * `{ jwt, refreshToken, user }` (refresh mode), `{ jwt, user }` (legacy mode, or the refresh token in a cookie).
   * Register and change-password always answer the refresh token in the body, as Strapi does, cookie mode or not.
   */
  const credentials = async (req: ModuleRequest, user: UserRecord, inBody = false) => {
    const issued = await auth.issue(user, String(req.event.node.req.headers['user-agent'] ?? '') || null);
    if (issued.refreshToken && cookieMode(req) && !inBody) {
      setRefreshCookie(req, issued.refreshToken, auth.config.refreshTtlDays * 86400);
      return { jwt: issued.jwt, user: sanitizeUser(user) };
    }
    return issued.refreshToken
      ? { jwt: issued.jwt, refreshToken: issued.refreshToken, user: sanitizeUser(user) }
      : { jwt: issued.jwt, user: sanitizeUser(user) };
  };

  const email = (to: string, what: string, link: string) =>
    log(`e-mail to ${to} (Folio sends none; here it is): ${what}: ${link}`);
  const origin = (req: ModuleRequest) => {
    const host = String(req.event.node.req.headers.host ?? 'localhost');
    return `${(req.event.node.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host}`;
  };
  const sendConfirmation = (req: ModuleRequest, user: UserRecord) => {
    const token = auth.startEmailConfirmation(user);
    email(
      user.email,
      'confirm your e-mail address',
      `${origin(req)}/api/auth/email-confirmation?confirmation=${token}`,
    );
  };

  /** The role a users body names: a role id (Strapi's), its documentId or its key (`authenticated`). */
  const roleOf = (req: ModuleRequest, value: unknown): string => {
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
  };

  /** A `POST`/`PUT /api/users` body checked as Strapi's yup schemas do; `create` makes the four keys required. */
  const userInput = (req: ModuleRequest, body: Record<string, unknown>, create: boolean): UserInput => {
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
      else if (k === 'email' && !EMAIL.test(v))
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
  };

  const usersQuery = (req: ModuleRequest) => {
    const roles = req.access instanceof PermissionsPolicy ? req.access.roles() : {};
    return new UsersQuery(roleViews(req.project.contentDir, roles), req.project.config.rest.strictParams);
  };

  return {
    async handle(req) {
      const { event, method } = req;
      const path = req.path.toLowerCase();
      if (!isAccountsPath(path)) return undefined;

      // As Strapi's route chain: authentication and the route's permission first, then the rate limit,
      // then the controller. Failed and successful attempts both count.
      const limit = () => {
        if (!RATE_LIMITED.has(path) || !rate.enabled) return;
        const ip = event.node.req.socket.remoteAddress ?? '';
        const email =
          EMAIL_KEYED.has(path) && typeof bodyOf(req).email === 'string' ? String(bodyOf(req).email).toLowerCase() : '';
        const r = limiter.hit(`${path}|${ip}|${email}`);
        for (const [k, v] of Object.entries(r.headers)) event.node.res.setHeader(k, v);
        if (r.limited) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.', {});
      };

      const post = (route: string) =>
        path === route &&
        (method === 'POST' ||
          (() => {
            throw new MethodNotAllowedSignal(['POST']);
          })());
      const get = (route: string) =>
        path === route &&
        (method === 'GET' ||
          method === 'HEAD' ||
          (() => {
            throw new MethodNotAllowedSignal(['HEAD', 'GET']);
          })());
      const query = () => parseQueryString(req.rawQuery);
      try {
        if (post('/api/auth/local/register')) {
          await requireAction(req, 'auth.register');
          limit();
          const body = bodyOf(req);
          const extra = Object.keys(body).filter((k) => !REGISTER_FIELDS.has(k));
          if (extra.length) throw new FolioError(400, 'ValidationError', `Invalid parameters: ${extra.join(', ')}`, {});
          const problems = registerProblems(body);
          if (problems.length) throw fieldErrors(problems);
          const user = await auth.createUser({
            username: String(body.username ?? ''),
            email: String(body.email ?? ''),
            password: body.password as string,
            confirmed: !mail.emailConfirmation,
          });
          if (mail.emailConfirmation) {
            // As Strapi: no credentials until the address is confirmed.
            sendConfirmation(req, user);
            return sendJson(event, 200, { user: sanitizeUser(user) });
          }
          return sendJson(event, 200, await credentials(req, user, true));
        }
        if (post('/api/auth/local')) {
          await requireAction(req, 'auth.callback');
          limit();
          const body = bodyOf(req);
          const user = await auth.login(body.identifier, body.password);
          return sendJson(event, 200, await credentials(req, user));
        }
        if (post('/api/auth/change-password')) {
          const p = await requireAction(req, 'auth.changePassword');
          limit();
          if (!p.user) throw applicationError('You must be authenticated to reset your password');
          const user = await auth.changePassword(p.user, bodyOf(req));
          return sendJson(event, 200, await credentials(req, user, true));
        }
        if (post('/api/auth/forgot-password')) {
          await requireAction(req, 'auth.forgotPassword');
          limit();
          const started = auth.startPasswordReset(emailOf(bodyOf(req)));
          if (started) {
            const link = mail.resetPasswordUrl
              ? `${mail.resetPasswordUrl}${mail.resetPasswordUrl.includes('?') ? '&' : '?'}code=${started.code}`
              : `code ${started.code} (set users.resetPasswordUrl in folio.json for a link)`;
            email(started.user.email, 'reset your password', link);
          }
          // The same answer for unknown and blocked accounts, so it does not tell which exist.
          return sendJson(event, 200, { ok: true });
        }
        if (post('/api/auth/reset-password')) {
          await requireAction(req, 'auth.resetPassword');
          limit();
          const user = await auth.resetPassword(bodyOf(req));
          return sendJson(event, 200, await credentials(req, user));
        }
        if (get('/api/auth/email-confirmation')) {
          await requireAction(req, 'auth.emailConfirmation');
          auth.confirmEmail(query().confirmation);
          event.node.res.setHeader('location', mail.emailConfirmationRedirection || '/');
          return sendEmpty(event, 302);
        }
        if (post('/api/auth/send-email-confirmation')) {
          await requireAction(req, 'auth.sendEmailConfirmation');
          limit();
          const address = emailOf(bodyOf(req));
          const user = auth.userByEmail(address);
          if (!user) return sendJson(event, 200, { email: address, sent: true });
          if (user.confirmed) throw applicationError('Already confirmed');
          if (user.blocked) throw applicationError('User blocked');
          sendConfirmation(req, user);
          return sendJson(event, 200, { email: user.email, sent: true });
        }
        const connect = /^\/api\/connect\/([^/]+)(?:\/.*)?$/.exec(path);
        const callback = /^\/api\/auth\/([^/]+)\/callback$/.exec(path);
        if (connect || callback) {
          if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET']);
          await requireAction(req, connect ? 'auth.connect' : 'auth.callback');
          if (callback?.[1] === 'local') {
            // E-mail sign-in is the one provider on: it takes its credentials as POST /api/auth/local does.
            await auth.login(undefined, undefined);
          }
          // Folio has no OAuth: every other provider is off, as in a new Strapi project.
          throw applicationError('This provider is disabled');
        }
        if (
          path === '/api/auth/refresh' ||
          path === '/api/auth/logout' ||
          path === '/api/auth/sessions' ||
          path.startsWith('/api/auth/sessions/')
        ) {
          if (!refreshMode) throw notFound();
          if (post('/api/auth/refresh')) {
            await requireAction(req, 'auth.refresh');
            const cookie = new RegExp(`(?:^|;\\s*)${REFRESH_COOKIE}=([^;]+)`).exec(
              String(event.node.req.headers.cookie ?? ''),
            )?.[1];
            const body = bodyOf(req);
            const out = await auth.refresh(body.refreshToken ?? cookie);
            if (cookieMode(req) || (body.refreshToken === undefined && cookie)) {
              setRefreshCookie(req, out.refreshToken, auth.config.refreshTtlDays * 86400);
              return sendJson(event, 200, { jwt: out.jwt });
            }
            return sendJson(event, 200, out);
          }
          if (post('/api/auth/logout')) {
            const p = await requireAction(req, 'auth.logout');
            const user = requireUser(p);
            if (p.sessionId) auth.revokeSession(user.id, p.sessionId);
            // As Strapi: the refresh cookie is cleared whether or not the request carried it.
            setRefreshCookie(req, '', 0);
            return sendJson(event, 200, { ok: true });
          }
          if (get('/api/auth/sessions')) {
            const p = await requireAction(req, 'auth.getSessions');
            const user = requireUser(p);
            return sendJson(event, 200, { data: auth.sessionsOf(user.id, p.sessionId) });
          }
          const m = /^\/api\/auth\/sessions\/([^/]+)$/.exec(req.path);
          if (m) {
            if (method !== 'DELETE') return methodNotAllowed(event, ['DELETE']);
            const p = await requireAction(req, 'auth.revokeSession');
            const user = requireUser(p);
            let id: string;
            try {
              id = decodeURIComponent(m[1]);
            } catch {
              throw notFound('Session not found');
            }
            if (!auth.revokeSession(user.id, id)) throw notFound('Session not found');
            return sendJson(event, 200, { ok: true });
          }
          throw notFound();
        }
        if (get('/api/users/me')) {
          const p = await requireAction(req, 'user.me');
          const user = requireUser(p);
          return sendJson(event, 200, usersQuery(req).shaper(query(), 'findOne')(user));
        }
        if (get('/api/users/count')) {
          await requireAction(req, 'user.count');
          return sendJson(event, 200, usersQuery(req).select(auth.listUsers(), query(), 'count').length);
        }
        if (path === '/api/users' && method === 'POST') {
          await requireAction(req, 'user.create');
          const input = userInput(req, bodyOf(req), true);
          const user = (await auth.saveUser(undefined, { ...input, role: input.role }))!;
          return sendJson(event, 201, usersQuery(req).shaper({ populate: 'role' }, 'findOne')(user));
        }
        if (path === '/api/users' && method !== 'GET' && method !== 'HEAD')
          return methodNotAllowed(event, ['HEAD', 'GET', 'POST']);
        if (get('/api/users')) {
          await requireAction(req, 'user.find');
          const q = query();
          const uq = usersQuery(req);
          const shape = uq.shaper({ fields: q.fields, populate: q.populate }, 'find');
          return sendJson(
            event,
            200,
            uq.select(auth.listUsers(), { ...q, fields: undefined, populate: undefined }, 'find').map(shape),
          );
        }
        const one = /^\/api\/users\/([^/]+)$/.exec(path);
        if (one && method === 'PUT') {
          await requireAction(req, 'user.update');
          const id = /^\d+$/.test(one[1]) ? Number(one[1]) : NaN;
          if (!auth.userById(id)) throw notFound('User not found');
          const user = await auth.saveUser(id, userInput(req, bodyOf(req), false));
          if (!user) throw notFound('User not found');
          return sendJson(event, 200, usersQuery(req).shaper({ populate: 'role' }, 'findOne')(user));
        }
        if (one && method === 'DELETE') {
          await requireAction(req, 'user.destroy');
          const gone = /^\d+$/.test(one[1]) ? auth.deleteUserById(Number(one[1])) : undefined;
          // Strapi answers the deleted user, or an empty 204 when there was none.
          return gone ? sendJson(event, 200, sanitizeUser(gone)) : sendEmpty(event, 204);
        }
        if (one) {
          if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET', 'PUT', 'DELETE']);
          await requireAction(req, 'user.findOne');
          const shape = usersQuery(req).shaper(query(), 'findOne');
          const user = /^\d+$/.test(one[1]) ? auth.userById(Number(one[1])) : undefined;
          // Strapi answers an unknown user with an empty 204.
          return user ? sendJson(event, 200, shape(user)) : sendEmpty(event, 204);
        }
        return undefined;
      } catch (err) {
        if (err instanceof MethodNotAllowedSignal) return methodNotAllowed(event, err.allow);
        throw err;
      }
    },
  };
}
