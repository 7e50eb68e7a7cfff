import { randomBytes } from 'node:crypto';
import { existsSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, rmdir, stat, unlink, utimes, writeFile, rename } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** What a lock folder's holder file says about the process holding it. */
interface Holder {
  pid: number;
  host: string;
}

const HOLDER_PREFIX = 'holder-';
/** Folders a killed process left beside the lock (made aside, or moved aside) are removed after this long. */
const LEFTOVER_MS = 30_000;

/**
 * This host as a holder names it: its name, and on Linux its pid namespace, so that containers sharing a
 * name and a volume but not their processes never judge each other's holders by their own pids.
 */
export const LOCK_HOST = (() => {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
})();
const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** True unless the process is known to be gone: a live process, or one of another host, counts as alive. */
function alive(holder: Holder): boolean {
  if (holder.host !== LOCK_HOST) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return code(err) !== 'ESRCH';
  }
}

/**
 * The lock folder is moved aside before it is removed, so that it never stands empty at its place (an empty
 * one is left alone until stale, as it may be a holder's of an earlier Folio). Returns false, having moved
 * nothing of another's, if `file` is no longer in it: the lock was taken over while this process was frozen.
 */
function moveAside(file: string): boolean {
  const folder = dirname(file);
  if (!existsSync(file)) return false;
  const away = `${folder}.${basename(file).slice(HOLDER_PREFIX.length)}.old`;
  renameSync(folder, away);
  if (!existsSync(join(away, basename(file)))) {
    // Taken over between the two steps: the folder is the new holder's; it goes back.
    renameSync(away, folder);
    return false;
  }
  rmSync(away, { recursive: true, force: true });
  return true;
}

/** Process-wide: the holder files this process has in place, removed on exit so a clean exit leaves none. */
const heldFiles = new Set<string>();
process.once('exit', () => {
  for (const file of heldFiles) {
    try {
      moveAside(file);
    } catch {
      // Taken over, or already gone: nothing of ours is left to remove.
    }
  }
});

/**
 * A cross-process lock: a folder that holds one file, `holder-<token>`, naming the process (pid and host)
 * that holds it. The folder appears whole (made aside, then renamed into place, which fails while another
 * holder's folder is there), and the holder touches its file every half of `staleMs`.
 *
 * A waiter takes the lock over at once when its holder is a process of this host that no longer exists, and
 * after `staleMs` without a touch otherwise (a holder on another host, or a frozen one). Taking over is
 * removing that very holder file, named by its holder's token: of several waiters only one succeeds, and a
 * lock another process has taken meanwhile holds a file of another name, which no waiter removes. Given
 * back, the folder is moved aside, then removed (see moveAside).
 */
export class HeldFolder {
  constructor(
    private readonly folder: string,
    private readonly staleMs: number,
    private readonly onCompromised: (message: string) => void,
  ) {}

  /** One attempt: resolves with the release function once held, or with undefined while another holds it. */
  async tryLock(): Promise<(() => Promise<void>) | undefined> {
    if (!this.swept) {
      this.swept = true;
      await this.removeLeftovers();
    }
    if (!(await this.clearIfAbandoned())) return undefined;
    const token = randomBytes(9).toString('base64url');
    const aside = `${this.folder}.${token}.tmp`;
    const file = join(this.folder, HOLDER_PREFIX + token);
    await mkdir(aside).catch(async (err: unknown) => {
      if (code(err) !== 'ENOENT') throw err;
      await mkdir(dirname(this.folder), { recursive: true });
      await mkdir(aside);
    });
    await writeFile(join(aside, HOLDER_PREFIX + token), JSON.stringify({ pid: process.pid, host: LOCK_HOST }));
    try {
      // Fails while a folder with a file is there: a held lock always has its holder's.
      await rename(aside, this.folder);
    } catch (err) {
      await rm(aside, { recursive: true, force: true });
      // Windows refuses to rename over an existing folder with EPERM.
      const held = ['ENOTEMPTY', 'EEXIST', ...(process.platform === 'win32' ? ['EPERM'] : [])];
      if (held.includes(code(err) ?? '')) return undefined;
      throw err;
    }
    heldFiles.add(file);
    return this.keepFresh(file);
  }

  private swept = false;

  /** Removes the `<lock>.<token>.tmp|old` folders that processes killed while taking or giving back left. */
  private async removeLeftovers(): Promise<void> {
    const prefix = `${basename(this.folder)}.`;
    const names = await readdir(dirname(this.folder)).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(prefix) || !/\.(tmp|old)$/.test(name)) continue;
      const path = join(dirname(this.folder), name);
      const old = await stat(path).then(
        (st) => st.mtimeMs < Date.now() - LEFTOVER_MS,
        () => false,
      );
      if (old) await rm(path, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /**
   * Removes the lock folder if its holder is gone or has let it go stale. True when there is no lock
   * folder now (so an attempt may follow), false while a live holder has it.
   */
  private async clearIfAbandoned(): Promise<boolean> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (err) {
      if (code(err) === 'ENOENT') return true;
      throw err;
    }
    const name = names.find((n) => n.startsWith(HOLDER_PREFIX));
    if (name === undefined) {
      // Empty: its holder is removing it (or died doing so). Only a stale one is removed, and only if empty.
      if (!(await this.isStale(this.folder))) return false;
      return rmdir(this.folder).then(
        () => true,
        () => false,
      );
    }
    const file = join(this.folder, name);
    let holder: Holder | undefined;
    try {
      holder = JSON.parse(await readFile(file, 'utf8')) as Holder;
    } catch (err) {
      if (code(err) === 'ENOENT') return false;
      // Unreadable (cut off by a power loss): only the stale rule can tell.
    }
    const gone = holder !== undefined && Number.isInteger(holder.pid) && holder.pid > 0 && !alive(holder);
    if (!gone && !(await this.isStale(file))) return false;
    try {
      await unlink(file);
    } catch (err) {
      // Another waiter took it over first.
      if (code(err) === 'ENOENT') return false;
      throw err;
    }
    await rmdir(this.folder).catch(() => undefined);
    return true;
  }

  private async isStale(path: string): Promise<boolean> {
    try {
      return (await stat(path)).mtimeMs < Date.now() - this.staleMs;
    } catch {
      return false;
    }
  }

  /** Touches the holder file every half of staleMs while held; returns the release function. */
  private keepFresh(file: string): () => Promise<void> {
    let released = false;
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      const now = new Date();
      utimes(file, now, now).then(
        () => {
          if (!released) schedule();
        },
        (err: unknown) => {
          if (released) return;
          // Any other failure is tried again: the lock goes stale only if it lasts.
          if (code(err) !== 'ENOENT') return schedule();
          released = true;
          heldFiles.delete(file);
          this.onCompromised('the lock was taken over by another process (it went stale while held)');
        },
      );
    };
    const schedule = () => {
      timer = setTimeout(touch, this.staleMs / 2);
      timer.unref();
    };
    schedule();
    return async () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      heldFiles.delete(file);
      // As moveAside, without blocking the process.
      const away = `${this.folder}.${basename(file).slice(HOLDER_PREFIX.length)}.old`;
      try {
        await stat(file);
        await rename(this.folder, away);
      } catch (err) {
        // Taken over while this process was frozen (and maybe released since): nothing of ours is left.
        if (code(err) === 'ENOENT') return;
        throw err;
      }
      if (
        await stat(join(away, basename(file))).then(
          () => true,
          () => false,
        )
      )
        await rm(away, { recursive: true, force: true });
      // Taken over between the two steps: the folder is the new holder's; it goes back.
      else await rename(away, this.folder);
    };
  }
}
