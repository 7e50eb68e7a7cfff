/** Progress of long work on a terminal: one line on stderr, redrawn in place, gone when the work ends. */
export interface Progress {
  /** The amount of work, once known: the line then shows `done/total` and a bar. */
  total(n: number): void;
  tick(n?: number): void;
  /** Both at once, for callbacks that report `(done, total)`. */
  update(done: number, total: number): void;
  /** Ends the line (and clears it). */
  stop(): void;
}

const NONE: Progress = { total() {}, tick() {}, update() {}, stop() {} };
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A progress line for `label`, shown only when stderr is a terminal and neither --json nor --quiet is
 * given (scripts and logs never see it), and only once the work has lasted `FOLIO_PROGRESS_AFTER_MS`
 * (default 300 ms): quick commands stay quiet. Redrawn at most ten times a second.
 */
export function startProgress(label: string, opts: { json?: boolean; quiet?: boolean }): Progress {
  if (!process.stderr.isTTY || opts.json || opts.quiet) return NONE;
  const after = Number(process.env.FOLIO_PROGRESS_AFTER_MS ?? 300);
  const started = Date.now();
  let done = 0;
  let total: number | undefined;
  let frame = 0;
  let shown = false;
  const draw = () => {
    if (Date.now() - started < after) return;
    shown = true;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let line = `${FRAMES[frame++ % FRAMES.length]} ${label}`;
    if (total !== undefined && total > 0) {
      const width = 24;
      const filled = Math.min(width, Math.round((done / total) * width));
      line += ` [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
    }
    const columns = process.stderr.columns || 80;
    line = `${line} ${seconds}s`;
    process.stderr.write(`\r\x1b[2K${line.length >= columns ? line.slice(0, columns - 1) : line}`);
  };
  // The timer keeps the line moving while the work waits on files; work that holds the thread (checking
  // every document) draws from its own ticks instead.
  let last = 0;
  const drawSoon = () => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    draw();
  };
  const timer = setInterval(drawSoon, 100);
  timer.unref();
  return {
    total(n) {
      total = n;
    },
    tick(n = 1) {
      done += n;
      drawSoon();
    },
    update(d, t) {
      done = d;
      total = t;
      drawSoon();
    },
    stop() {
      clearInterval(timer);
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

/** Runs `work` with a progress line (see startProgress) that is cleared however it ends. */
export async function withProgress<T>(
  label: string,
  opts: { json?: boolean; quiet?: boolean },
  work: (progress: Progress) => Promise<T> | T,
): Promise<T> {
  const progress = startProgress(label, opts);
  try {
    return await work(progress);
  } finally {
    progress.stop();
  }
}
