import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeldFolder, releaseHeldFiles } from '../src/store/held-folder.js';
import { fsError, lockFs } from './helpers/lock-fs.js';

/**
 * A held lock's upkeep: its holder file touched every half of the stale time, a failed touch tried again, a lost
 * file reported once as a take-over, and nothing touched or removed after the lock is given back. The clock is
 * Vitest's (only the timers) and every touch is answered by the test, so each step is taken on cue.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-touches-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());
const flush = () => new Promise((r) => setImmediate(r));
let n = 0;

/** A lock held with stale time 1 s, whose touches `touch` answers. */
async function held(touch: () => Promise<void>, unlink?: (path: string) => Promise<void>) {
  const folder = join(temp, `case-${n++}`, 'documents.lock');
  const compromised: string[] = [];
  const spy = lockFs({ utimes: touch, ...(unlink && { unlink: async ([path]) => unlink(path) }) });
  const release = await new HeldFolder(folder, 1000, (m) => compromised.push(m), { fs: spy.fs }).tryLock();
  return { folder, compromised, spy, release: release! };
}
/** One touch's turn: its timer, then its answer. */
const turn = async () => {
  await vi.advanceTimersByTimeAsync(500);
  await flush();
};
const deferred = () => {
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
};

describe('a held lock', () => {
  it('is touched every half of its stale time, and a touch that fails is tried again', async () => {
    let touches = 0;
    const lock = await held(async () => {
      touches++;
      if (touches === 1) throw fsError('EIO');
    });
    await turn();
    await turn();
    await turn();
    expect(touches).toBe(3);
    expect(lock.compromised).toEqual([]);
    await lock.release();
  });

  it('whose file is gone at a touch reports a take-over once, and gives back nothing after', async () => {
    let touches = 0;
    const lock = await held(async () => {
      touches++;
      throw fsError('ENOENT');
    });
    await turn();
    await turn();
    expect(lock.compromised).toEqual(['the lock was taken over by another process (it went stale while held)']);
    expect(touches).toBe(1);
    await lock.release();
    expect(lock.spy.count('unlink')).toBe(0);
  });
});

describe('a lock given back while a touch is under way', () => {
  it.each([
    ['succeeds', (d: ReturnType<typeof deferred>) => d.resolve()],
    ['finds the file gone', (d: ReturnType<typeof deferred>) => d.reject(fsError('ENOENT'))],
  ])('is touched no more when that touch %s, and reports no take-over', async (_, answer) => {
    const pending = deferred();
    let touches = 0;
    const lock = await held(() => {
      touches++;
      return touches === 1 ? pending.promise : Promise.resolve();
    });
    await turn();
    expect(touches).toBe(1);
    await lock.release();
    answer(pending);
    await flush();
    await turn();
    await turn();
    expect(touches).toBe(1);
    expect(lock.compromised).toEqual([]);
  });
});

describe('giving a lock back', () => {
  it('twice removes its file once', async () => {
    const lock = await held(async () => undefined);
    await lock.release();
    await lock.release();
    expect(lock.spy.count('unlink')).toBe(1);
    expect(existsSync(lock.folder)).toBe(false);
  });

  it('reports a file it cannot remove', async () => {
    const lock = await held(
      async () => undefined,
      async () => {
        throw fsError('EIO');
      },
    );
    await expect(lock.release()).rejects.toThrow('EIO');
  });

  it('after a take-over forgets the file: the exit then removes nothing', async () => {
    const lock = await held(
      async () => undefined,
      async () => {
        throw fsError('ENOENT');
      },
    );
    await lock.release();
    releaseHeldFiles();
    expect(existsSync(lock.folder)).toBe(true);
  });
});
