import { randomBytes, randomUUID } from 'node:crypto';
import { FolioError, applicationError, validationError } from '../errors.js';
import { newDocumentId, now } from '../documents/model.js';
import { hashPassword, hmac, randomKey, verifyPassword } from './crypto.js';
import { LocalState, type SessionRecord, type TokenRecord, type UserRecord } from './state.js';
import { isActionName } from './permissions.js';
import { typeMessage } from '../documents/values.js';
import { issueId } from '../store/issued-ids.js';
import { WriteLock } from '../store/write-lock.js';

export type JwtMode = 'refresh' | 'legacy';
export interface AuthConfig {
  jwtManagement: JwtMode;
  httpOnly: boolean;
  accessTtlSeconds: number;
  legacyTtlSeconds: number;
  refreshTtlDays: number;
  refreshIdleDays: number;
}

export const DEFAULT_AUTH: AuthConfig = {
  jwtManagement: 'refresh',
  httpOnly: true,
  accessTtlSeconds: 10 * 60,
  legacyTtlSeconds: 30 * 24 * 3600,
  refreshTtlDays: 30,
  refreshIdleDays: 14,
};

const unauthorized = (message = 'Missing or invalid credentials') =>
  new FolioError(401, 'UnauthorizedError', message, {});
/** The e-mail shape users-permissions accepts (shared by registration and the users routes). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LIFESPANS: Record<string, number | null> = { '7d': 7, '30d': 30, '90d': 90, unlimited: null };

let guardHash: Promise<string> | undefined;
const timingGuardHash = () => (guardHash ??= hashPassword(randomKey(16)));

/** The users' view Strapi returns: private fields (password, tokens, role unless populated) left out. */
export function sanitizeUser(u: UserRecord) {
  return {
    id: u.id,
    documentId: u.documentId,
    username: u.username,
    email: u.email,
    provider: u.provider,
    confirmed: u.confirmed,
    blocked: u.blocked,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    publishedAt: u.publishedAt,
  };
}

/** The names of the user and API token id counters in `.folio/ids/`. */
const USER_IDS = 'users-permissions.user';
const TOKEN_IDS = 'admin.api-token';

/** Users, sessions and API tokens of a project; shared by the HTTP routes and the CLI. */
export class AuthService {
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

  private usersLockHeld?: WriteLock;
  private get usersLock(): WriteLock {
    return (this.usersLockHeld ??= new WriteLock(this.state.dir, 'users'));
  }

  private get key() {
    return new TextEncoder().encode(this.state.secrets.jwtSecret);
  }

  // ------------------------------------------------------------------ users

