import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeldFolder, releaseHeldFiles } from '../src/store/held-folder.js';
import { WriteLock } from '../src/store/write-lock.js';
import { deadPid } from './helpers/dead-pid.js';

/**
 * Who keeps the project's write lock, and for how long: a holder that keeps writing keeps it past the stale time;
 * one of a machine of the same name (a shared folder) is not taken for a dead process of this one; a holder that
 * was taken over while frozen is told so, and gives back nothing of the new holder's; the folders killed
 * processes left beside the lock go, and nothing else.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-holders-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const dated = (path: string, agoMs: number) => {
  const at = new Date(Date.now() - agoMs);
  utimesSync(path, at, at);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a write lock held for longer than its stale time', () => {
  it('is kept by a holder that is still running, and given back whole', async () => {
    const folder = join(temp, 'long', 'documents.lock');
    const holder = new HeldFolder(folder, 600, () => undefined);
    const release = await holder.tryLock();
    expect(release).toBeTypeOf('function');
    // Three stale times: the holder touches its file all along, so none of the waiters' attempts takes it.
    const waiter = new HeldFolder(folder, 600, () => undefined);
    for (let i = 0; i < 6; i++) {
      await sleep(300);
      expect(await waiter.tryLock(), `attempt ${i}`).toBeUndefined();
    }
    await release!();
    expect(readdirSync(join(temp, 'long'))).toEqual([]);
    const next = await waiter.tryLock();
    expect(next).toBeTypeOf('function');
    await next!();
  });
});

describe('a write lock whose holder names this machine by its name alone', () => {
  it('is taken for the lock of another machine of that name: kept, even when the pid is dead here', async () => {
    const folder = join(temp, 'same-name', 'documents.lock');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'holder-same0name'), JSON.stringify({ pid: await deadPid(), host: hostname() }));
    expect(await new HeldFolder(folder, 5000, () => undefined).tryLock()).toBeUndefined();
    expect(readdirSync(folder)).toEqual(['holder-same0name']);
  });
});

describe('a write lock taken over while its holder was frozen', () => {
  it('is reported by the holder as taken over, and its writes end without removing the new lock', async () => {
    const stateDir = join(temp, 'frozen', '.folio');
    const folder = join(stateDir, 'locks', 'documents.lock');
    const warned = new Promise<Error>((resolve) => {
      const onWarning = (w: Error) => {
        if (!w.message.startsWith('folio write lock')) return;
        process.off('warning', onWarning);
        resolve(w);
      };
      process.on('warning', onWarning);
    });
    let taker: (() => Promise<void>) | undefined;
    await new WriteLock(stateDir).run(async () => {
      // As if this process had been frozen past the stale time: another takes the lock over.
      for (const name of readdirSync(folder)) dated(join(folder, name), 60_000);
      taker = await new HeldFolder(folder, 5000, () => undefined).tryLock();
      expect(taker).toBeTypeOf('function');
      const warning = await warned;
      expect(warning.message).toBe(
        'folio write lock: the lock was taken over by another process (it went stale while held)',
      );
    });
    // The write ended and gave back what it held: the new holder's lock is still in place.
    expect(readdirSync(folder)).toHaveLength(1);
    expect(await new HeldFolder(folder, 5000, () => undefined).tryLock()).toBeUndefined();
    await taker!();
    expect(readdirSync(join(stateDir, 'locks'))).toEqual([]);
  }, 20_000);
});

describe('the folders left beside a write lock', () => {
  it('go once old if they are the lock’s own, taken or given back half-way; other names stay', async () => {
    const parent = join(temp, 'beside');
    const beside = (name: string) => {
      mkdirSync(join(parent, name, 'holder-x'), { recursive: true });
      dated(join(parent, name), 60_000);
    };
    const gone = ['documents.lock.a1.tmp', 'documents.lock.b2.old'];
    const kept = ['media.lock.c3.tmp', 'documents.lock.d4.keep', 'documents.lock.e5.tmp.bak', 'xdocuments.lock.f6.old'];
    for (const name of [...gone, ...kept]) beside(name);
    const release = await new HeldFolder(join(parent, 'documents.lock'), 5000, () => undefined).tryLock();
    expect(release).toBeTypeOf('function');
    await release!();
    expect(readdirSync(parent).sort()).toEqual([...kept].sort());
  });
});

describe('a free write lock that several try to take at once', () => {
  it('is taken by exactly one of them, and nothing of the others is left beside it', async () => {
    for (let round = 0; round < 10; round++) {
      const parent = join(temp, 'race', String(round));
      const folder = join(parent, 'documents.lock');
      const attempts = await Promise.all(
        Array.from({ length: 6 }, () => new HeldFolder(folder, 5000, () => undefined).tryLock()),
      );
      const taken = attempts.filter((release) => release !== undefined);
      expect(taken, `round ${round}`).toHaveLength(1);
      expect(readdirSync(parent)).toEqual(['documents.lock']);
      await taken[0]!();
      expect(readdirSync(parent)).toEqual([]);
    }
  });
});

describe('a process that exits while it holds a write lock', () => {
  it('gives it back on its way out, and its later release leaves the next holder’s lock alone', async () => {
    const parent = join(temp, 'exit');
    const folder = join(parent, 'documents.lock');
    const release = await new HeldFolder(folder, 5000, () => undefined).tryLock();
    expect(readdirSync(parent)).toEqual(['documents.lock']);
    // What the process runs as it exits (a spawned holder shows the exit itself: write-lock-takeover).
    releaseHeldFiles();
    expect(readdirSync(parent)).toEqual([]);
    const next = await new HeldFolder(folder, 5000, () => undefined).tryLock();
    expect(next).toBeTypeOf('function');
    await release!();
    expect(readdirSync(folder)).toHaveLength(1);
    await next!();
    expect(readdirSync(parent)).toEqual([]);
  });
});
