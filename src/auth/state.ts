import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LowSync, type SyncAdapter } from 'lowdb';

/**
 * The project's local state (kept out of git in `.folio/`): users, sessions, API tokens and the secrets
 * that sign and hash them. Stored with lowdb, one JSON file per collection, written atomically with
 * owner-only permissions.
 */
export interface UserRecord {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  /** scrypt$N$r$p$salt$hash */
  password: string;
  confirmed: boolean;
  blocked: boolean;
  role: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  /** HMAC of the pending reset-password code (Strapi keeps it in clear; a hash is enough to check it). */
  resetPasswordToken?: string | null;
  /** HMAC of the pending e-mail confirmation token. */
  confirmationToken?: string | null;
  /**
   * The address this account proved (its e-mail confirmation link) or was given by someone trusted (the owner's
   * `folio users create`, an administrator's `confirmed: true`). Its commits carry `email` only while the two
   * are equal: a changed address is unproven again.
   */
  provenEmail?: string;
}

export interface SessionRecord {
  id: string;
  userId: number;
  /** HMAC of the refresh token; the token itself is only ever sent to the client. */
  refreshHash: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  /** The device the session was opened from, as Strapi lists it (a UUID; older records use their id). */
  deviceId?: string;
}

export interface TokenRecord {
  id: number;
  name: string;
  description: string;
  type: 'read-only' | 'full-access' | 'custom';
  actions: string[];
  /** HMAC-SHA512(tokenSalt, accessKey) as hex: the clear key is shown once and never stored. */
  accessKey: string;
  lifespan: number | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Secrets {
  jwtSecret: string;
  tokenSalt: string;
}

export class LocalState {
  readonly dir: string;
  readonly users: TrackedDb<{ users: UserRecord[] }>;
  readonly sessions: TrackedDb<{ sessions: SessionRecord[] }>;
  readonly tokens: TrackedDb<{ tokens: TokenRecord[] }>;
  readonly secrets: Secrets;
  private readonly listeners = new Set<() => void>();

  constructor(projectRoot: string) {
    this.dir = join(projectRoot, '.folio');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const changed = () => this.listeners.forEach((fn) => fn());
    this.users = new TrackedDb(join(this.dir, 'users.json'), () => ({ users: [] as UserRecord[] }), changed);
    this.sessions = new TrackedDb(
      join(this.dir, 'sessions.json'),
      () => ({ sessions: [] as SessionRecord[] }),
      changed,
    );
    this.tokens = new TrackedDb(join(this.dir, 'tokens.json'), () => ({ tokens: [] as TokenRecord[] }), changed);
    const secrets = new TrackedDb<Partial<Secrets>>(join(this.dir, 'secrets.json'), () => ({}));
    if (!secrets.data.jwtSecret || !secrets.data.tokenSalt) {
      secrets.data.jwtSecret ??= randomBytes(32).toString('base64');
      secrets.data.tokenSalt ??= randomBytes(32).toString('base64');
      secrets.write();
    }
    this.secrets = secrets.data as Secrets;
  }

  /** Calls `fn` after each write of users, sessions or tokens by this process; returns a function to stop. */
  onWrite(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /**
   * Re-reads the files another process (the CLI, another server) changed since they were last read or
   * written here. A `stat` per file, so it is cheap enough to run on every authenticated request. After
   * it, objects taken from `data` before may be detached: look them up again.
   */
  refresh() {
    this.users.sync();
    this.sessions.sync();
    this.tokens.sync();
  }
}

/** A lowdb database that knows whether its file changed on disk since it last read or wrote it. */
export class TrackedDb<T> extends LowSync<T> {
  private stamp = '';

  constructor(
    readonly file: string,
    private empty: () => T,
    private written: () => void = () => undefined,
  ) {
    super(new JsonFileAdapter<T>(file), empty());
    this.sync(true);
  }

  /** Reads the file when it changed (or when `force`); a missing file is the empty collection. */
  sync(force = false) {
    const now = stampOf(this.file);
    if (!force && now === this.stamp) return;
    // Not LowSync.read(): it keeps the old data when the file is gone, and a deleted tokens.json must
    // revoke its tokens.
    this.data = this.adapter.read() ?? this.empty();
    this.stamp = now;
  }

  override write() {
    super.write();
    this.stamp = stampOf(this.file);
    this.written();
  }
}

function stampOf(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch {
    return 'missing';
  }
}

/**
 * JSON on one file, written as the store writes documents: a uniquely named sibling temp file (owner
 * read/write only), fsynced, then renamed over the target, so readers and crashes see the old or the new
 * content. lowdb's own presets are not used: they swap in a memory adapter when NODE_ENV is "test", which
 * would hide what is really stored.
 */
class JsonFileAdapter<T> implements SyncAdapter<T> {
  constructor(private file: string) {}

  read(): T | null {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new Error(`${this.file}: ${(err as Error).message}`, { cause: err });
    }
  }

  write(data: T): void {
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${randomBytes(6).toString('hex')}.tmp`);
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      throw err;
    }
    closeSync(fd);
    try {
      renameSync(tmp, this.file);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      throw err;
    }
    // Files made by an older Folio (or by hand) may be world-readable: these hold hashes and secrets.
    try {
      chmodSync(this.file, 0o600);
    } catch {
      /* not supported here (Windows) */
    }
  }
}
