import { statSync } from 'node:fs';
import { join } from 'node:path';
import { invalidKey, validationError } from '../errors.js';
import { stableId } from '../http-kit/stable-id.js';
import { compileFilters } from '../query/filters.js';
import type { Field, Scope } from '../query/scope.js';
import { compileSort, parseSort } from '../query/sort.js';
import type { Role } from './permissions.js';
import { sanitizeUser } from './user-view.js';
import type { UserRecord } from './state.js';

/** A role as Strapi returns it when a user's `role` is populated. */
export interface RoleView {
  id: number;
  documentId: string;
  name: string;
  description: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/**
 * The roles of permissions.json as Strapi's role records: `authenticated` is 1 and `public` 2 (the order
 * Strapi creates them in); a custom role has the id recorded with it, or, if none was, the next free one
 * by key; timestamps are the file's.
 */
export function roleViews(contentDir: string, roles: Record<string, Role>): Map<string, RoleView> {
  let ts: string;
  try {
    ts = statSync(join(contentDir, 'permissions.json')).mtime.toISOString();
  } catch {
    ts = new Date(0).toISOString();
  }
  const ids = new Map<string, number>([
    ['authenticated', 1],
    ['public', 2],
  ]);
  for (const [k, r] of Object.entries(roles)) if (r.id !== undefined && !ids.has(k)) ids.set(k, r.id);
  let next = Math.max(2, ...ids.values()) + 1;
  for (const k of Object.keys(roles).sort()) if (!ids.has(k)) ids.set(k, next++);
  const keys = Object.keys(roles).sort((a, b) => ids.get(a)! - ids.get(b)!);
  return new Map(
    keys.map((k) => [
      k,
      {
        id: ids.get(k)!,
        documentId: stableId(`role:${k}`),
        name: roles[k].name,
        description: roles[k].description,
        type: k,
        createdAt: ts,
        updatedAt: ts,
        publishedAt: ts,
      },
    ]),
  );
}

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

export type UsersRoute = 'find' | 'count' | 'findOne';

const ROUTE_PARAMS: Record<UsersRoute, string[]> = {
  find: ['filters', 'sort', 'fields', 'populate', 'start', 'limit'],
  count: ['filters'],
  findOne: ['fields', 'populate'],
};

/**
 * `GET /api/users`, `/api/users/count`, `/api/users/:id` and `/api/users/me` query parameters, as Strapi's
 * user service takes them: `filters` (the query engine's operators, also on `role`), `sort`, root
 * `start`/`limit` (no default limit), `fields` and `populate=role`. Private fields (password) are never
 * filterable, sortable or returned.
 */
export class UsersQuery {
  private roleScope = recordScope(ROLE_FIELDS);
  private scope: Scope;

  constructor(
    private roles: Map<string, RoleView>,
    private strict: boolean,
  ) {
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

  private checkKeys(q: Record<string, unknown>, route: UsersRoute) {
    if (!this.strict) return;
    for (const key of Object.keys(q)) {
      if (!ROUTE_PARAMS[route].includes(key)) throw invalidKey(key, { path: null, source: 'query', param: key });
    }
  }

  /** The users matching `filters`, sorted and sliced. */
  select(users: UserRecord[], q: Record<string, unknown>, route: 'find' | 'count'): UserRecord[] {
    this.checkKeys(q, route);
    const filter = compileFilters(this.scope, q.filters);
    let rows = users.filter((u) => filter(u));
    if (route === 'count') return rows;
    const sort = compileSort(this.scope, parseSort(q.sort));
    if (sort) rows = sort(rows);
    const start = q.start === undefined ? 0 : integer(q.start, 'start');
    const limit = q.limit === undefined ? -1 : integer(q.limit, 'limit');
    return rows.slice(Math.max(start, 0), limit < 0 ? undefined : Math.max(start, 0) + limit);
  }

  /** How one user is answered under `fields` and `populate`. */
  shaper(q: Record<string, unknown>, route: 'find' | 'findOne'): (u: UserRecord) => Record<string, unknown> {
    this.checkKeys(q, route);
    const fields = parseFields(q.fields);
    const withRole = parsePopulate(q.populate);
    return (u) => {
      const full: Record<string, unknown> = sanitizeUser(u);
      const out: Record<string, unknown> = fields ? { id: u.id, documentId: u.documentId } : full;
      if (fields) for (const f of fields) out[f] = full[f];
      if (withRole) out.role = this.roles.get(u.role) ?? null;
      return out;
    };
  }
}

function integer(v: unknown, param: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n))
    throw validationError(`Invalid parameter at '${param}'. Expected an integer, received: ${JSON.stringify(v)}`);
  return n;
}

function parseFields(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let list: string[];
  if (typeof raw === 'string') list = raw.split(',');
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
    list = raw.flatMap((s: string) => s.split(','));
  else throw validationError('Invalid fields parameter. Expected a string or an array of strings');
  list = list.map((s) => s.trim()).filter(Boolean);
  if (list.includes('*')) return undefined;
  for (const f of list)
    if (!Object.hasOwn(USER_FIELDS, f)) throw invalidKey(f, { path: null, source: 'query', param: 'fields' });
  return list;
}

/** `populate=role`, `populate=*`, `populate[0]=role`, `populate[role]=true`: whether the role comes back. */
function parsePopulate(raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  const names: string[] = [];
  if (typeof raw === 'string')
    names.push(
      ...raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
    names.push(
      ...raw.flatMap((s: string) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    );
  else if (typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      if (k !== 'role') throw invalidKey(k, { path: null, source: 'query', param: 'populate' });
      if (v === false || v === 'false') continue;
      if (typeof v === 'object' && v !== null && Object.keys(v).length)
        throw validationError('Invalid populate[role]: the role has nothing to populate');
      names.push(k);
    }
  } else throw validationError('Invalid populate parameter');
  for (const n of names)
    if (n !== 'role' && n !== '*') throw invalidKey(n, { path: null, source: 'query', param: 'populate' });
  return names.length > 0;
}
