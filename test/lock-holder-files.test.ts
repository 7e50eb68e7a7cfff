import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeldFolder, LOCK_HOST, alive, asHolder, linuxId, releaseHeldFiles } from '../src/store/held-folder.js';
import { deadPid } from './helpers/dead-pid.js';

/**
 * What a lock's holder file must say for a waiter to trust it: a positive whole pid and a host. A file that says
 * anything else (cut off, edited by hand, written by another tool) is never read as a dead holder's: the lock it
 * guards is kept until it goes stale. A holder whose process cannot be asked about counts as alive.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-holder-files-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let n = 0;
/** A lock folder holding one holder file with `content`, touched `agoMs` ago. */
const lockWith = (content: string, agoMs = 0) => {
  const folder = join(temp, `case-${n++}`, 'documents.lock');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'holder-handmade');
  writeFileSync(file, content);
  const at = new Date(Date.now() - agoMs);
  utimesSync(file, at, at);
  return folder;
};

describe('a holder file read', () => {
  it.each([
    ['a holder', { pid: 12, host: 'box' }, { pid: 12, host: 'box' }],
    ['null', null, undefined],
    ['a number', 5, undefined],
    ['a string', 'holder', undefined],
    ['a pid of 0', { pid: 0, host: 'box' }, undefined],
    ['a negative pid', { pid: -12, host: 'box' }, undefined],
    ['a fractional pid', { pid: 1.5, host: 'box' }, undefined],
    ['a pid written as a string', { pid: '12', host: 'box' }, undefined],
    ['no host', { pid: 12 }, undefined],
    ['a host that is no string', { pid: 12, host: 5 }, undefined],
  ])('%s is read as %j', (_, value, expected) => {
    expect(asHolder(value)).toEqual(expected);
  });
});

describe('a lock whose holder file is not one', () => {
  it.each([
    ['a dead pid written as a string', async () => ({ pid: String(await deadPid()), host: LOCK_HOST })],
    ['a dead pid written negative', async () => ({ pid: -(await deadPid()), host: LOCK_HOST })],
    ['no host', async () => ({ pid: await deadPid() })],
  ])('(%s) is kept while fresh, and taken once stale', async (_, content) => {
    const text = JSON.stringify(await content());
    const fresh = lockWith(text);
    expect(await new HeldFolder(fresh, 5000, () => undefined).tryLock()).toBeUndefined();
    expect(readdirSync(fresh)).toEqual(['holder-handmade']);
    const stale = lockWith(text, 10_000);
    const release = await new HeldFolder(stale, 5000, () => undefined).tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });
});

describe('a holder of this host', () => {
  it('counts as gone only when its process is known to have exited', async () => {
    expect(alive({ pid: process.pid, host: LOCK_HOST })).toBe(true);
    expect(alive({ pid: await deadPid(), host: LOCK_HOST })).toBe(false);
    // No process can have this pid; the system cannot be asked about it, so it is not known to be gone.
    expect(alive({ pid: 2 ** 31, host: LOCK_HOST })).toBe(true);
  });

  it('whose process cannot be asked about keeps its lock until stale', async () => {
    const folder = lockWith(JSON.stringify({ pid: 2 ** 31, host: LOCK_HOST }));
    expect(await new HeldFolder(folder, 5000, () => undefined).tryLock()).toBeUndefined();
    expect(readdirSync(folder)).toEqual(['holder-handmade']);
  });

  it('that died is taken over at once', async () => {
    const folder = lockWith(JSON.stringify({ pid: await deadPid(), host: LOCK_HOST }));
    const release = await new HeldFolder(folder, 5000, () => undefined).tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
  });
});

describe("this host's name", () => {
  it('has a part for each id it can read, and none for one it cannot (no /proc)', () => {
    expect(linuxId(() => 'b00t-1d\n')).toBe(' b00t-1d');
    expect(
      linuxId(() => {
        throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
      }),
    ).toBe('');
  });

  it('names the holders, whose locks are given back when the process exits', () => {
    expect(process.listeners('exit')).toContain(releaseHeldFiles);
  });
});
