import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync, rmdirSync, unlinkSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** What a lock folder's holder file says about the process holding it. */
export interface Holder {
  pid: number;
  host: string;
}

/** The file system calls a lock makes: node's, or in tests one that fails or races on cue. */
export interface LockFs {
  mkdir(path: string, options?: { recursive: true }): Promise<unknown>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  readdir(path: string): Promise<string[]>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { recursive: true }): Promise<void>;
  rmdir(path: string): Promise<void>;
  stat(path: string): Promise<{ mtimeMs: number }>;
  unlink(path: string): Promise<void>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
}

export interface HeldFolderOptions {
  fs?: LockFs;
  /** Windows refuses to rename a folder over an existing one (even an empty one). */
  platform?: NodeJS.Platform;
}

const HOLDER_PREFIX = 'holder-';
/** Folders a killed process left beside the lock (made aside, or moved aside) are removed after this long. */
const LEFTOVER_MS = 30_000;

/** One part of this host's name, or nothing where it cannot be read (no `/proc`). */
export const linuxId = (read: () => string) => {
  try {
    return ` ${read().trim()}`;
  } catch {
    return '';
  }
};

/**
 * This host as a holder names it: its name and, on Linux, its boot id (two machines of one name sharing a
 * folder differ by it) and its pid namespace (so do containers sharing a name and a volume, not processes).
 */
export const LOCK_HOST =
  hostname() +
  linuxId(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')) +
  linuxId(() => readlinkSync('/proc/self/ns/pid'));

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** True unless the process is known to be gone: a live process, or one of another host, counts as alive. */
export function alive(holder: Holder): boolean {
  if (holder.host !== LOCK_HOST) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return code(err) !== 'ESRCH';
  }
}

/** A holder file's content, or undefined when it is not one (cut off by a power loss, edited by hand). */
export function asHolder(value: unknown): Holder | undefined {
  // A number or a string read as an object has neither field.
  const { pid, host } = (value ?? {}) as Partial<Holder>;
  return Number.isInteger(pid) && pid! > 0 && typeof host === 'string' ? { pid: pid!, host } : undefined;
}

/** Process-wide: the holder files this process has in place, removed on exit so a clean exit leaves none. */
const heldFiles = new Set<string>();

/** Gives back every lock this process holds, as its release would: run on its exit. */
export function releaseHeldFiles(): void {
  for (const file of heldFiles) {
    try {
      unlinkSync(file);
      rmdirSync(dirname(file));
    } catch {
      // Taken over (the file is gone, or the folder is the next holder's): nothing of ours is left.
    }
  }
}
process.once('exit', releaseHeldFiles);

/**
 * A cross-process lock: a folder that holds one file, `holder-<token>`, naming the process (pid and host)
 * that holds it. The folder appears whole (made aside, then renamed into place, which fails while another
 * holder's folder is there), and the holder touches its file every half of `staleMs`.
 *
 * A waiter takes the lock over at once when its holder is a process of this host that no longer exists, and
 * after `staleMs` without a touch otherwise (a holder on another host, or a frozen one). Taking over, and
 * giving back, is removing that very holder file, named by its holder's token, then the folder if it is still
 * empty: of several waiters only one removes the file, and a folder another process has put in place meanwhile
 * holds a file of another name, which no one else removes. An empty folder at the lock's place is free: a new
 * holder's folder is renamed over it (outside Windows), which succeeds for one process only.
 */
export class HeldFolder {
  private swept = false;
  private readonly fs: LockFs;
  private readonly windows: boolean;

