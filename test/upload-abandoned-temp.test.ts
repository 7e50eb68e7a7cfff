import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { spoolToTemp } from '../src/upload/spool.js';

/**
 * An upload whose connection closes leaves no temp file in the uploads folder: not even when the part's
 * stream is already gone by the time its temp file is opened (a busy server sees the close first).
 */
describe('an abandoned upload part', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-spool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves no temp file when its stream was destroyed before spooling began', async () => {
    for (let i = 0; i < 20; i++) {
      const part = new PassThrough();
      part.write('half a file');
      part.destroy();
      await expect(spoolToTemp(part, dir)).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no temp file when its stream is destroyed while spooling', async () => {
    for (let i = 0; i < 20; i++) {
      const part = new PassThrough();
      const spooled = spoolToTemp(part, dir);
      part.write('half a file');
      setImmediate(() => part.destroy());
      await expect(spooled).rejects.toThrow();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(dir)).toEqual([]);
  });
});
