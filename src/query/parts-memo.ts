import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { type ColumnPart, columnParts } from './plan.js';

/**
 * The filters of list queries compiled over the columns (see plan.ts `columnParts`), by type and filter text,
 * shared by the reads that give the same filter: pages and sorts of one filter, clients asking alike. Such parts
 * read only the type's own fields, through the index's columns (no caller, status or locale: those are the
 * plan's), and a filter the compile refuses is compiled, and refused, on every read. Kept per index; a few
 * short texts per type, all dropped when there are more.
 */
const shared = new WeakMap<object, WeakMap<ContentType, Map<string, ColumnPart[]>>>();
const MAX_TEXT = 256;
const MAX_TEXTS = 1024;

export function sharedColumnParts(ctx: ReadContext, ct: ContentType, filters: unknown): ColumnPart[] | undefined {
  const text = JSON.stringify(filters);
  if (text === undefined || text.length > MAX_TEXT) return columnParts(ctx, ct, filters);
  let byType = shared.get(ctx.index);
  if (!byType) shared.set(ctx.index, (byType = new WeakMap()));
  let texts = byType.get(ct);
  if (!texts) byType.set(ct, (texts = new Map()));
  const kept = texts.get(text);
  if (kept) return kept;
  const parts = columnParts(ctx, ct, filters);
  if (parts) {
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(text, parts);
  }
  return parts;
}
