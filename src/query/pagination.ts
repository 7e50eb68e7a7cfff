import { paginationError, validationError } from '../errors.js';

export type Pagination =
  | { mode: 'page'; page: number; pageSize: number; withCount: boolean; start: number }
  | { mode: 'offset'; start: number; limit: number; withCount: boolean };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const toNumber = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
const toInt = (v: unknown) =>
  typeof v === 'number'
    ? Math.trunc(v)
    : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)
      ? Math.trunc(Number(v))
      : NaN;

/** Strapi's pagination rules: page or offset style, clamped to [1, maxLimit], mixing styles is a 400. */
export function parsePagination(
  raw: unknown,
  rest: { defaultLimit: number; maxLimit: number; withCount: boolean },
): Pagination {
  // Strapi ignores a `pagination` that is not an object, and unknown keys inside it.
  const p = (isObject(raw) ? raw : {}) as Record<string, unknown>;
  let withCount = rest.withCount;
  if (p.withCount !== undefined) {
    const s = String(p.withCount).toLowerCase();
    if (['true', 't', '1'].includes(s)) withCount = true;
    else if (['false', 'f', '0'].includes(s)) withCount = false;
    else throw validationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  }
  const pageStyle = p.page !== undefined || p.pageSize !== undefined;
  const offsetStyle = p.start !== undefined || p.limit !== undefined;
  if (pageStyle && offsetStyle) throw paginationError('Cannot use both page & offset pagination in the same query');
  const clampLimit = (v: unknown) => {
    if (v === undefined) return rest.defaultLimit;
    const n = toInt(v);
    if (Number.isNaN(n)) return rest.maxLimit;
    return Math.min(Math.max(n, 1), rest.maxLimit);
  };
  if (offsetStyle) {
    let start = 0;
    if (p.start !== undefined) {
      start = toInt(p.start);
      if (Number.isNaN(start))
        throw validationError(`Invalid parameter at 'start'. Expected integer >= 0, received: NaN`);
      start = Math.max(start, 0);
    }
    return { mode: 'offset', start, limit: clampLimit(p.limit), withCount };
  }
  const pageSize = clampLimit(p.pageSize);
  let start = 0;
  if (p.page !== undefined) {
    const page = toNumber(p.page);
    if (Number.isNaN(page)) throw validationError(`Invalid parameter at 'start'. Expected integer >= 0, received: NaN`);
    // Strapi converts to an offset ((page - 1) * pageSize, kept whole) and reports the page of that offset.
    start = Math.max(Math.floor((page - 1) * pageSize), 0);
  }
  return { mode: 'page', page: Math.floor(start / pageSize) + 1, pageSize, withCount, start };
}

/** Slices the matching rows and builds `meta.pagination` in the shape of the style used. */
export function paginate<T>(
  rows: { readonly length: number; slice(start: number, end: number): T[] },
  p: Pagination,
): { page: T[]; meta: Record<string, number> } {
  const total = rows.length;
  if (p.mode === 'offset') {
    const meta: Record<string, number> = { start: p.start, limit: p.limit };
    if (p.withCount) meta.total = total;
    return { page: rows.slice(p.start, p.start + p.limit), meta };
  }
  const start = p.start;
  const meta: Record<string, number> = { page: p.page, pageSize: p.pageSize };
  if (p.withCount) {
    meta.pageCount = Math.ceil(total / p.pageSize);
    meta.total = total;
  }
  return { page: rows.slice(start, start + p.pageSize), meta };
}
