import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteLock } from '../src/store/write-lock.js';
import { eventually } from './helpers/eventually.js';

/**
 * The write lock within one process: its writes share it and run side by side (a server answering several
 * requests at once), the process never waits for a lock it holds itself (nor tells itself it waits, which would
 * make it give the lock back for nobody), and each of several `alone` runs in turn keeps every write out.
 */
const temp = mkdtempSync(join(tmpdir(), 'folio-lock-one-process-'));
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
/** The waiting markers ever put beside the lock: the folder is made by the first one. */
const everWaited = (stateDir: string) => existsSync(join(stateDir, 'locks', 'documents.waiting'));

/**
 * Two writes, the first of which ends once the second has started (or once all that could run has run: a second
 * write kept waiting for the first would otherwise never start). Resolves once both have run.
 */
async function overlapping(lock: WriteLock, order: string[], label: string): Promise<void> {
  const secondStarted = deferred();
  const first = lock.run(async () => {
    order.push(`${label} 1 start`);
    await Promise.race([secondStarted.promise, settle()]);
    order.push(`${label} 1 end`);
  });
  const second = lock.run(async () => {
    order.push(`${label} 2 start`);
    secondStarted.resolve();
    await settle();
    order.push(`${label} 2 end`);
  });
  await Promise.all([first, second]);
}

describe('the writes of one process', () => {
  it('run side by side under the lock, from its first taking, without waiting for themselves', async () => {
    const stateDir = join(temp, 'fresh');
    const lock = new WriteLock(stateDir);
    const order: string[] = [];
    await overlapping(lock, order, 'write');
    expect(order).toEqual(['write 1 start', 'write 2 start', 'write 1 end', 'write 2 end']);
    expect(everWaited(stateDir)).toBe(false);
    // Given back once none runs: the lock folder goes.
    await eventually(() => readdirSync(join(stateDir, 'locks')).length === 0, 'the lock is given back');
  });

  it('join a lock the process already holds', async () => {
    const stateDir = join(temp, 'held');
    const lock = new WriteLock(stateDir);
    const order: string[] = [];
    const outerStarted = deferred();
    // Ends once all that could run has run: the writes below, joining it, have started by then.
    const outer = lock.run(async () => {
      outerStarted.resolve();
      await settle();
      order.push('outer end');
    });
    await outerStarted.promise;
    await Promise.all([overlapping(lock, order, 'inner'), outer]);
    expect(order.slice(0, 2)).toEqual(['inner 1 start', 'inner 2 start']);
    expect(order.filter((step) => step !== 'outer end')).toEqual([
      'inner 1 start',
      'inner 2 start',
      'inner 1 end',
      'inner 2 end',
    ]);
    expect(everWaited(stateDir)).toBe(false);
  });
});

describe('an alone run of one process', () => {
  it('waits for the writes under way without telling itself it waits', async () => {
    const stateDir = join(temp, 'alone-after-writes');
    const lock = new WriteLock(stateDir);
    const order: string[] = [];
    const writeEnds = deferred();
    const writeStarted = deferred();
    const write = lock.run(async () => {
      writeStarted.resolve();
      await writeEnds.promise;
      order.push('write end');
    });
    await writeStarted.promise;
    const alone = lock.alone(async () => {
      order.push('alone');
    });
    await settle();
    writeEnds.resolve();
    await Promise.all([write, alone]);
    expect(order).toEqual(['write end', 'alone']);
    expect(everWaited(stateDir)).toBe(false);
  });

  it('queued behind another keeps out the writes that arrive while it runs', async () => {
    const lock = new WriteLock(join(temp, 'two-alone'));
    const order: string[] = [];
    const firstEnds = deferred();
    const secondStarted = deferred();
    const secondEnds = deferred();
    const first = lock.alone(async () => {
      order.push('alone 1 start');
      await firstEnds.promise;
      order.push('alone 1 end');
    });
    const second = lock.alone(async () => {
      order.push('alone 2 start');
      secondStarted.resolve();
      await secondEnds.promise;
      order.push('alone 2 end');
    });
    await settle();
    firstEnds.resolve();
    await secondStarted.promise;
    // Arrives while the second alone run is under way, after the first has ended.
    const write = lock.run(async () => {
      order.push('write');
    });
    await settle();
    order.push('alone 2 told to end');
    secondEnds.resolve();
    await Promise.all([first, second, write]);
    expect(order).toEqual([
      'alone 1 start',
      'alone 1 end',
      'alone 2 start',
      'alone 2 told to end',
      'alone 2 end',
      'write',
    ]);
  });
});
