import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { JSONFileSync } from 'lowdb/node';
import { LowSync } from 'lowdb';

/**
 * The project's local state (kept out of git in `.folio/`): users, sessions, API tokens and the secrets
 * that sign and hash them. Stored with lowdb, one JSON file per collection.
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

export interface Secrets { jwtSecret: string; tokenSalt: string }

export class LocalState {
  readonly dir: string;
  readonly users: LowSync<{ users: UserRecord[] }>;
  readonly sessions: LowSync<{ sessions: SessionRecord[] }>;
  readonly tokens: LowSync<{ tokens: TokenRecord[] }>;
  readonly secrets: Secrets;

  constructor(projectRoot: string) {
    this.dir = join(projectRoot, '.folio');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.users = open(join(this.dir, 'users.json'), { users: [] as UserRecord[] });
    this.sessions = open(join(this.dir, 'sessions.json'), { sessions: [] as SessionRecord[] });
    this.tokens = open(join(this.dir, 'tokens.json'), { tokens: [] as TokenRecord[] });
    const secrets = open<Partial<Secrets>>(join(this.dir, 'secrets.json'), {});
    if (!secrets.data.jwtSecret || !secrets.data.tokenSalt) {
      secrets.data.jwtSecret ??= randomBytes(32).toString('base64');
      secrets.data.tokenSalt ??= randomBytes(32).toString('base64');
      secrets.write();
    }
    this.secrets = secrets.data as Secrets;
  }

  /** Re-reads the files (another process, the CLI, may have changed them). */
  refresh() {
    this.users.read(); this.users.data ??= { users: [] };
    this.sessions.read(); this.sessions.data ??= { sessions: [] };
    this.tokens.read(); this.tokens.data ??= { tokens: [] };
  }
}

/**
 * A lowdb database on one JSON file (written to a temp file, then renamed). lowdb's presets are not used:
 * they swap in a memory adapter when NODE_ENV is "test", which would hide what is really stored.
 */
function open<T>(file: string, defaults: T): LowSync<T> {
  const db = new LowSync<T>(new JSONFileSync<T>(file), defaults);
  db.read();
  db.data ??= defaults;
  return db;
}
