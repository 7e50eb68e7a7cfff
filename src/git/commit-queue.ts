import type { WriteRecord } from '../documents/write-record.js';
import { authorOf, messageOf } from './identity.js';
import type { Repository } from './repository.js';

/** How long a failed step waits before it is tried again, growing with each failure in a row. */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000, 60_000];

/**
 * The commits of `folio serve --commit`: each write the server made (a `WriteRecord`: who, what, exactly the
 * files it changed and their texts) becomes one commit, in the order the writes were made. Adding a write
 * never waits and never fails: the queue runs on its own, and a step that fails (a lock held by another git,
 * a merge in progress) is logged and tried again until it succeeds. Other steps that must not run between
 * two commits (a rebase before a push) run in the same queue (`exclusive`).
 */
export class CommitQueue {
  private readonly steps: Array<{ run: () => Promise<void>; retry: boolean }> = [];
  private running: Promise<void> | undefined;
  private failures = 0;
  private lastError = '';
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly repo: Repository,
    private readonly log: (message: string) => void,
    /** Told after each commit made (a push follows). */
    private readonly committed?: (commit: string) => void,
  ) {}

  /** Queues one commit of the write. */
  add(record: WriteRecord) {
    const author = authorOf(record.actor, this.repo.owner);
    const message = messageOf(record);
    this.push({
      retry: true,
      run: async () => {
        const commit = await this.repo.commitFiles(record.files, author, message);
        if (commit) this.committed?.(commit);
      },
    });
  }

  /** Runs `fn` between two commits, once (its failure is its caller's). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.push({ retry: false, run: () => fn().then(resolve, reject) }));
  }

  /** Resolves once every queued step is done (or the queue was stopped). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Waits at most `ms` for the queue to empty; answers how many commits are still waiting. */
  async drain(ms: number): Promise<number> {
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, ms).unref())]);
    return this.steps.length;
  }

  /** Stops retrying (the server is stopping): what waits is left uncommitted, its files on disk. */
  stop() {
    this.stopped = true;
    this.wake?.();
  }

  private push(step: { run: () => Promise<void>; retry: boolean }) {
    this.steps.push(step);
    this.running ??= this.pump().finally(() => (this.running = undefined));
  }

  private async pump() {
    while (this.steps.length && !this.stopped) {
      const step = this.steps[0];
      try {
        await step.run();
        if (this.failures) this.log('git: commits go on');
        this.failures = 0;
        this.lastError = '';
        this.steps.shift();
      } catch (err) {
        if (!step.retry) {
          this.steps.shift();
          continue;
        }
        const message = (err as Error).message;
        const wait = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
        // Said once per kind of failure: a lock held for minutes is one line, not one per try.
        if (message !== this.lastError)
          this.log(
            `git: could not commit a write (${message}); the file stays written, tried again in ${wait / 1000} s`,
          );
        this.lastError = message;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, wait).unref();
        });
      }
    }
  }
}
