import type { RowList } from '../documents/doc-index.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import type { ReadQuery } from './read.js';

/**
 * Row lists of queries the indexes could not answer (each read every row), by query, kept for one generation
 * of the index (any change empties it), so paging through such a result does not read every row again.
 * Bounded by the rows the lists hold, oldest dropped first.
 */
const results = new WeakMap<object, { generation: number; entries: Map<string, RowList>; rows: number }>();
const MAX_ROWS = 1_000_000;

const keyOf = (ct: ContentType, q: ReadQuery) => `${ct.uid}|${JSON.stringify(q.resultParams)}`;

export function cachedResult(ctx: ReadContext, ct: ContentType, q: ReadQuery): RowList | undefined {
  const c = results.get(ctx.index);
  if (!c || c.generation !== ctx.index.generation) return undefined;
  return c.entries.get(keyOf(ct, q));
}

export function storeResult(ctx: ReadContext, ct: ContentType, q: ReadQuery, rows: RowList) {
  let c = results.get(ctx.index);
  if (!c || c.generation !== ctx.index.generation) {
    c = { generation: ctx.index.generation, entries: new Map(), rows: 0 };
    results.set(ctx.index, c);
  }
  if (rows.length > MAX_ROWS) return;
  for (const [key, list] of c.entries) {
    if (c.rows + rows.length <= MAX_ROWS) break;
    c.entries.delete(key);
    c.rows -= list.length;
  }
  c.entries.set(keyOf(ct, q), rows);
  c.rows += rows.length;
}
