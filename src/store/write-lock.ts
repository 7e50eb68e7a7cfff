import { join } from 'node:path';
import { FolioError } from '../errors.js';
import { HeldFolder } from './held-folder.js';
import { type Announcement, LockWaiters } from './lock-waiters.js';

/**
 * How long a lock whose holder stopped refreshing it keeps others out (a holder of this host that has
 * died is taken over at once; this is for one that is frozen, or runs on another host of a shared folder):
 * the holder touches it every half of this, so a live one is never taken over.
 */
const STALE_MS = 5000;
/** How long a writer waits for the lock before giving up: a frozen holder's lock goes stale well before. */
const WAIT_MS = 30_000;
/**
 * After this long, the holder looks for another process waiting; if one is, writes arriving in this process wait
 * for the lock to be released and taken again; if none is, the lock is kept for another MAX_HOLD_MS.
 */
const MAX_HOLD_MS = 200;
/**
 * How long a process that gave the lock back to a waiter waits before taking it again: longer than the
 * longest pause between a waiter's attempts (see `acquire`), so the waiting process gets its turn.
 */
const YIELD_MS = 120;

/**
 * The project's write lock, shared by every process that writes its documents (the server, each CLI
 * run): a lock folder in `.folio/locks/` naming its holder (see HeldFolder). It is held by a process,
 * not by one write: while it is held the process's writes run side by side (each document's own writes
 * are queued by the caller), and it is given back as soon as none is running. A steady stream of them
 * gives it back only to another process waiting for it: waiters announce themselves beside the lock
 * (see LockWaiters), and the holder looks for them once every MAX_HOLD_MS.
 */
export class WriteLock {
  private readonly folder: HeldFolder;
  private readonly waiting: LockWaiters;
  /** The holder's look for waiters, under way. */
  private looking = false;
  private holders = 0;
  private heldSince = 0;
  private releaseFile: (() => Promise<void>) | undefined;
  /** Another process waits for the lock: no new holder here until it has been released. */
  // Stryker disable next-line BooleanLiteral: read only while the lock is held, and each taking sets it first.
  private closing = false;
  /** Given back to a waiting process: the next acquisition lets the other processes try first. */
  private yielding = false;
  /** An acquisition or a release under way. */
  private pending: Promise<void> | undefined;
  private waiters: Array<() => void> = [];

  /** `name`: which of the project's locks (documents, the media library) this is. */
  constructor(stateDir: string, name = 'documents') {
    // A lock found taken over while held (the process was frozen for seconds) is reported, not thrown:
    // the writes under it still check each file's stamp before replacing it.
    this.folder = new HeldFolder(join(stateDir, 'locks', `${name}.lock`), STALE_MS, (message) =>
      process.emitWarning(`folio write lock: ${message}`),
    );
    this.waiting = new LockWaiters(join(stateDir, 'locks', `${name}.waiting`));
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.enter(false);
    try {
      return await fn();
    } finally {
      this.leave();
    }
  }

  /**
   * Runs `fn` as the lock's only holder, in this process too: it starts once the writes under way have ended,
   * and writes arriving meanwhile wait until it is done (a rewrite of the checkout by git, which a write landing
   * in the middle of would spoil, or be lost to).
   */
  async alone<T>(fn: () => Promise<T>): Promise<T> {
    while (this.solo) await this.solo;
    let done!: () => void;
    this.solo = new Promise<void>((resolve) => (done = resolve));
    try {
      // The holders of now finish; nobody joins them (each writer waits on `solo` first).
      await this.enter(true);
      try {
        return await fn();
      } finally {
        this.leave();
      }
    } finally {
      this.solo = undefined;
      done();
    }
  }

  /** An `alone` run waiting or under way: every other holder waits for it. */
  private solo: Promise<void> | undefined;

  /** Resolves once this process holds the lock, counting the caller as one of its holders. */
  private async enter(solo: boolean): Promise<void> {
    for (;;) {
      if (!solo && this.solo) {
        await this.solo;
        continue;
      }
      // Alone, only a lock this process took and nobody holds (a writer took it, then found `solo`) is joined.
      if (solo && this.releaseFile && this.holders === 0) {
        this.holders++;
        return;
      }
      if (!solo && this.releaseFile && !this.closing) {
        if (Date.now() - this.heldSince >= MAX_HOLD_MS) this.lookForWaiters();
        this.holders++;
        return;
      }
      if (this.pending) await this.pending;
      else if (!this.releaseFile) {
        this.pending = this.acquire(this.yielding)
          .then((release) => {
            this.yielding = false;
            this.releaseFile = release;
            this.heldSince = Date.now();
            this.closing = false;
          })
          .finally(() => {
            this.pending = undefined;
          });
        await this.pending;
      } else await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /**
   * Once per MAX_HOLD_MS of a hold: if another process is waiting, the writes under way end, the lock is given
   * back, and this process lets the waiter take it first; otherwise it is kept. Writes go on meanwhile.
   */
  private lookForWaiters() {
    if (this.looking) return;
    this.looking = true;
    const held = this.releaseFile;
    void this.waiting
      .anyWaiting()
      .catch(() => false)
      .then((someone) => {
        this.looking = false;
        // Given back meanwhile: the next hold starts its own count.
        if (this.releaseFile !== held) return;
        if (!someone) this.heldSince = Date.now();
        else {
          this.closing = true;
          this.yielding = true;
        }
      });
  }

  private leave() {
    if (--this.holders > 0) return;
    const release = this.releaseFile!;
    this.releaseFile = undefined;
    // A lock already released (taken over as stale) has nothing to give back.
    this.pending = release()
      .catch(() => undefined)
      .finally(() => {
        this.pending = undefined;
      });
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async acquire(yielding: boolean): Promise<() => Promise<void>> {
    if (yielding) await new Promise((r) => setTimeout(r, YIELD_MS));
    const started = Date.now();
    let announced: Announcement | undefined;
    try {
      for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
        const release = await this.folder.tryLock();
        if (release) return release;
        if (Date.now() - started > WAIT_MS)
          throw new FolioError(
            503,
            'ServiceUnavailableError',
            'Another process has held the write lock of this project for too long; try again',
            {},
          );
        // Held by another process: tell its holder someone waits, so it gives the lock back after its turn.
        if (announced) await announced.refresh();
        else announced = await this.waiting.announce();
        await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      }
    } finally {
      await announced?.withdraw();
    }
  }
}
