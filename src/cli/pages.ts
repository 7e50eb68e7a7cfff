import { InvalidArgumentError } from 'commander';

/** Paging in `docs list`: the values --page and --page-size take, and the line printed under a list. */

/** commander's parser for a whole number of at least `min`: anything else is a usage error naming the option. */
export const wholeNumber = (min: number) => (value: string) => {
  const v = value.trim();
  if (!/^\d{1,15}$/.test(v) || Number(v) < min)
    throw new InvalidArgumentError(`Expected a whole number of ${min} or more.`);
  return v;
};

/** The REST answer's `meta.pagination`: page-based, or start/limit-based; no total with withCount=false. */
type Pagination = Partial<Record<'page' | 'pageSize' | 'pageCount' | 'start' | 'limit' | 'total', number>>;

/**
 * What a list says under its rows: where this page is and how many there are in all (`page 2 of 3 (61 in
 * all)`, `11 to 13 of 40`); when nothing matches, just that (never "page 1 of 0").
 */
export function pageSummary(p: Pagination, shown: number, plural: string): string {
  if (p.total === 0 || (p.total === undefined && shown === 0 && !p.page && !p.start)) return `No ${plural} found.`;
  const inAll = p.total === undefined ? '' : ` (${p.total} in all)`;
  if (p.page !== undefined) {
    const of = p.pageCount === undefined ? '' : ` of ${p.pageCount}`;
    const past = shown === 0 ? `: past the last page` : '';
    return `page ${p.page}${of}${inAll}${past}`;
  }
  const start = p.start ?? 0;
  if (shown === 0) return `nothing from ${start + 1}${inAll}`;
  return `${start + 1} to ${start + shown}${p.total === undefined ? '' : ` of ${p.total}`}`;
}
