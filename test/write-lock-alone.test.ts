import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteLock } from '../src/store/write-lock.js';

/**
 * The write lock is shared by a process's writes, which run side by side under it. A rewrite of the checkout by
 * git (`alone`) must not share it: it starts once the writes under way have ended, and the writes arriving while
 * it runs wait until it is done, so no write lands in a tree git is rewriting (or is undone with it).
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-alone-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
/** Lets everything that can run now run: timers, I/O and the promises they settle. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe('WriteLock.alone', () => {
  it('waits for the writes under way, and holds the writes that come after until it is done', async () => {
    const lock = new WriteLock(join(temp, 'a'));
    const order: string[] = [];
    const firstStarted = deferred();
    const firstEnds = deferred();
    const first = lock.run(async () => {
      order.push('write 1 start');
      firstStarted.resolve();
      await firstEnds.promise;
      order.push('write 1 end');
    });
    await firstStarted.promise;
    const aloneStarted = deferred();
    const aloneEnds = deferred();
    const alone = lock.alone(async () => {
      order.push('alone start');
      aloneStarted.resolve();
      await aloneEnds.promise;
      order.push('alone end');
    });
    const second = lock.run(async () => {
      order.push('write 2');
    });
    await settle();
    order.push('write 1 told to end');
    firstEnds.resolve();
    await aloneStarted.promise;
    await settle();
    order.push('alone told to end');
    aloneEnds.resolve();
    await Promise.all([first, alone, second]);
    expect(order).toEqual([
      'write 1 start',
      'write 1 told to end',
      'write 1 end',
      'alone start',
      'alone told to end',
      'alone end',
      'write 2',
    ]);
  });

  it('runs one at a time, and gives the lock back for the writes after', async () => {
    const lock = new WriteLock(join(temp, 'b'));
    const order: string[] = [];
    const first = lock.alone(async () => {
      order.push('alone 1 start');
      await settle();
      order.push('alone 1 end');
    });
    const second = lock.alone(async () => {
      order.push('alone 2');
    });
    await Promise.all([first, second]);
    await lock.run(async () => {
      order.push('write');
    });
    expect(order).toEqual(['alone 1 start', 'alone 1 end', 'alone 2', 'write']);
  });
});
