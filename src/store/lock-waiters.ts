import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCK_HOST, asHolder, alive } from './held-folder.js';

const MARKER_PREFIX = 'waiter-';
/** A waiter touches its marker this often while it polls. */
const REFRESH_MS = 500;
/** A marker untouched for this long is a frozen or vanished waiter's: the holder does not wait for it. */
const FRESH_MS = 3000;
/** A marker untouched for this long (longer than any wait for the lock) is a leftover, and removed. */
const LEFTOVER_MS = 60_000;

/** Process-wide: the markers this process has in place, removed on exit so that even a failed run leaves none. */
const ownMarkers = new Set<string>();

/** Removes the markers this process has in place: run on its exit. */
export function removeOwnMarkers(): void {
  for (const file of ownMarkers) {
    try {
      unlinkSync(file);
    } catch {
      // Already removed as a leftover.
    }
  }
}
process.once('exit', removeOwnMarkers);

/**
 * A waiter's presence while it polls for the lock: refreshed between its attempts, withdrawn once it stops
 * (never refreshed after).
 */
export interface Announcement {
  refresh(): Promise<void>;
  withdraw(): Promise<void>;
}

/**
 * The processes waiting for a lock: each puts a marker file, `waiter-<token>` naming its pid and host, in a
 * folder beside the lock's (never in it, so a marker is never taken for a holder), keeps it fresh while it polls,
 * and removes it once it holds the lock or gives up. The holder asks `anyWaiting` before it gives the lock back to
 * let others in: a marker of a process of this host that has died, or one left untouched, does not count.
 */
export class LockWaiters {
  constructor(private readonly folder: string) {}

  /** Puts this waiter's marker in place. Markers only ever ask for a turn: failing to write one blocks nothing. */
  async announce(): Promise<Announcement> {
    const file = join(this.folder, MARKER_PREFIX + randomBytes(9).toString('base64url'));
    let refreshed = 0;
    const put = async () => {
      await mkdir(this.folder, { recursive: true });
      await writeFile(file, JSON.stringify({ pid: process.pid, host: LOCK_HOST }));
      refreshed = Date.now();
    };
    ownMarkers.add(file);
    await put().catch(() => undefined);
    return {
      refresh: async () => {
        // A throttle of the marker's writes: refreshing at every poll would change nothing but their number.
        // Stryker disable next-line EqualityOperator,ArithmeticOperator: so is each of those mutants.
        if (Date.now() - refreshed < REFRESH_MS) return;
        const now = new Date();
        // Removed as a leftover (this process was frozen for long): put it back.
        await utimes(file, now, now)
          // Stryker disable next-line ArrowFunction: the throttle's count left unset refreshes at every poll.
          .then(() => void (refreshed = Date.now()))
          .catch(() => put())
          .catch(() => undefined);
      },
      withdraw: async () => {
        ownMarkers.delete(file);
        await unlink(file).catch(() => undefined);
      },
    };
  }

  /** True when a live process is waiting: one readdir when nobody is (the folder is empty or absent). */
  async anyWaiting(): Promise<boolean> {
    // Stryker disable next-line ArrowFunction: the holder takes a failed look for nobody waiting (write-lock.ts).
    const names = await readdir(this.folder).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(MARKER_PREFIX)) continue;
      const file = join(this.folder, name);
      const age = await stat(file).then(
        (st) => Date.now() - st.mtimeMs,
        () => undefined,
      );
      // Stryker disable next-line ConditionalExpression: a marker gone meanwhile fails both comparisons below too.
      if (age === undefined) continue;
      // Stryker disable next-line StringLiteral: without an encoding it reads a Buffer, which JSON.parse reads alike.
      const holder = await readFile(file, 'utf8')
        .then((text) => asHolder(JSON.parse(text)))
        .catch(() => undefined);
      const dead = holder !== undefined && !alive(holder);
      if (dead || age > LEFTOVER_MS) await unlink(file).catch(() => undefined);
      else if (age <= FRESH_MS) return true;
    }
    return false;
  }
}
