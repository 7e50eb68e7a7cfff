import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { spoolToTemp } from '../src/upload/spool.js';

/**
 * An upload part that fails (a body cut short, a client gone) must leave no temp file in the uploads folder,
 * whenever it fails: before the temp file is open, while it opens, or while it is written. A file left there
 * stays until the next start.
 */
describe('spooling an upload part that fails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-spool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const moments: Array<[string, (fail: () => void) => void]> = [
    ['before spooling starts', (fail) => fail()],
    ['on the next tick', (fail) => process.nextTick(fail)],
    ['after pending I/O', (fail) => setImmediate(fail)],
  ];

  it.each(moments)('leaves no temp file when the part fails %s', async (_when, at) => {
    // The file's open and the clean-up's unlink race on the thread pool: many rounds make a lost race show.
    for (let i = 0; i < 200; i++) {
      const part = new PassThrough();
      part.on('error', () => undefined);
      part.write('abc');
      at(() => part.destroy(new Error('Unexpected end of form')));
      await expect(spoolToTemp(part, dir)).rejects.toThrow('Unexpected end of form');
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
