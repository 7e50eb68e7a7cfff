import { FolioError } from '../errors.js';
import { hmac } from './crypto.js';
import { LocalState, type UserRecord } from './state.js';
import { issueId } from '../store/issued-ids.js';
import { WriteLock } from '../store/write-lock.js';
import { DEFAULT_AUTH, type AuthConfig } from './config.js';
import { OwnerRecord } from './owner.js';

export const unauthorized = (message = 'Missing or invalid credentials') =>
  new FolioError(401, 'UnauthorizedError', message, {});

/** The names of the user and API token id counters in `.folio/ids/`. */
export const USER_IDS = 'users-permissions.user';
export const TOKEN_IDS = 'admin.api-token';

/**
 * What every part of AuthService shares: the project's auth state, its settings, the users' write lock, the JWT
 * key, id counters and user lookups. The parts stack on it (accounts, account codes, sessions, API tokens).
 */
export class AuthBase {
  readonly state: LocalState;
  private readonly settings: () => AuthConfig;

  /** `config` as a function: a running server's settings follow folio.json as it is reloaded. */
  constructor(
    readonly root: string,
    config: AuthConfig | (() => AuthConfig) = DEFAULT_AUTH,
  ) {
    this.state = new LocalState(root);
    this.settings = typeof config === 'function' ? config : () => config;
  }

  get config(): AuthConfig {
    return this.settings();
  }

  /**
   * Whether this process takes the sessions of the project's owner: a server on the user's own machine turns it
   * on (`folio serve` on a loopback address); off, the owner's tokens are refused like a stranger's.
   */
  ownerSignIn = false;
  private ownerHeld?: OwnerRecord;
  get owner(): OwnerRecord {
    return (this.ownerHeld ??= new OwnerRecord(this.state.dir));
  }
  isOwner(userId: number): boolean {
    return this.owner.userId() === userId;
  }

  private usersLockHeld?: WriteLock;
  protected get usersLock(): WriteLock {
    return (this.usersLockHeld ??= new WriteLock(this.state.dir, 'users'));
  }

  protected get key() {
    return new TextEncoder().encode(this.state.secrets.jwtSecret);
  }

  userByEmail(email: string): UserRecord | undefined {
    this.state.refresh();
    return this.state.users.data.users.find((u) => u.email === email.toLowerCase());
  }

  /**
   * A fresh id for a user or token: past every one listed and every id handed out before (the counters in
   * `.folio/ids/`), so a deleted one's id is never given again, as Strapi's auto-increments.
   */
  protected issueId(counter: string, records: Array<{ id: number }>): number {
    return issueId(this.state.dir, counter, records.reduce((m, r) => Math.max(m, r.id), 0) + 1);
  }

  listUsers(): UserRecord[] {
    this.state.refresh();
    return this.state.users.data.users;
  }
  userById(id: number): UserRecord | undefined {
    this.state.refresh();
    return this.state.users.data.users.find((u) => u.id === id);
  }

  protected endSessions(userId: number) {
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter((s) => s.userId !== userId);
    this.state.sessions.write();
  }

  /** The user holding a one-time code or token (stored as its HMAC), freshly read. */
  protected userWithToken(field: 'resetPasswordToken' | 'confirmationToken', clear: string): UserRecord | undefined {
    this.state.refresh();
    const hash = hmac(this.state.secrets.tokenSalt, clear);
    return this.state.users.data.users.find((u) => u[field] === hash);
  }
}
