/**
 * Work too long to do at once on the event loop (decoding a large collection, sorting it by a field, a scan
 * a query cannot avoid), written as a generator that yields at points where it may pause. A job is run in
 * slices of a few milliseconds, with a turn of the event loop between them, so requests keep being answered
 * while it runs; or finished at once by a caller that cannot wait (a command run from the terminal).
 */
export type Work = Generator<void, void, void>;

/**
 * Rows a job handles between two pauses when building an index over a whole type: a slice can end only at a
 * pause, and some rows cost far more than others (a growing hash table, a value decoded), so pauses come often.
 */
export const ROWS_PER_PAUSE = 256;

/** How long a slice runs before it lets the event loop turn. */
const SLICE_MS = 6;
/** How long background work waits while the server is busy before it goes on anyway. */
const YIELD_AT_MOST_MS = 100;

/** One piece of work, shared by whoever needs it done. */
export class Job {
  done = false;
  failed: unknown;
  /** How many callers wait for it: while any does, it runs without giving way to requests. */
  waiting = 0;
  private settled: Array<{ resolve(): void; reject(err: unknown): void }> = [];

  constructor(private readonly work: Work) {}

  /** Runs the work for up to `ms` milliseconds (or to its end); answers whether it is done. */
  step(ms: number): boolean {
    if (this.done) return true;
    const until = performance.now() + ms;
    try {
      // The time is read at each pause: the work pauses often enough (every few hundred rows) for that.
      do if (this.work.next().done) return this.finish();
      while (performance.now() < until);
    } catch (err) {
      this.failed = err;
      return this.finish();
    }
    return false;
  }

  /** Runs the work to its end now, on this turn of the event loop. */
  finishNow() {
    while (!this.step(1000));
    if (this.failed !== undefined) throw this.failed;
  }

  private finish(): true {
    this.done = true;
    for (const s of this.settled.splice(0)) {
      if (this.failed !== undefined) s.reject(this.failed);
      else s.resolve();
    }
    return true;
  }

  /** Resolves once the work is done (rejects if it failed). */
  whenDone(): Promise<void> {
    if (this.done) return this.failed !== undefined ? Promise.reject(this.failed) : Promise.resolve();
    return new Promise((resolve, reject) => this.settled.push({ resolve, reject }));
  }
}

const turn = () => new Promise<void>((r) => setImmediate(r));
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs jobs in slices, one at a time: first those someone waits for, then the others (background work such
 * as the warm-up after start), which give way while `busy()` says requests are being answered.
 */
export class SlicedRunner {
  busy: (() => boolean) | undefined;
  private queue: Job[] = [];
  private running = false;

  /** Starts `job` in the background (if it is not done or queued already). */
  start(job: Job): Job {
    if (!job.done && !this.queue.includes(job)) this.queue.push(job);
    void this.loop();
    return job;
  }

  /** Runs `job` in the background; resolves once it is done. */
  background(job: Job): Promise<void> {
    this.start(job);
    return job.whenDone();
  }

  /** Waits for `job`, which runs first meanwhile. */
  async wait(job: Job): Promise<void> {
    if (job.done) return job.whenDone();
    job.waiting++;
    try {
      this.start(job);
      await job.whenDone();
    } finally {
      job.waiting--;
    }
  }

  private async loop() {
    if (this.running) return;
    this.running = true;
    try {
      let waited = 0;
      for (;;) {
        this.queue = this.queue.filter((j) => !j.done);
        if (!this.queue.length) return;
        const job = this.queue.find((j) => j.waiting > 0) ?? this.queue[0];
        if (!job.waiting && this.busy?.() && waited < YIELD_AT_MOST_MS) {
          await pause(2);
          waited += 2;
          continue;
        }
        waited = 0;
        job.step(SLICE_MS);
        await turn();
      }
    } finally {
      this.running = false;
    }
  }
}

/** Runs `work` to its end at once. */
export function finishNow(work: Work) {
  while (!work.next().done);
}
