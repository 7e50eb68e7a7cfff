import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeldFolder } from '../src/store/held-folder.js';
import { fsError, lockFs } from './helpers/lock-fs.js';

/**
 * The lock as it runs on Windows, which refuses to rename a folder over an existing one, even an empty one (and
 * says EPERM where others say ENOTEMPTY): an empty folder at the lock's place is removed once stale, not taken
 * over at once. The platform is the lock's option; the folders are real.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-windows-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let n = 0;
const emptyLock = () => {
  const folder = join(temp, `case-${n++}`, 'documents.lock');
  mkdirSync(folder, { recursive: true });
  return folder;
};

describe.each([
  ['win32', false],
  ['linux', true],
] as const)('an empty lock folder, fresh, on %s', (platform, taken) => {
  it(taken ? 'is free: taken at once' : 'is kept until stale', async () => {
    const folder = emptyLock();
    const release = await new HeldFolder(folder, 5000, () => undefined, { platform }).tryLock();
    expect(release !== undefined).toBe(taken);
    expect(existsSync(folder)).toBe(true);
    await release?.();
  });
});

describe('an empty lock folder, stale, on win32', () => {
  it('is removed, and the lock taken with one rename of its own', async () => {
    const folder = emptyLock();
    const spy = lockFs({ stat: async () => ({ mtimeMs: 0 }) });
    const release = await new HeldFolder(folder, 5000, () => undefined, { platform: 'win32', fs: spy.fs }).tryLock();
    expect(release).toBeTypeOf('function');
    expect(spy.count('rename')).toBe(1);
    expect(readdirSync(folder)).toHaveLength(1);
    await release!();
  });
});

describe.each([
  ['win32', 'EPERM', undefined],
  ['linux', 'EPERM', 'EPERM'],
  ['win32', 'EIO', 'EIO'],
] as const)("a rename refused with %s's %s", (platform, errCode, rejected) => {
  it(rejected ? 'is reported' : 'is read as a lock held', async () => {
    const folder = join(temp, `case-${n++}`, 'documents.lock');
    const spy = lockFs({
      rename: async () => {
        throw fsError(errCode);
      },
    });
    const attempt = new HeldFolder(folder, 5000, () => undefined, { platform, fs: spy.fs }).tryLock();
    if (rejected) await expect(attempt).rejects.toThrow(rejected);
    else expect(await attempt).toBeUndefined();
  });
});
