import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TEMP_MARK } from '../store/atomic.js';

const STAGING = `${TEMP_MARK}export-`;

/**
 * Writes an export's files into a staging folder beside `target`, then puts it in `target`'s place at once:
 * a static host serving the folder meanwhile sees the whole old export or the whole new one, and files of
 * documents deleted since the last export go with it. Files are written one after the other on this thread:
 * threads creating files in one folder at once contend for it and cost several times more system time.
 * Nothing is synced: an export is made again from the content rather than recovered.
 */
export class FileSink {
  private readonly staging: string;
  private readonly folders = new Set<string>();
  private count = 0;

  constructor(
    private readonly target: string,
    private readonly onWritten: () => void = () => {},
  ) {
    const parent = dirname(target);
    mkdirSync(parent, { recursive: true });
    // Left by an export that was stopped before it finished (not one still running in another process).
    for (const name of readdirSync(parent))
      if (name.startsWith(STAGING) && !running(Number.parseInt(name.slice(STAGING.length), 10)))
        rmSync(join(parent, name), { recursive: true, force: true });
    this.staging = join(parent, `${STAGING}${process.pid}`);
    mkdirSync(this.staging);
  }

  /** How many files were written. */
  get written() {
    return this.count;
  }

  /** Writes `text` as `file` (a path under the target folder). */
  write(file: string, text: string) {
    const path = join(this.staging, file);
    const folder = dirname(path);
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.folders.add(folder);
    }
    writeFileSync(path, text);
    this.count++;
    this.onWritten();
  }

  /** Puts the staged export in the target's place, and removes the previous one. */
  commit() {
    const previous = `${this.staging}-previous`;
    if (existsSync(this.target)) renameSync(this.target, previous);
    renameSync(this.staging, this.target);
    rmSync(previous, { recursive: true, force: true });
  }

  /** Gives the staged export up (on failure): the previous one stays as it was. */
  abandon() {
    rmSync(this.staging, { recursive: true, force: true });
  }
}

/** Whether a process with this id is alive (signal 0 only checks). */
function running(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
