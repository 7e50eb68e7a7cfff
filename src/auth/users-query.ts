import { invalidKey, paginationError, validationError } from '../errors.js';
import { compileFilters } from '../query/filters.js';
import type { Field, Scope } from '../query/scope.js';
import { compileSort, parseSort } from '../query/sort.js';
import type { RoleView } from './role-views.js';
import { parseRolePopulate } from './users-populate.js';
import { sanitizeUser } from './user-view.js';
import type { UserRecord } from './state.js';

export { type RoleView, roleViews } from './role-views.js';

const USER_FIELDS: Record<string, string> = {
  id: 'integer',
  documentId: 'string',
  username: 'string',
  email: 'string',
  provider: 'string',
  confirmed: 'boolean',
  blocked: 'boolean',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  publishedAt: 'datetime',
};
const ROLE_FIELDS: Record<string, string> = {
  id: 'integer',
  documentId: 'string',
  name: 'string',
  description: 'string',
  type: 'string',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  publishedAt: 'datetime',
};
/** The user's private fields: never selected, and named at their own path when asked for (as Strapi does). */
const PRIVATE_FIELDS = ['password', 'resetPasswordToken', 'confirmationToken', 'role'];
/** The fields `_q` searches: the user's public text (Strapi's search also reads the password hash and tokens). */
const SEARCHED = ['username', 'email', 'provider'] as const;

const pathOf = (path: string[]) => (path.length > 1 ? path.join('.') : null);

function recordScope(
  fields: Record<string, string>,
  nested?: (key: string, path: string[], param: string) => Field | undefined,
): Scope {
  return {
    field(key, path, param) {
      if (Object.hasOwn(fields, key))
        return { kind: 'scalar', type: fields[key], get: (row) => (row as Record<string, unknown>)[key] ?? null };
      const n = nested?.(key, path, param);
      if (n) return n;
      throw invalidKey(key, { path: pathOf(path), source: 'query', param });
    },
  };
}

/**
 * `GET /api/users`, `/api/users/count`, `/api/users/:id` and `/api/users/me` query parameters, as Strapi's
 * user service takes them: `filters` (the query engine's operators, also on `role`), `sort`, `_q`, root
 * `start`/`limit` (no default limit), `fields` and `populate` of the role. As in Strapi, other parameters are
 * not refused (strict parameters do not apply to these routes) and `pagination`, `page` and `pageSize` page
 * nothing: the list is whole. Private fields (password, tokens) are never filtered, sorted, searched or returned.
 */
export class UsersQuery {
  private roleScope = recordScope(ROLE_FIELDS);
  private scope: Scope;

  constructor(private roles: Map<string, RoleView>) {
    this.scope = recordScope(USER_FIELDS, (key) =>
      key === 'role'
        ? {
            kind: 'nested',
            many: false,
            idType: 'integer',
            get: (row) => this.roleList(row as UserRecord),
            scope: this.roleScope,
          }
        : undefined,
    );
  }

  private roleList(u: UserRecord): RoleView[] {
    const r = this.roles.get(u.role);
    return r ? [r] : [];
  }

  /** The users matching `filters` and `_q`, sorted and sliced (`count`: matched only). */
  select(users: UserRecord[], q: Record<string, unknown>, route: 'find' | 'count'): UserRecord[] {
    this.shaper(q);
    const filter = compileFilters(this.scope, q.filters);
    const sort = compileSort(this.scope, parseSort(q.sort));
    const { start, limit } = paging(q);
    const search = typeof q._q === 'string' ? q._q.toLowerCase() : undefined;
    let rows = users.filter((u) => filter(u) && (search === undefined || matches(u, search)));
    if (route === 'count') return rows;
    if (sort) rows = sort(rows);
    return rows.slice(start, limit === undefined ? undefined : start + limit);
  }

  /** How one user is answered under `fields` and `populate` (both checked first, as Strapi validates the query). */
  shaper(q: Record<string, unknown>): (u: UserRecord) => Record<string, unknown> {
    const fields = parseFields(q.fields);
    const role = parseRolePopulate(q.populate, this.roleScope, Object.keys(ROLE_FIELDS));
    return (u) => {
      const full: Record<string, unknown> = sanitizeUser(u);
      const out: Record<string, unknown> = fields ? { id: u.id, documentId: u.documentId } : full;
      if (fields) for (const f of fields) out[f] = full[f];
      if (role) {
        const view = this.roles.get(u.role);
        out.role = view && role.keep(view) ? pick(view, role.fields) : null;
      }
      return out;
    };
  }
}

const matches = (u: UserRecord, needle: string) =>
  String(u.id).includes(needle) ||
  SEARCHED.some((k) =>
    String(u[k] ?? '')
      .toLowerCase()
      .includes(needle),
  );

function pick(view: RoleView, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return { ...view };
  const out: Record<string, unknown> = { id: view.id, documentId: view.documentId };
  for (const f of fields) out[f] = view[f as keyof RoleView];
  return out;
}

const isNil = (v: unknown) => v === undefined || v === null;

/**
 * Root `start`/`limit` as Strapi's query-params transform reads them (its messages), and `page`/`pageSize`, which it
 * checks but the user service then ignores. `pagination[...]` is passed through unread.
 */
function paging(q: Record<string, unknown>): { start: number; limit: number | undefined } {
  if ((!isNil(q.page) || !isNil(q.pageSize)) && (!isNil(q.start) || !isNil(q.limit)))
    throw paginationError(
      'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object',
    );
  for (const key of ['page', 'pageSize'] as const) {
    if (isNil(q[key])) continue;
    const n = Number(q[key]);
    if (!Number.isInteger(n) || n <= 0)
      throw paginationError(`Invalid '${key}' parameter. Expected an integer > 0, received: ${String(q[key])}`);
  }
  let start = 0;
  let limit: number | undefined;
  if (!isNil(q.start)) {
    start = Number(q.start);
    if (!Number.isInteger(start) || start < 0)
      throw validationError(`convertStartQueryParams expected a positive integer got ${start}`);
  }
  if (!isNil(q.limit)) {
    const n = Number(q.limit);
    if (!Number.isInteger(n) || (n !== -1 && n < 0))
      throw validationError(`convertLimitQueryParams expected a positive integer got ${n}`);
    limit = n === -1 ? undefined : n;
  }
  return { start, limit };
}

function parseFields(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let list: string[];
  if (typeof raw === 'string') list = raw.split(',');
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
    list = raw.flatMap((s: string) => s.split(','));
  else if (typeof raw === 'object' && !Array.isArray(raw) && Object.values(raw).every((x) => typeof x === 'string'))
    list = Object.values(raw as Record<string, string>).flatMap((s) => s.split(','));
  else throw validationError('Invalid fields parameter. Expected a string or an array of strings');
  list = list.map((s) => s.trim()).filter(Boolean);
  if (list.includes('*')) return undefined;
  for (const f of list)
    if (!Object.hasOwn(USER_FIELDS, f))
      throw invalidKey(f, { path: PRIVATE_FIELDS.includes(f) ? f : null, source: 'query', param: 'fields' });
  return list;
}
