import { type ErrorDetails, invalidKey, validationError } from '../errors.js';
import { compileFilters } from '../query/filters.js';
import type { Scope } from '../query/scope.js';

/** How a user's `role` comes back: not at all (undefined), whole, or with some `fields`, or null past `filters`. */
export interface RolePopulate {
  fields?: string[];
  keep: (role: unknown) => boolean;
}

const BOOLEAN_LIKE = new Set(['true', 'false', '1', '0', 't', 'f']);
const isBooleanLike = (v: unknown) =>
  typeof v === 'boolean' || (typeof v === 'number' && (v === 0 || v === 1)) || BOOLEAN_LIKE.has(String(v));
const isFalse = (v: unknown) => v === false || v === 0 || v === 'false' || v === '0' || v === 'f';

/** A populate error as Strapi's query validator words it (`Invalid key x at path`), param `populate`. */
const invalid = (key: string, path: string | null) => invalidKey(key, { path, source: 'query', param: 'populate' });

/**
 * `populate` on the users routes, as Strapi's query validator takes it for the user model, whose one relation is
 * `role`: `role` or `*` (a string, a list, `populate[role]=true`), `populate[role]=false` (nothing), and
 * `populate[role][fields|filters|sort|count]`. A role's own relations (its users, its permissions) are not
 * populated through the users routes: they are read from `/api/users-permissions/roles/:id`.
 */
export function parseRolePopulate(
  raw: unknown,
  roleScope: Scope,
  roleFields: readonly string[],
): RolePopulate | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const names = (list: string[]) => {
    const all = list.flatMap((s) => s.split(',')).map((s) => s.trim());
    for (const n of all) if (n && n !== 'role' && n !== '*') throw invalid(n, n);
    return all.some(Boolean) ? { keep: () => true } : undefined;
  };
  if (typeof raw === 'string') return names([raw]);
  if (Array.isArray(raw)) {
    if (raw.every((x) => typeof x === 'string')) return names(raw as string[]);
    throw validationError('Invalid populate parameter', { source: 'query', param: 'populate' });
  }
  if (typeof raw !== 'object')
    throw validationError('Invalid populate parameter', { source: 'query', param: 'populate' });
  let out: RolePopulate | undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key !== 'role' && key !== '*') throw invalid(key, key);
    if (value === undefined || isFalse(value)) continue;
    if (value === true || value === '*' || isBooleanLike(value)) {
      out = { keep: () => true };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(key, key);
    out = nested(value as Record<string, unknown>, roleScope, roleFields);
  }
  return out;
}

function nested(value: Record<string, unknown>, roleScope: Scope, roleFields: readonly string[]): RolePopulate {
  let fields: string[] | undefined;
  let keep: (role: unknown) => boolean = () => true;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'fields') fields = roleFieldList(v, roleFields);
    else if (key === 'filters') keep = compileFilters(roleScope, v);
    else if (key === 'sort' || isBooleanLike(key)) continue;
    else if (key === 'count') {
      if (!isBooleanLike(v)) throw invalid('count', 'role');
    } else if (key === 'populate') {
      if (v !== undefined && v !== '' && !isFalse(v)) {
        const details: ErrorDetails = { key: 'populate', path: 'role', source: 'query', param: 'populate' };
        throw validationError(
          "A role's users and permissions are not populated through /api/users: " +
            'read them from /api/users-permissions/roles/:id',
          details,
        );
      }
    } else throw invalid(key, 'role');
  }
  return { fields, keep };
}

function roleFieldList(raw: unknown, known: readonly string[]): string[] | undefined {
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : Object.values(raw ?? {});
  const names = list.flatMap((x) => String(x).split(',')).map((s) => s.trim());
  if (names.includes('*')) return undefined;
  for (const n of names) if (n && !known.includes(n)) throw invalid(n, 'role');
  return names.filter(Boolean);
}
