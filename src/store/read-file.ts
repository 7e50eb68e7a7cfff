import { closeSync, constants, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { OutsideContentError, realPathInside } from './content-bounds.js';

/**
 * Opens a file for reading without updating its access time where the system allows it (Linux's
 * O_NOATIME). Under the usual `relatime` mount option, the first read of a file since it was written (a
 * fresh clone, generated content) or in a day updates its atime, which dirties the inode and journals it:
 * an inode write per file on a first start. Nothing in Folio reads atimes.
 * The flag is refused (EPERM) on files owned by another user; from the first refusal on, plain opens.
 */
let noAtime = constants.O_NOATIME ?? 0;

/** Set: a final symbolic link fails the open (ELOOP), and is then followed only if it stays inside content/. */
const noFollow = constants.O_NOFOLLOW ?? 0;

/**
 * Opens a file for reading. A final symbolic link is followed only when it stays inside `contentDir` (see
 * content-bounds.ts), never without one; the folders on the way are the caller's to check, once for many files.
 */
export function openForReading(path: string, contentDir?: string): number {
  try {
    return openNoAtime(path, noFollow);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP' || !noFollow) throw err;
    if (contentDir === undefined) throw new OutsideContentError(path);
    return openNoAtime(realPathInside(contentDir, path), 0);
  }
}

function openNoAtime(path: string, flags: number): number {
  if (noAtime !== 0) {
    try {
      return openSync(path, constants.O_RDONLY | noAtime | flags);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
      noAtime = 0;
    }
  }
  return openSync(path, constants.O_RDONLY | flags);
}

/**
 * Reads an open file to its end into `scratch.buf` from its start, growing the buffer when needed;
 * returns the length read. One reused buffer spares 100,000 allocations at start-up.
 */
export function readAll(fd: number, scratch: { buf: Buffer }): number {
  let length = 0;
  for (;;) {
    if (length === scratch.buf.length) {
      const bigger = Buffer.allocUnsafe(scratch.buf.length * 2);
      scratch.buf.copy(bigger, 0, 0, length);
      scratch.buf = bigger;
    }
    const n = readSync(fd, scratch.buf, length, scratch.buf.length - length, length);
    if (n === 0) return length;
    length += n;
  }
}

/**
 * Reads a whole file into `scratch.buf` from its start (open, one read, close: a first start reads
 * 100,000 files on reader threads and each system call counts); returns its length.
 */
export function readWhole(path: string, scratch: { buf: Buffer }, contentDir?: string): number {
  const fd = openForReading(path, contentDir);
  try {
    // One byte less than the buffer, so a read that fills it shows the file may go on.
    const room = scratch.buf.length - 1;
    const got = readSync(fd, scratch.buf, 0, room, 0);
    return got < room ? got : readAll(fd, scratch);
  } finally {
    closeSync(fd);
  }
}

const scratch = { buf: Buffer.allocUnsafe(256 * 1024) };

/**
 * Reads a file as UTF-8 through one reused buffer: at start-up 100,000 small files are read, and skipping
 * readFileSync's stat and per-file allocation is most of the difference.
 */
export function readSmallFile(file: string, contentDir?: string): string {
  // Read first: a long file replaces `scratch.buf` with a larger buffer.
  const length = readWhole(file, scratch, contentDir);
  return scratch.buf.toString('utf8', 0, length);
}

/**
 * Reads a file under `contentDir` as UTF-8, off the main thread, following a final symbolic link only when it stays
 * inside content/ (as `openForReading`); throws OutsideContentError for one that leads out.
 */
export async function readContentText(path: string, contentDir: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | noFollow);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP' || !noFollow) throw err;
    handle = await open(realPathInside(contentDir, path), constants.O_RDONLY);
  }
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
