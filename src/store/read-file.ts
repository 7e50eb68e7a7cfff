import { closeSync, constants, openSync, readSync } from 'node:fs';

/**
 * Opens a file for reading without updating its access time where the system allows it (Linux's
 * O_NOATIME). Under the usual `relatime` mount option, the first read of a file since it was written (a
 * fresh clone, generated content) or in a day updates its atime, which dirties the inode and journals it:
 * an inode write per file on a first start. Nothing in Folio reads atimes.
 * The flag is refused (EPERM) on files owned by another user; from the first refusal on, plain opens.
 */
let noAtime = constants.O_NOATIME ?? 0;

export function openForReading(path: string): number {
  if (noAtime !== 0) {
    try {
      return openSync(path, constants.O_RDONLY | noAtime);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
      noAtime = 0;
    }
  }
  return openSync(path, constants.O_RDONLY);
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
export function readWhole(path: string, scratch: { buf: Buffer }): number {
  const fd = openForReading(path);
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
export function readSmallFile(file: string): string {
  // Read first: a long file replaces `scratch.buf` with a larger buffer.
  const length = readWhole(file, scratch);
  return scratch.buf.toString('utf8', 0, length);
}
