import type { Version } from '../documents/model.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { type Selection, shapeDocument } from './output.js';

/**
 * Shaped documents as JSON text, reused from answer to answer for one generation of the index (any change
 * empties it): a list page costs about its rows' lookups, not their shaping and serialising, when its documents
 * were shown before with the same selection. Keyed by `selection` (the caller's permissions, the status, the
 * type, `fields` and `populate`: all a shaped document depends on besides the version) and by version. Each
 * entry keeps the read budget its shaping spent, counted again when it is reused. Bounded by the text held.
 */
interface Shaped {
  text: string;
  rows: number;
  bytes: number;
}

const MAX_BYTES = 32 * 1024 * 1024;
const caches = new WeakMap<
  object,
  { generation: number; bytes: number; bySelection: Map<string, Map<Version, Shaped>> }
>();

/** The JSON text of `v` shaped with `sel`, from the cache when it was shaped so before in this generation. */
export function shapedText(ctx: ReadContext, ct: ContentType, v: Version, sel: Selection, selection: string): string {
  let c = caches.get(ctx.index);
  if (!c || c.generation !== ctx.index.generation || c.bytes > MAX_BYTES) {
    c = { generation: ctx.index.generation, bytes: 0, bySelection: new Map() };
    caches.set(ctx.index, c);
  }
  let texts = c.bySelection.get(selection);
  if (!texts) c.bySelection.set(selection, (texts = new Map()));
  const hit = texts.get(v);
  if (hit) {
    ctx.budget?.rows(hit.rows);
    ctx.budget?.bytes(hit.bytes);
    return hit.text;
  }
  const [rows, bytes] = ctx.budget?.used() ?? [0, 0];
  const text = JSON.stringify(shapeDocument(ctx, ct, v, sel));
  const [rowsAfter, bytesAfter] = ctx.budget?.used() ?? [0, 0];
  texts.set(v, { text, rows: rowsAfter - rows, bytes: bytesAfter - bytes });
  c.bytes += text.length;
  return text;
}
