import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HeldFolder, LOCK_HOST } from '../src/store/held-folder.js';
import { deadPid } from './helpers/dead-pid.js';
import { fsError, lockFs } from './helpers/lock-fs.js';

/**
 * The lock when its file system fails or races: another waiter taking the lock over between a listing and an
 * unlink, a folder moved by another process first, a disk error. A race lost costs no attempt of its own; an
 * error the lock cannot read as "held" or "gone" reaches the caller instead of being taken for either.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-faults-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());
let n = 0;
const place = () => join(temp, `case-${n++}`, 'documents.lock');
/** A lock folder left by a process of this host that has exited. */
const deadHolders = async (folder: string) => {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'holder-dead');
  writeFileSync(file, JSON.stringify({ pid: await deadPid(), host: LOCK_HOST }));
  return file;
};
/** How many attempts of its own a lock made: each starts by making its folder aside. */
const attempts = (spy: ReturnType<typeof lockFs>) => spy.calls.filter((c) => /^mkdir .*\.tmp$/.test(c)).length;

describe('the folders killed processes left beside a lock', () => {
  it('are looked for once per lock, not at every attempt', async () => {
    const folder = place();
    const spy = lockFs({});
    const lock = new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs });
    await (await lock.tryLock())!();
    await (await lock.tryLock())!();
    expect(spy.count('readdir', dirname(folder))).toBe(1);
  });

  it('are removed once older than 30 s, kept until then, and kept when they cannot be dated', async () => {
    const folder = place();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const ages: Record<string, number | undefined> = { old: 30_001, boundary: 30_000, young: 10, undated: undefined };
    for (const name of Object.keys(ages)) mkdirSync(`${folder}.${name}.tmp`, { recursive: true });
    const spy = lockFs({
      stat: async ([path], real) => {
        const age = ages[path.slice(folder.length + 1, -'.tmp'.length)];
        if (!path.endsWith('.tmp')) return real(path);
        if (age === undefined) throw fsError('EIO');
        return { mtimeMs: now - age };
      },
    });
    await (await new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock())!();
    expect(readdirSync(dirname(folder)).sort()).toEqual(
      ['documents.lock.boundary.tmp', 'documents.lock.undated.tmp', 'documents.lock.young.tmp'].sort(),
    );
  });
});

describe('a lock whose attempt fails', () => {
  it('reports a folder it cannot make, and makes none elsewhere', async () => {
    const folder = place();
    let first = true;
    const spy = lockFs({
      mkdir: async (args, real) => {
        if (!first) return real(...args);
        first = false;
        throw fsError('EIO');
      },
    });
    await expect(new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).rejects.toThrow('EIO');
    expect(spy.count('mkdir')).toBe(1);
    expect(existsSync(folder)).toBe(false);
  });

  it.each([
    ["another holder's folder there (ENOTEMPTY)", 'ENOTEMPTY', undefined],
    ['a folder there (EEXIST)', 'EEXIST', undefined],
    ['a disk error', 'EIO', 'EIO'],
    ['an error without a code', undefined, 'no code'],
  ])('reads a rename that fails with %s as held only when it says so', async (_, errCode, rejected) => {
    const folder = place();
    const spy = lockFs({
      rename: async () => {
        throw errCode ? fsError(errCode) : new Error('no code');
      },
    });
    const attempt = new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock();
    if (rejected) await expect(attempt).rejects.toThrow(rejected);
    else expect(await attempt).toBeUndefined();
    // The folder made aside is removed either way.
    expect(readdirSync(dirname(folder))).toEqual([]);
  });

  it('reports a lock folder it cannot list, instead of taking the lock', async () => {
    const folder = place();
    const spy = lockFs({
      readdir: async ([path], real) => {
        if (path === folder) throw fsError('EIO');
        return real(path);
      },
    });
    await expect(new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).rejects.toThrow('EIO');
    expect(existsSync(folder)).toBe(false);
  });
});

describe('a lock whose dead holder is taken over', () => {
  it('by another waiter first, between the listing and the unlink: makes no attempt of its own', async () => {
    const folder = place();
    const file = await deadHolders(folder);
    let other: (() => Promise<void>) | undefined;
    const spy = lockFs({
      unlink: async ([path], real) => {
        if (path !== file) return real(path);
        other = await new HeldFolder(folder, 5000, () => undefined).tryLock();
        throw fsError('ENOENT');
      },
    });
    expect(await new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).toBeUndefined();
    expect(other).toBeTypeOf('function');
    expect(attempts(spy)).toBe(0);
    await other!();
  });

  it('reports an unlink that fails otherwise, and leaves the holder file', async () => {
    const folder = place();
    const file = await deadHolders(folder);
    const spy = lockFs({
      unlink: async () => {
        throw fsError('EIO');
      },
    });
    await expect(new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).rejects.toThrow('EIO');
    expect(existsSync(file)).toBe(true);
  });
});

describe('a lock whose holder is alive', () => {
  it('is kept when its holder file cannot be dated', async () => {
    const folder = place();
    const release = await new HeldFolder(folder, 5000, () => undefined).tryLock();
    const spy = lockFs({
      stat: async () => {
        throw fsError('EIO');
      },
    });
    expect(await new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).toBeUndefined();
    expect(readdirSync(folder)).toHaveLength(1);
    await release!();
  });

  it('is kept until its holder file is older than the stale time, not when it is just as old', async () => {
    const folder = place();
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'holder-far'), JSON.stringify({ pid: 1, host: 'another machine' }));
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    let age = 5000;
    const spy = lockFs({ stat: async () => ({ mtimeMs: now - age }) });
    const waiter = new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs });
    expect(await waiter.tryLock()).toBeUndefined();
    expect(readdirSync(folder)).toEqual(['holder-far']);
    age = 5001;
    const release = await waiter.tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });
});

describe('a lock folder without a holder file but with other files (a .DS_Store)', () => {
  const stray = () => {
    const folder = place();
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '.DS_Store'), '');
    return folder;
  };

  it('is kept while fresh, without an attempt', async () => {
    const folder = stray();
    const spy = lockFs({});
    expect(await new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).toBeUndefined();
    expect(attempts(spy)).toBe(0);
    expect(readdirSync(folder)).toEqual(['.DS_Store']);
  });

  it('once stale, moved aside by another process first: makes no attempt of its own', async () => {
    const folder = stray();
    const spy = lockFs({
      stat: async () => ({ mtimeMs: 0 }),
      rename: async ([from, to], real) => {
        if (from === folder) throw fsError('ENOENT');
        return real(from, to);
      },
    });
    expect(await new HeldFolder(folder, 5000, () => undefined, { fs: spy.fs }).tryLock()).toBeUndefined();
    expect(attempts(spy)).toBe(0);
  });
});
