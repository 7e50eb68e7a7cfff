import { tmpdir } from 'node:os';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statfsSync, statSync } from 'node:fs';

/** A RAM-backed file system, where Linux has one. */
const TMPFS = '/dev/shm';

/** Free space the suite needs there at once, with room to spare (the package test installs Folio and its deps). */
const NEEDED_BYTES = 1024 ** 3;

function usable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    // A container's /dev/shm is often 64 MB: too small, the tests then use the disk.
    const { bavail, bsize } = statfsSync(dir);
    return statSync(dir).isDirectory() && bavail * bsize >= NEEDED_BYTES;
  } catch {
    return false;
  }
}

/** Set by the setup below: the temporary folder of the disk, for the tests that depend on a disk's file system. */
const DISK_TMPDIR = 'FOLIO_TEST_DISK_TMPDIR';

/** A temporary folder on the disk (a folder's byte size, for one, grows in blocks there and not on tmpfs). */
export function diskTmpdir(): string {
  return process.env[DISK_TMPDIR] ?? tmpdir();
}

/**
 * Vitest global setup: the test projects (made under `os.tmpdir()`) go to a folder of their own on /dev/shm, removed
 * after the run. On a disk, creating and deleting the tests' many small files is much of their time; tmpfs keeps
 * what the tests check (renames, links, modes, times, inodes, inotify watching).
 * A TMPDIR set by the caller is kept: `TMPDIR=/tmp npm test` runs the tests on the disk.
 */
export default function setup(): (() => void) | undefined {
  if (process.env.TMPDIR || !usable(TMPFS)) return undefined;
  const dir = mkdtempSync(`${TMPFS}/folio-test-`);
  // Open to every user as /tmp is: a test runs the CLI as another user over a project made here.
  chmodSync(dir, 0o1777);
  process.env[DISK_TMPDIR] = tmpdir();
  // Read by os.tmpdir() in the workers and the processes the tests spawn, which inherit it.
  process.env.TMPDIR = dir;
  // Retried: a browser a worker launched may still be removing its profile folder from here as the run ends.
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