  async createUser(input: {
    username: string;
    email: string;
    password: string;
    role?: string;
    confirmed?: boolean;
  }): Promise<UserRecord> {
    const username = input.username?.trim();
    const email = input.email?.trim().toLowerCase();
    const problems: Array<{ path: string[]; message: string; value: unknown }> = [];
    if (!username || username.length < 3)
      problems.push({ path: ['username'], message: 'username must be at least 3 characters', value: input.username });
    if (!email || !EMAIL.test(email))
      problems.push({ path: ['email'], message: 'email must be a valid email', value: input.email });
    if (typeof input.password !== 'string' || input.password.length < 6)
      problems.push({ path: ['password'], message: 'password must be at least 6 characters', value: input.password });
    else if (Buffer.byteLength(input.password) > 72) throw validationError('Password must be less than 73 bytes');
    if (problems.length) {
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems.map((p) => ({ ...p, name: 'ValidationError' })),
      });
    }
    const password = await hashPassword(input.password);
    // Read, checked and written under a lock shared by processes, with nothing awaited in between: two processes
    // creating users at once (the CLI and a server's register) each keep the other's user.
    return this.usersLock.run(async () => {
      this.state.refresh();
      const users = this.state.users.data.users;
      // As Strapi: an e-mail may not be someone's username either, and the reverse.
      if (
        users.some((u) => u.email === email || u.username === email || u.username === username || u.email === username)
      ) {
        throw applicationError('Email or Username are already taken');
      }
      const t = now();
      const user: UserRecord = {
        id: this.issueId(USER_IDS, users),
        documentId: newDocumentId(),
        username,
        email,
        provider: 'local',
        password,
        confirmed: input.confirmed ?? true,
        blocked: false,
        role: input.role ?? 'authenticated',
        createdAt: t,
        updatedAt: t,
        publishedAt: t,
      };
      users.push(user);
      this.state.users.write();
      return user;
    });
  }

  /**
   * `POST /api/users`, `PUT /api/users/:id`: Strapi's checks (e-mail and username taken by another user,
   * `password.notNull`), e-mails lower-cased, passwords hashed. `role` is a role key already resolved.
   */
  async saveUser(id: number | undefined, input: UserInput): Promise<UserRecord | undefined> {
    this.state.refresh();
    const users = this.state.users.data.users;
    const current = id === undefined ? undefined : users.find((u) => u.id === id);
    if (id !== undefined && !current) return undefined;
    const username = input.username?.trim();
    const email = input.email?.trim().toLowerCase();
    if (username !== undefined && users.some((u) => u.username === username && u !== current))
      throw applicationError('Username already taken');
    if (email !== undefined && users.some((u) => u.email === email && u !== current))
      throw applicationError('Email already taken');
    const hash = input.password === undefined ? undefined : await hashPassword(input.password);
    this.state.refresh();
    const t = now();
    if (!current) {
      const user: UserRecord = {
        id: this.issueId(USER_IDS, users),
        documentId: newDocumentId(),
        username: username!,
        email: email!,
        provider: 'local',
        password: hash!,
        confirmed: input.confirmed ?? false,
        blocked: input.blocked ?? false,
        role: input.role ?? 'authenticated',
        createdAt: t,
        updatedAt: t,
        publishedAt: t,
      };
      this.state.users.data.users.push(user);
      this.state.users.write();
      return user;
    }
    const stored = this.state.users.data.users.find((u) => u.id === id);
    if (!stored) return undefined;
    if (username !== undefined) stored.username = username;
    if (email !== undefined) stored.email = email;
    if (input.confirmed !== undefined) stored.confirmed = input.confirmed;
    if (input.blocked !== undefined) stored.blocked = input.blocked;
    if (input.role !== undefined) stored.role = input.role;
    if (hash !== undefined) stored.password = hash;
    stored.updatedAt = t;
    this.state.users.write();
    // A new password or a block ends the user's sessions.
    if (hash !== undefined || input.blocked) this.endSessions(stored.id);
    return stored;
  }

  private endSessions(userId: number) {
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter((s) => s.userId !== userId);
    this.state.sessions.write();
  }

  /**
   * `POST /api/auth/forgot-password`: a fresh reset code for the account of `email` (only its HMAC is
   * kept). Undefined for unknown or blocked accounts: the route answers the same either way.
   */
  startPasswordReset(email: string): { user: UserRecord; code: string } | undefined {
    this.state.refresh();
    const user = this.state.users.data.users.find((u) => u.email === email.toLowerCase());
    if (!user || user.blocked) return undefined;
    const code = randomKey(64);
    user.resetPasswordToken = hmac(this.state.secrets.tokenSalt, code);
    this.state.users.write();
    return { user, code };
  }

  /** `POST /api/auth/reset-password`: the code is used once; every session of the user ends. */
  async resetPassword(body: Record<string, unknown>): Promise<UserRecord> {
    const { code, password, passwordConfirmation } = body;
    const required = (['code', 'password', 'passwordConfirmation'] as const).filter(
      (k) => typeof body[k] !== 'string' || !body[k],
    );
    if (required.length) {
      const problems = required.map((k) => ({
        path: [k],
        message: `${k} is a required field`,
        name: 'ValidationError',
      }));
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems,
      });
    }
    if (password !== passwordConfirmation) throw validationError('Passwords do not match');
    if ((password as string).length < 6) throw validationError('password must be at least 6 characters');
    const hash = await hashPassword(password as string);
    const user = this.userWithToken('resetPasswordToken', code as string);
    if (!user) throw validationError('Incorrect code provided');
    user.password = hash;
    user.resetPasswordToken = null;
    user.updatedAt = now();
    this.state.users.write();
    this.endSessions(user.id);
    return user;
  }

  /** The user holding a one-time code or token (stored as its HMAC), freshly read. */
  private userWithToken(field: 'resetPasswordToken' | 'confirmationToken', clear: string): UserRecord | undefined {
    this.state.refresh();
    const hash = hmac(this.state.secrets.tokenSalt, clear);
    return this.state.users.data.users.find((u) => u[field] === hash);
  }

  /** A fresh e-mail confirmation token for a user (only its HMAC is kept). */
  startEmailConfirmation(user: UserRecord): string {
    this.state.refresh();
    const stored = this.state.users.data.users.find((u) => u.id === user.id);
    if (!stored) throw applicationError('User not found');
    const token = randomKey(20);
    stored.confirmationToken = hmac(this.state.secrets.tokenSalt, token);
    this.state.users.write();
    return token;
  }

  /** `GET /api/auth/email-confirmation`: confirms the account the token was made for. */
  confirmEmail(token: unknown): UserRecord {
    if (typeof token !== 'string' || !token) throw validationError('Invalid token');
    const user = this.userWithToken('confirmationToken', token);
    if (!user) throw validationError('Invalid token');
    user.confirmed = true;
    user.confirmationToken = null;
    user.updatedAt = now();
    this.state.users.write();
    return user;
  }

  userByEmail(email: string): UserRecord | undefined {
    this.state.refresh();
    return this.state.users.data.users.find((u) => u.email === email.toLowerCase());
  }

  /**
   * A fresh id for a user or token: past every one listed and every id handed out before (the counters in
   * `.folio/ids/`), so a deleted one's id is never given again, as Strapi's auto-increments.
   */
  private issueId(counter: string, records: Array<{ id: number }>): number {
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

  /** Deletes the user with this numeric id (the REST route: never a username that looks like a number). */
  deleteUserById(id: number): UserRecord | undefined {
    this.state.refresh();
    const user = this.state.users.data.users.find((u) => u.id === id);
    return user ? this.deleteUser(String(user.id)) : undefined;
  }

  deleteUser(idOrName: string): UserRecord | undefined {
    this.state.refresh();
    const users = this.state.users.data.users;
    // An id first: a username may look like another user's id.
    let i = users.findIndex((u) => String(u.id) === idOrName);
    if (i === -1) i = users.findIndex((u) => u.username === idOrName || u.email === idOrName.toLowerCase());
    if (i === -1) return undefined;
    const [gone] = users.splice(i, 1);
    this.state.users.write();
    this.endSessions(gone.id);
    return gone;
  }

  async login(identifier: unknown, password: unknown): Promise<UserRecord> {
    if (typeof identifier !== 'string' || !identifier)
      throw validationError('identifier is a required field', {
        errors: [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }],
      });
    if (typeof password !== 'string' || !password)
      throw validationError('password is a required field', {
        errors: [{ path: ['password'], message: 'password is a required field', name: 'ValidationError' }],
      });
    this.state.refresh();
    const id = identifier.toLowerCase();
    const user = this.state.users.data.users.find((u) => u.email === id || u.username === identifier);
    if (!user) {
      // The same scrypt work as for a wrong password, so response times do not tell which accounts exist.
      await verifyPassword(password, await timingGuardHash());
      throw validationError('Invalid identifier or password');
    }
    if (!(await verifyPassword(password, user.password))) throw validationError('Invalid identifier or password');
    if (!user.confirmed) throw applicationError('Your account email is not confirmed');
    if (user.blocked) throw applicationError('Your account has been blocked by an administrator');
    return user;
  }

  async changePassword(user: UserRecord, body: Record<string, unknown>): Promise<UserRecord> {
    const { currentPassword, password, passwordConfirmation } = body;
    // Strapi's change-password schema: every field required, the confirmation equal to the password.
    const problems: Array<{ path: string[]; message: string; name: string; value?: unknown }> = [];
    for (const k of ['password', 'passwordConfirmation', 'currentPassword']) {
      const v = body[k];
      if (v === undefined || v === null || v === '')
        problems.push({
          path: [k],
          message: `${k} is a required field`,
          name: 'ValidationError',
          value: v ?? undefined,
        });
      else if (typeof v !== 'string')
        problems.push({ path: [k], message: typeMessage(k, 'string', v), name: 'ValidationError', value: v });
    }
    if (!problems.length && password !== passwordConfirmation)
      problems.push({
        path: ['passwordConfirmation'],
        message: 'Passwords do not match',
        name: 'ValidationError',
        value: passwordConfirmation,
      });
    if (problems.length)
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems,
      });
    if (typeof password !== 'string' || typeof currentPassword !== 'string') throw validationError('Invalid body');
    if (!(await verifyPassword(currentPassword, user.password)))
      throw validationError('The provided current password is invalid');
    if (currentPassword === password)
      throw validationError('Your new password must be different than your current password');
    if (password.length < 6) throw validationError('password must be at least 6 characters');
    const hash = await hashPassword(password);
    this.state.refresh();
    const stored = this.state.users.data.users.find((u) => u.id === user.id);
    if (!stored) throw unauthorized('Invalid credentials');
    stored.password = hash;
    stored.updatedAt = now();
    this.state.users.write();
    // A new password ends every session: whoever else held one must log in again.
    this.endSessions(stored.id);
    return stored;
  }

  // ------------------------------------------------------------------ JWTs and sessions

  /** Issues credentials after login or register: `{ jwt }` plus a refresh token in refresh mode. */
  async issue(user: UserRecord, userAgent: string | null): Promise<{ jwt: string; refreshToken?: string }> {
    if (this.config.jwtManagement === 'legacy') {
      return { jwt: await this.sign({ id: user.id }, this.config.legacyTtlSeconds) };
    }
    const refreshToken = randomKey(48);
    const t = new Date();
    const session: SessionRecord = {
      // Strapi's session ids: 32 hex characters.
      id: randomBytes(16).toString('hex'),
      deviceId: randomUUID(),
      userId: user.id,
      refreshHash: hmac(this.state.secrets.tokenSalt, refreshToken),
      createdAt: t.toISOString(),
      lastUsedAt: t.toISOString(),
      expiresAt: new Date(t.getTime() + this.config.refreshTtlDays * 86400_000).toISOString(),
      userAgent,
    };
    this.state.refresh();
    // Expired and idle sessions are dropped as new ones are made, so the file does not grow forever.
    const idleCutoff = t.getTime() - this.config.refreshIdleDays * 86400_000;
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter(
      (s) => Date.parse(s.expiresAt) > t.getTime() && Date.parse(s.lastUsedAt) > idleCutoff,
    );
    this.state.sessions.data.sessions.push(session);
    this.state.sessions.write();
    return {
      jwt: await this.sign({ id: user.id, sessionId: session.id, type: 'access' }, this.config.accessTtlSeconds),
      refreshToken,
    };
  }

  private async sign(payload: Record<string, unknown>, ttlSeconds: number) {
    const { SignJWT } = await jose();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /**
   * The user a JWT names. Undefined (the caller answers 401 `Missing or invalid credentials`, as Strapi
   * does for a token it cannot verify) when the JWT is malformed, badly signed or expired, or, in refresh
   * mode, is not an access token of a live session; 401 `Invalid credentials` when its user is gone or blocked.
   */
  async verifyJwt(token: string): Promise<{ user: UserRecord; sessionId?: string } | undefined> {
    let payload: Record<string, unknown>;
    try {
      const { jwtVerify } = await jose();
      payload = (await jwtVerify(token, this.key, { algorithms: ['HS256'] })).payload as Record<string, unknown>;
    } catch {
      return undefined;
    }
    if (typeof payload.id !== 'number') return undefined;
    const sessionId = typeof payload.sessionId === 'string' ? payload.sessionId : undefined;
    this.state.refresh();
    // A token issued with a session needs that session alive in either mode: switched to legacy, a signed-out
    // token must not work again. Legacy tokens have none, and refresh mode accepts only session tokens.
    if (this.config.jwtManagement === 'refresh' || sessionId !== undefined || payload.type === 'access') {
      if (payload.type !== 'access' || !sessionId) return undefined;
      const session = this.state.sessions.data.sessions.find((s) => s.id === sessionId);
      if (!session || session.userId !== payload.id) return undefined;
    }
    const user = this.state.users.data.users.find((u) => u.id === payload.id);
    if (!user || user.blocked) throw unauthorized('Invalid credentials');
    return { user, sessionId };
  }

  /** Exchanges a refresh token for a new access JWT (and rotates the refresh token). */
  async refresh(refreshToken: unknown): Promise<{ jwt: string; refreshToken: string }> {
    if (typeof refreshToken !== 'string' || !refreshToken)
      throw new FolioError(400, 'BadRequestError', 'Missing refresh token', {});
    this.state.refresh();
    const hash = hmac(this.state.secrets.tokenSalt, refreshToken);
    const session = this.state.sessions.data.sessions.find((s) => s.refreshHash === hash);
    const t = Date.now();
    if (
      !session ||
      Date.parse(session.expiresAt) < t ||
      Date.parse(session.lastUsedAt) + this.config.refreshIdleDays * 86400_000 < t
    ) {
      throw unauthorized('Invalid refresh token');
    }
    // Not userById: it re-reads the files, which would detach `session` from what is written below.
    const user = this.state.users.data.users.find((u) => u.id === session.userId);
    if (!user || user.blocked) throw unauthorized('Invalid refresh token');
    const next = randomKey(48);
    session.refreshHash = hmac(this.state.secrets.tokenSalt, next);
    session.lastUsedAt = new Date(t).toISOString();
    this.state.sessions.write();
    return {
      jwt: await this.sign({ id: user.id, sessionId: session.id, type: 'access' }, this.config.accessTtlSeconds),
      refreshToken: next,
    };
  }

  /** A user's sessions as Strapi lists them; `current` marks the one `currentId` (a JWT's sessionId) names. */
  sessionsOf(userId: number, currentId?: string) {
    this.state.refresh();
    const current = currentId === undefined ? undefined : sessionHexId(currentId);
    return this.state.sessions.data.sessions
      .filter((s) => s.userId === userId)
      .map((s) => ({
        id: sessionHexId(s.id),
        deviceId: s.deviceId ?? s.id,
        current: sessionHexId(s.id) === current,
        loginAt: s.createdAt,
        lastActiveAt: s.lastUsedAt,
      }));
  }

  revokeSession(userId: number, sessionId: string): boolean {
    this.state.refresh();
    const before = this.state.sessions.data.sessions.length;
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter(
      (s) => !(s.userId === userId && (s.id === sessionId || sessionHexId(s.id) === sessionId)),
    );
    this.state.sessions.write();
    return this.state.sessions.data.sessions.length < before;
  }

  // ------------------------------------------------------------------ API tokens

  createToken(input: CreateTokenInput): { accessKey: string; record: TokenRecord } {
    if (!input.name) throw validationError('A token needs a name');
    if (!['read-only', 'full-access', 'custom'].includes(input.type))
      throw validationError('The token type must be read-only, full-access or custom');
    if (input.type === 'custom' && !input.actions?.length)
      throw validationError('A custom token needs at least one action');
    if (input.type !== 'custom' && input.actions?.length)
      throw validationError('Only custom tokens take a list of actions');
    const badAction = input.actions?.find((a) => !isActionName(a));
    if (badAction !== undefined)
      throw validationError(`"${badAction}" is not an action name like api::article.article.find`);
    const lifespanKey = input.lifespan ?? 'unlimited';
    if (!Object.hasOwn(LIFESPANS, lifespanKey)) throw validationError('The lifespan must be 7d, 30d, 90d or unlimited');
    this.state.refresh();
    const tokens = this.state.tokens.data.tokens;
    if (tokens.some((t) => t.name === input.name))
      throw applicationError(`A token named "${input.name}" already exists`);
    const accessKey = randomKey(128);
    const days = LIFESPANS[lifespanKey];
    const created = new Date();
    const record: TokenRecord = {
      id: this.issueId(TOKEN_IDS, tokens),
      name: input.name,
      description: input.description ?? '',
      type: input.type,
      actions: input.type === 'custom' ? [...new Set(input.actions)] : [],
      accessKey: hmac(this.state.secrets.tokenSalt, accessKey),
      lifespan: days === null ? null : days * 86400_000,
      expiresAt: days === null ? null : new Date(created.getTime() + days * 86400_000).toISOString(),
      createdAt: created.toISOString(),
      lastUsedAt: null,
    };
    tokens.push(record);
    this.state.tokens.write();
    return { accessKey, record };
  }

  listTokens(): TokenRecord[] {
    this.state.refresh();
    return this.state.tokens.data.tokens;
  }

  revokeToken(idOrName: string): TokenRecord | undefined {
    this.state.refresh();
    const tokens = this.state.tokens.data.tokens;
    const i = tokens.findIndex((t) => String(t.id) === idOrName || t.name === idOrName);
    if (i === -1) return undefined;
    const [gone] = tokens.splice(i, 1);
    this.state.tokens.write();
    return gone;
  }

  /** The token a bearer value is, by its HMAC; 401 `Token expired` past its lifespan. */
  findToken(accessKey: string): TokenRecord | undefined {
    const hash = hmac(this.state.secrets.tokenSalt, accessKey);
    // Picks up tokens created or revoked by the CLI while the server runs (a stat when nothing changed).
    this.state.tokens.sync();
    const token = this.state.tokens.data.tokens.find((t) => t.accessKey === hash);
    if (!token) return undefined;
    if (token.expiresAt && Date.parse(token.expiresAt) < Date.now()) throw unauthorized('Token expired');
    // lastUsedAt is updated at most once an hour, as Strapi does, so reads do not turn into writes.
    if (!token.lastUsedAt || Date.parse(token.lastUsedAt) < Date.now() - 3600_000) {
      token.lastUsedAt = new Date().toISOString();
      this.state.tokens.write();
    }
    return token;
  }
}

