import { type ErrorDetails, FolioError, invalidKey, validationError } from '../errors.js';
import { compileFilters } from '../query/filters.js';
import type { Scope } from '../query/scope.js';

/** How a user's `role` comes back: not at all (undefined), whole, or with some `fields`, or null past `filters`. */
export interface RolePopulate {
  fields?: string[];
  keep: (role: unknown) => boolean;
}

/** The role's own relations: names a `fields` list may not hold (placed at their own path, as Strapi's check does). */
const ROLE_RELATIONS = ['users', 'permissions'];
const BOOLEAN_LIKE = new Set(['true', 'false', '1', '0', 't', 'f']);
const isBooleanLike = (v: unknown) =>
  typeof v === 'boolean' || (typeof v === 'number' && (v === 0 || v === 1)) || BOOLEAN_LIKE.has(String(v));
const isFalse = (v: unknown) => v === false || v === 0 || v === 'false' || v === '0' || v === 'f';

/** Folio's answer to populating a role's own relations (Strapi would): where to read them instead. */
function notHere() {
  const details: ErrorDetails = { key: 'populate', path: 'role', source: 'query', param: 'populate' };
  return validationError(
    "A role's users and permissions are not populated through /api/users: " +
      'read them from /api/users-permissions/roles/:id',
    details,
  );
}

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
  // Dot paths, as Strapi's validator reads them: `role` (`*` alone is every relation: the role).
  const names = (list: string[]) => {
    if (list.length === 1 && list[0].trim() === '*' && typeof raw === 'string') return { keep: () => true };
    const items = list.flatMap((s) => s.split(',')).map((s) => s.trim());
    for (const item of items.filter(Boolean)) {
      const [head, next] = item
        .split('.')
        .map((s) => s.trim())
        .filter(Boolean);
      if (head !== 'role') throw invalid(head, head);
      if (next === 'users' || next === 'permissions') throw notHere();
      if (next !== undefined) throw invalid(next, `role.${next}`);
    }
    return items.some(Boolean) ? { keep: () => true } : undefined;
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
    // As Strapi's validator: boolean-like keys are passed over; other keys that are not `role` are refused.
    if (isBooleanLike(key)) continue;
    if (key !== 'role') throw invalid(key, null);
    if (value === undefined || isFalse(value)) continue;
    if (value === true || value === '*' || isBooleanLike(value)) {
      out = { keep: () => true };
      continue;
    }
    // A string names populate paths under the role, where Strapi's validator takes no attribute name.
    if (typeof value === 'string') {
      const first = value.split(',')[0].split('.')[0].trim();
      throw invalid(first, roleFields.includes(first) ? `role.${first}` : 'role');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(key, null);
    out = nested(value as Record<string, unknown>, roleScope, roleFields);
  }
  return out;
}

function nested(value: Record<string, unknown>, roleScope: Scope, roleFields: readonly string[]): RolePopulate {
  let fields: string[] | undefined;
  let keep: (role: unknown) => boolean = () => true;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'fields') fields = roleFieldList(v, roleFields);
    else if (key === 'filters') keep = underPopulate(() => compileFilters(roleScope, v));
    else if (key === 'sort' || isBooleanLike(key)) continue;
    else if (key === 'count') {
      if (!isBooleanLike(v)) throw invalid('count', 'role');
    } else if (key === 'populate') {
      if (v !== undefined && v !== '' && !isFalse(v)) throw notHere();
    } else throw invalid(key, roleFields.includes(key) ? `role.${key}` : 'role');
  }
  return { fields, keep };
}

function roleFieldList(raw: unknown, known: readonly string[]): string[] | undefined {
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : Object.values(raw ?? {});
  const names = list.flatMap((x) => String(x).split(',')).map((s) => s.trim());
  if (names.includes('*')) return undefined;
  // As Strapi's fields check: an unknown name is placed nowhere (its path is null).
  for (const n of names)
    if (n && n !== 'id' && n !== 'documentId' && !known.includes(n))
      throw invalid(n, ROLE_RELATIONS.includes(n) ? n : null);
  return names.filter(Boolean);
}

/** A nested check's error, reported under `populate` as Strapi's validator reports it. */
function underPopulate<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof FolioError) || !err.details) throw err;
    throw new FolioError(err.status, err.errorName, err.message, { ...err.details, param: 'populate' });
  }
}