  constructor(
    private readonly folder: string,
    private readonly staleMs: number,
    private readonly onCompromised: (message: string) => void,
    options: HeldFolderOptions = {},
  ) {
    this.fs = options.fs ?? fsPromises;
    this.windows = (options.platform ?? process.platform) === 'win32';
  }

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
    await this.fs.mkdir(aside).catch(async (err: unknown) => {
      if (code(err) !== 'ENOENT') throw err;
      await this.fs.mkdir(dirname(this.folder), { recursive: true });
      await this.fs.mkdir(aside);
    });
    try {
      await this.fs.writeFile(
        join(aside, HOLDER_PREFIX + token),
        JSON.stringify({ pid: process.pid, host: LOCK_HOST }),
      );
      // Fails while a folder with a file is there: a held lock always has its holder's.
      await this.fs.rename(aside, this.folder);
    } catch (err) {
      await this.fs.rm(aside, { recursive: true }).catch(() => undefined);
      const failed = code(err);
      if (failed === 'ENOTEMPTY' || failed === 'EEXIST' || (this.windows && failed === 'EPERM')) return undefined;
      throw err;
    }
    heldFiles.add(file);
    return this.keepFresh(file);
  }

  /** Removes the `<lock>.<token>.tmp|old` folders that processes killed while taking or clearing it left. */
  private async removeLeftovers(): Promise<void> {
    const prefix = `${basename(this.folder)}.`;
    const names = await this.fs.readdir(dirname(this.folder)).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith(prefix) || !/\.(tmp|old)$/.test(name)) continue;
      const path = join(dirname(this.folder), name);
      // One that cannot be dated is kept.
      const st = await this.fs.stat(path).catch(() => undefined);
      if (st && st.mtimeMs < Date.now() - LEFTOVER_MS)
        await this.fs.rm(path, { recursive: true }).catch(() => undefined);
    }
  }

  /**
   * Clears the lock's place if its holder is gone or has let it go stale. True when an attempt may follow
   * (no folder there, or an empty one), false while a live holder has it.
   */
  private async clearIfAbandoned(): Promise<boolean> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.folder);
    } catch (err) {
      if (code(err) === 'ENOENT') return true;
      throw err;
    }
    const name = names.find((n) => n.startsWith(HOLDER_PREFIX));
    if (name === undefined) return this.clearWithoutHolder(names.length === 0);
    const file = join(this.folder, name);
    let holder: Holder | undefined;
    try {
      // Stryker disable next-line StringLiteral: without an encoding it reads a Buffer, which JSON.parse reads alike.
      holder = asHolder(JSON.parse(await this.fs.readFile(file, 'utf8')));
    } catch {
      // Unreadable: only the stale rule can tell. Gone meanwhile (given back or taken over): it is not stale.
    }
    const gone = holder !== undefined && !alive(holder);
    // Stryker disable next-line BooleanLiteral: an attempt would fail anyway (a holder's folder is never replaced).
    if (!gone && !(await this.isStale(file))) return false;
    try {
      await this.fs.unlink(file);
    } catch (err) {
      // Another waiter took it over first.
      if (code(err) === 'ENOENT') return false;
      throw err;
    }
    await this.fs.rmdir(this.folder).catch(() => undefined);
    return true;
  }

  /**
   * A folder without a holder file: empty, its holder was giving it back (or was killed doing so), and it is
   * free; with other files in it (a `.DS_Store`, an NFS placeholder), no holder can ever be put in it, so once
   * stale it is moved aside and removed.
   */
  private async clearWithoutHolder(empty: boolean): Promise<boolean> {
    if (empty && !this.windows) return true;
    if (!(await this.isStale(this.folder))) return false;
    if (empty) {
      await this.fs.rmdir(this.folder).catch(() => undefined);
      return true;
    }
    const away = `${this.folder}.${randomBytes(9).toString('base64url')}.old`;
    try {
      await this.fs.rename(this.folder, away);
    } catch {
      return false;
    }
    await this.fs.rm(away, { recursive: true }).catch(() => undefined);
    return true;
  }

  private async isStale(path: string): Promise<boolean> {
    // One that cannot be dated (gone meanwhile, unreadable) is not stale.
    const st = await this.fs.stat(path).catch(() => undefined);
    return st !== undefined && st.mtimeMs < Date.now() - this.staleMs;
  }

  /** Touches the holder file every half of staleMs while held; returns the release function. */
  private keepFresh(file: string): () => Promise<void> {
    let released = false;
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      const now = new Date();
      this.fs.utimes(file, now, now).then(
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
      try {
        await this.fs.unlink(file);
      } catch (err) {
        // Taken over while this process was frozen: nothing of ours is left.
        if (code(err) === 'ENOENT') return;
        throw err;
      } finally {
        heldFiles.delete(file);
      }
      // Fails if another process has put its folder in place meanwhile, which is then the lock.
      await this.fs.rmdir(this.folder).catch(() => undefined);
    };
  }
}
