import { constants, openSync } from 'node:fs';

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
