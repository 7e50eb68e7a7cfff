import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Stamps of files `dir/<id><suffix>`: `[mtimeMs, size, ino]` triples, NaN for a missing file. A module of
 * its own so the stamping worker thread loads nothing else.
 */
export function stampRange(dir: string, ids: string[], suffix: string): Float64Array {
  const out = new Float64Array(ids.length * 3);
  for (let i = 0; i < ids.length; i++) {
    const s = statSync(join(dir, ids[i] + suffix), { throwIfNoEntry: false });
    out[i * 3] = s ? s.mtimeMs : NaN;
    out[i * 3 + 1] = s ? s.size : NaN;
    out[i * 3 + 2] = s ? s.ino : NaN;
  }
  return out;
}
