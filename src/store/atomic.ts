import { open, rename, unlink, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

export const TEMP_MARK = '.folio-tmp-';

/** A file this process changed: its text, `null` when it (or a folder) was removed, undefined: see the disk. */
type FileTap = (path: string, text: string | null | undefined) => void;

/**
 * Told of every file this process writes with `writeFileAtomic`, and of the files its writers remove or move
 * into place themselves (`fileChanged`): what a CLI command changed, for its commit while a server commits.
 */
const taps = new Set<FileTap>();

/** Follows this process's file changes until the function returned is called. */
export function tapFileChanges(fn: FileTap): () => void {
  taps.add(fn);
  return () => taps.delete(fn);
}

/** Tells the taps a writer removed a file or folder (`null`) or moved a file into place (undefined). */
export function fileChanged(path: string, text: null | undefined) {
  for (const fn of taps) fn(path, text);
}

/**
 * Writes `text` to `file` so that a reader (or a crash) only ever sees the old or the new content:
 * write a sibling temp file, fsync it, rename it over the target, then fsync the folder. `beforeRename`
 * may throw to give the write up at the last moment (the target changed meanwhile).
 */
export async function writeFileAtomic(file: string, text: string, beforeRename?: () => void): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${TEMP_MARK}${basename(file)}.${randomBytes(6).toString('hex')}`);
  const handle = await open(tmp, 'w', 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    beforeRename?.();
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  for (const fn of taps) fn(file, text);
  await syncDir(dir);
}

// Stryker disable all: a folder left unsynced shows only after a power cut, which no test can make
async function syncDir(dir: string) {
  // Makes the rename durable; some platforms cannot open folders, which is not worth failing a write over.
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
      // Stryker restore all
    } finally {
      await h.close();
    }
  } catch {
    /* best effort */
  }
}

/**
 * Removes temp files a killed writer left behind in `dir`. Only files older than `minAgeMs` go: a fresh
 * one belongs to a writer in another process (the server, another CLI run) that is about to rename it.
 */
export async function removeStrayTemps(dir: string, minAgeMs = 30_000): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const cutoff = Date.now() - minAgeMs;
  for (const name of names) {
    if (!name.startsWith(TEMP_MARK)) continue;
    const file = join(dir, name);
    const age = await stat(file).then(
      (st) => st.mtimeMs,
      () => Infinity,
    );
    if (age > cutoff) continue;
    await unlink(file).catch(() => undefined);
  }
}

/** Serialises async work per key: writes to one document run one after another, others in parallel. */
export class KeyedLock {
  private tails = new Map<string, Promise<unknown>>();

  /** Resolves when no work is queued or running (graceful shutdown waits on it). */
  async idle(): Promise<void> {
    while (this.tails.size) await Promise.all([...this.tails.values()]);
  }

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