/** The writable fields of a user (`POST`/`PUT /api/users`), already checked for type. */
export interface UserInput {
  username?: string;
  email?: string;
  password?: string;
  confirmed?: boolean;
  blocked?: boolean;
  role?: string;
}

export interface CreateTokenInput {
  name: string;
  type: TokenRecord['type'];
  /** For `custom` tokens: Strapi's full action names (`api::article.article.find`). */
  actions?: string[];
  /** `7d`, `30d`, `90d` or `unlimited` (the default). */
  lifespan?: string;
  description?: string;
}

/**
 * Creates an API token for a project (CLI, tests and the conformance replay). The clear `accessKey`
 * (128 random bytes as hex) is returned once; only its HMAC is stored, in `.folio/tokens.json`.
 * A running server of the project accepts it at once.
 */
export async function createApiToken(
  projectRoot: string,
  input: CreateTokenInput,
): Promise<{ accessKey: string; record: TokenRecord }> {
  return new AuthService(projectRoot).createToken(input);
}

/** A session id as Strapi shows it (32 hex characters): sessions opened before they were made so had UUIDs. */
const sessionHexId = (id: string) => id.replace(/-/g, '');

/** Loaded on first use: 46 modules that `folio serve` need not compile before its first answer. */
const jose = () => import('jose');
