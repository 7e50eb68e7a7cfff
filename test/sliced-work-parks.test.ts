import { describe, expect, it } from 'vitest';
import { Job, SlicedRunner, type Work } from '../src/documents/sliced-work.js';

/**
 * Work may yield a promise (files being read on other threads): its job parks until it settles, other jobs
 * run meanwhile, and a job finished at once (a command) goes on without waiting.
 */
describe('jobs that wait for something', () => {
  function gate() {
    let open!: () => void;
    const promise = new Promise<void>((r) => (open = r));
    return { promise, open };
  }

  it('park until what they wait for comes, while other jobs run', async () => {
    const runner = new SlicedRunner();
    const g = gate();
    const log: string[] = [];
    const waiting = new Job(
      (function* (): Work {
        log.push('a: before');
        yield g.promise;
        log.push('a: after');
      })(),
    );
    const other = new Job(
      (function* (): Work {
        log.push('b');
        yield;
      })(),
    );
    const a = runner.wait(waiting);
    await new Promise((r) => setTimeout(r, 20));
    expect(waiting.parked).toBe(g.promise);
    await runner.wait(other);
    expect(log).toEqual(['a: before', 'b']);
    g.open();
    await a;
    expect(log).toEqual(['a: before', 'b', 'a: after']);
  });

  it('go on without waiting when finished at once', () => {
    const g = gate();
    let after = false;
    const job = new Job(
      (function* (): Work {
        yield g.promise;
        after = true;
      })(),
    );
    job.finishNow();
    expect(after).toBe(true);
  });
});
