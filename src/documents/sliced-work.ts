/**
 * Work too long to do at once on the event loop (decoding a large collection, sorting it by a field, a scan
 * a query cannot avoid), written as a generator that yields at points where it may pause. A job is run in
 * slices of a few milliseconds, with a turn of the event loop between them, so requests keep being answered
 * while it runs; or finished at once by a caller that cannot wait (a command run from the terminal).
 *
 * Work may yield a promise: what it would rather wait for (files read on other threads) than do itself. The
 * job then parks until the promise settles, and the runner runs other jobs or none meanwhile. A job finished at
 * once does not wait: the work goes on, and must then do without (read the files itself).
 */
export type Work = Generator<Pause, void, void>;

/** What work yields: nothing (a pause), or what it would rather wait for (see Work). */
export type Pause = Promise<unknown> | void;

/** How many runs to the end are under way: while one is, nothing can come, so no job parks. */
let runsNow = 0;

/** Runs `fn`, which runs work to its end at once: jobs stepped meanwhile wait for nothing (see Work). */
export function runNow<T>(fn: () => T): T {
  runsNow++;
  try {
    return fn();
  } finally {
    runsNow--;
  }
}

/**
 * Rows a job handles between two pauses when building an index over a whole type: a slice can end only at a
 * pause, and some rows cost far more than others (a growing hash table, a value decoded), so pauses come often.
 */
export const ROWS_PER_PAUSE = 256;

/** How long a slice runs before it lets the event loop turn. */
const SLICE_MS = 6;
/** How long background work waits while the server is busy before it goes on anyway. */
const YIELD_AT_MOST_MS = 100;

/** One piece of work, shared by whoever needs it done; `result` is what the work returned, once done. */
export class Job<T = void> {
  done = false;
  failed: unknown;
  result: T | undefined;
  /** How many callers wait for it: while any does, it runs without giving way to requests. */
  waiting = 0;
  private settled: Array<{ resolve(): void; reject(err: unknown): void }> = [];
  private parkedOn: Promise<unknown> | undefined;

  constructor(private readonly work: Generator<Pause, T, void>) {}

  /** What the job waits for before its next slice (see Work), if anything. */
  get parked(): Promise<unknown> | undefined {
    return this.parkedOn;
  }

  /**
   * Runs the work for up to `ms` milliseconds (or to its end); answers whether it is done. A parked job does
   * nothing until what it waits for has settled; `mayPark` false runs it on regardless.
   */
  step(ms: number, mayPark = true): boolean {
    if (this.done) return true;
    const parks = mayPark && runsNow === 0;
    if (parks && this.parkedOn) return false;
    const until = performance.now() + ms;
    try {
      // The time is read at each pause: the work pauses often enough (every few hundred rows) for that.
      for (;;) {
        const next = this.work.next();
        if (next.done) {
          this.result = next.value;
          return this.finish();
        }
        if (next.value && parks) {
          this.park(next.value);
          return false;
        }
        if (performance.now() >= until) return false;
      }
    } catch (err) {
      this.failed = err;
      return this.finish();
    }
  }

  private park(on: Promise<unknown>) {
    this.parkedOn = on;
    const free = () => {
      if (this.parkedOn === on) this.parkedOn = undefined;
    };
    on.then(free, free);
  }

  /** Runs the work to its end now, on this turn of the event loop, waiting for nothing. */
  finishNow() {
    runNow(() => {
      while (!this.step(1000, false));
    });
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
  private queue: Array<Job<unknown>> = [];
  private running = false;
  /** Set while every queued job is parked: a job started then is run without waiting for them. */
  private wake: (() => void) | undefined;

  /** Starts `job` in the background (if it is not done or queued already). */
  start<T>(job: Job<T>): Job<T> {
    if (!job.done && !this.queue.includes(job)) this.queue.push(job);
    this.wake?.();
    void this.loop();
    return job;
  }

  /** Runs `job` in the background; resolves once it is done. */
  background(job: Job<unknown>): Promise<void> {
    this.start(job);
    return job.whenDone();
  }

  /** Waits for `job`, which runs first meanwhile. */
  async wait(job: Job<unknown>): Promise<void> {
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
        const ready = this.queue.filter((j) => !j.parked);
        if (!ready.length) {
          // Every job waits for something (files read on other threads): nothing to run until one comes.
          await new Promise<void>((resolve) => {
            const go = () => resolve();
            this.wake = go;
            for (const j of this.queue) j.parked?.then(go, go);
          });
          this.wake = undefined;
          continue;
        }
        const job = ready.find((j) => j.waiting > 0) ?? ready[0];
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
  runNow(() => {
    while (!work.next().done);
  });
}
