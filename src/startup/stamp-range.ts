import { statSync } from 'node:fs';
import { documentPaths } from '../store/document-file.js';

/** Numbers per file in a stamp list: mtimeMs, size, ino, ctimeMs. */
export const STAMP = 4;

/**
 * File clocks are coarse: a change in the same tick as a read or a listing would leave an mtime as it
 * was. So what was read or listed is trusted later only if its mtime was older than the read by this
 * many milliseconds.
 */
export const TICK = 100;

/**
 * Stamps of the document files `ids` of one collection: `[mtimeMs, size, ino, ctimeMs]` per file, NaN for
 * a missing file. A module of its own so the stamping worker thread loads nothing else.
 */
export function stampRange(contentDir: string, pluralName: string, ids: string[]): Float64Array {
  const out = new Float64Array(ids.length * STAMP);
  const pathOf = documentPaths(contentDir, pluralName);
  for (let i = 0; i < ids.length; i++) {
    const file = pathOf(ids[i]);
    const s = file === undefined ? undefined : statSync(file, { throwIfNoEntry: false });
    out[i * STAMP] = s ? s.mtimeMs : NaN;
    out[i * STAMP + 1] = s ? s.size : NaN;
    out[i * STAMP + 2] = s ? s.ino : NaN;
    out[i * STAMP + 3] = s ? s.ctimeMs : NaN;
  }
  return out;
}
