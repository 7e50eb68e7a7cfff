import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { FolioError, applicationError, validationError } from '../errors.js';
import { newDocumentId, now } from '../documents/model.js';
import { hashPassword, hmac, randomKey, verifyPassword } from './crypto.js';
import { LocalState, type SessionRecord, type TokenRecord, type UserRecord } from './state.js';

export type JwtMode = 'refresh' | 'legacy';
export interface AuthConfig { jwtManagement: JwtMode; httpOnly: boolean; accessTtlSeconds: number; legacyTtlSeconds: number; refreshTtlDays: number; refreshIdleDays: number }

export const DEFAULT_AUTH: AuthConfig = {
  jwtManagement: 'refresh', httpOnly: false, accessTtlSeconds: 10 * 60, legacyTtlSeconds: 30 * 24 * 3600, refreshTtlDays: 30, refreshIdleDays: 14,
};

const unauthorized = (message = 'Missing or invalid credentials') => new FolioError(401, 'UnauthorizedError', message, {});
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LIFESPANS: Record<string, number | null> = { '7d': 7, '30d': 30, '90d': 90, unlimited: null };

/** The users' view Strapi returns: private fields (password, tokens, role unless populated) left out. */
export function sanitizeUser(u: UserRecord) {
  return {
    id: u.id, documentId: u.documentId, username: u.username, email: u.email, provider: u.provider,
    confirmed: u.confirmed, blocked: u.blocked, createdAt: u.createdAt, updatedAt: u.updatedAt, publishedAt: u.publishedAt,
  };
}

/** Users, sessions and API tokens of a project; shared by the HTTP routes and the CLI. */
export class AuthService {
  readonly state: LocalState;

  constructor(readonly root: string, readonly config: AuthConfig = DEFAULT_AUTH) {
    this.state = new LocalState(root);
  }

  private get key() { return new TextEncoder().encode(this.state.secrets.jwtSecret); }

  // ------------------------------------------------------------------ users

  async createUser(input: { username: string; email: string; password: string; role?: string; confirmed?: boolean }): Promise<UserRecord> {
    const username = input.username?.trim();
    const email = input.email?.trim().toLowerCase();
    const problems: Array<{ path: string[]; message: string }> = [];
    if (!username || username.length < 3) problems.push({ path: ['username'], message: 'username must be at least 3 characters' });
    if (!email || !EMAIL.test(email)) problems.push({ path: ['email'], message: 'email must be a valid email' });
    if (typeof input.password !== 'string' || input.password.length < 6) problems.push({ path: ['password'], message: 'password must be at least 6 characters' });
    else if (Buffer.byteLength(input.password) > 72) throw validationError('Password must be less than 73 bytes');
    if (problems.length) {
      throw validationError(problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`, {
        errors: problems.map((p) => ({ ...p, name: 'ValidationError' })),
      });
    }
    this.state.refresh();
    const users = this.state.users.data.users;
    if (users.some((u) => u.email === email || u.username === username)) throw applicationError('Email or Username are already taken');
    const t = now();
    const user: UserRecord = {
      id: users.reduce((m, u) => Math.max(m, u.id), 0) + 1, documentId: newDocumentId(), username, email, provider: 'local',
      password: await hashPassword(input.password), confirmed: input.confirmed ?? true, blocked: false, role: input.role ?? 'authenticated',
      createdAt: t, updatedAt: t, publishedAt: t,
    };
    users.push(user);
    this.state.users.write();
    return user;
  }

  listUsers(): UserRecord[] { this.state.refresh(); return this.state.users.data.users; }
  userById(id: number): UserRecord | undefined { this.state.refresh(); return this.state.users.data.users.find((u) => u.id === id); }

  deleteUser(idOrName: string): UserRecord | undefined {
    this.state.refresh();
    const users = this.state.users.data.users;
    const i = users.findIndex((u) => String(u.id) === idOrName || u.username === idOrName || u.email === idOrName.toLowerCase());
    if (i === -1) return undefined;
    const [gone] = users.splice(i, 1);
    this.state.users.write();
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter((s) => s.userId !== gone.id);
    this.state.sessions.write();
    return gone;
  }

  async login(identifier: unknown, password: unknown): Promise<UserRecord> {
    if (typeof identifier !== 'string' || !identifier) throw validationError('identifier is a required field', { errors: [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }] });
    if (typeof password !== 'string' || !password) throw validationError('password is a required field', { errors: [{ path: ['password'], message: 'password is a required field', name: 'ValidationError' }] });
    this.state.refresh();
    const id = identifier.toLowerCase();
    const user = this.state.users.data.users.find((u) => u.email === id || u.username === identifier);
    if (!user || !(await verifyPassword(password, user.password))) throw validationError('Invalid identifier or password');
    if (user.blocked) throw applicationError('Your account has been blocked by an administrator');
    if (!user.confirmed) throw applicationError('Your account email is not confirmed');
    return user;
  }

  async changePassword(user: UserRecord, body: Record<string, unknown>): Promise<UserRecord> {
    const { currentPassword, password, passwordConfirmation } = body;
    if (typeof currentPassword !== 'string' || typeof password !== 'string' || typeof passwordConfirmation !== 'string') {
      throw validationError('currentPassword, password and passwordConfirmation are required');
    }
    if (password !== passwordConfirmation) throw validationError('Passwords do not match');
    if (!(await verifyPassword(currentPassword, user.password))) throw validationError('The provided current password is invalid');
    if (currentPassword === password) throw validationError('Your new password must be different than your current password');
    if (password.length < 6) throw validationError('password must be at least 6 characters');
    this.state.refresh();
    const stored = this.state.users.data.users.find((u) => u.id === user.id)!;
    stored.password = await hashPassword(password);
    stored.updatedAt = now();
    this.state.users.write();
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
      id: randomUUID(), userId: user.id, refreshHash: hmac(this.state.secrets.tokenSalt, refreshToken),
      createdAt: t.toISOString(), lastUsedAt: t.toISOString(),
      expiresAt: new Date(t.getTime() + this.config.refreshTtlDays * 86400_000).toISOString(), userAgent,
    };
    this.state.refresh();
    this.state.sessions.data.sessions.push(session);
    this.state.sessions.write();
    return { jwt: await this.sign({ id: user.id, sessionId: session.id, type: 'access' }, this.config.accessTtlSeconds), refreshToken };
  }

  private sign(payload: Record<string, unknown>, ttlSeconds: number) {
    return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(`${ttlSeconds}s`).sign(this.key);
  }

  /** The user a JWT names; 401 when the token is invalid, expired, or its user or session is gone. */
  async verifyJwt(token: string): Promise<{ user: UserRecord; sessionId?: string } | undefined> {
    let payload: Record<string, unknown>;
    try {
      payload = (await jwtVerify(token, this.key, { algorithms: ['HS256'] })).payload as Record<string, unknown>;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Invalid credentials');
      return undefined;
    }
    const user = typeof payload.id === 'number' ? this.userById(payload.id) : undefined;
    if (!user || user.blocked) throw unauthorized('Invalid credentials');
    const sessionId = typeof payload.sessionId === 'string' ? payload.sessionId : undefined;
    if (sessionId && !this.state.sessions.data.sessions.some((s) => s.id === sessionId)) throw unauthorized('Invalid credentials');
    return { user, sessionId };
  }

  /** Exchanges a refresh token for a new access JWT (and rotates the refresh token). */
  async refresh(refreshToken: unknown): Promise<{ jwt: string; refreshToken: string }> {
    if (typeof refreshToken !== 'string' || !refreshToken) throw validationError('Missing refresh token');
    this.state.refresh();
    const hash = hmac(this.state.secrets.tokenSalt, refreshToken);
    const session = this.state.sessions.data.sessions.find((s) => s.refreshHash === hash);
    const t = Date.now();
    if (!session || Date.parse(session.expiresAt) < t || Date.parse(session.lastUsedAt) + this.config.refreshIdleDays * 86400_000 < t) {
      throw unauthorized('Invalid refresh token');
    }
    // Not userById: it re-reads the files, which would detach `session` from what is written below.
    const user = this.state.users.data.users.find((u) => u.id === session.userId);
    if (!user || user.blocked) throw unauthorized('Invalid refresh token');
    const next = randomKey(48);
    session.refreshHash = hmac(this.state.secrets.tokenSalt, next);
    session.lastUsedAt = new Date(t).toISOString();
    this.state.sessions.write();
    return { jwt: await this.sign({ id: user.id, sessionId: session.id, type: 'access' }, this.config.accessTtlSeconds), refreshToken: next };
  }

  sessionsOf(userId: number) {
    this.state.refresh();
    return this.state.sessions.data.sessions.filter((s) => s.userId === userId)
      .map((s) => ({ id: s.id, createdAt: s.createdAt, lastUsedAt: s.lastUsedAt, expiresAt: s.expiresAt, userAgent: s.userAgent }));
  }

  revokeSession(userId: number, sessionId: string): boolean {
    this.state.refresh();
    const before = this.state.sessions.data.sessions.length;
    this.state.sessions.data.sessions = this.state.sessions.data.sessions.filter((s) => !(s.userId === userId && s.id === sessionId));
    this.state.sessions.write();
    return this.state.sessions.data.sessions.length < before;
  }

  // ------------------------------------------------------------------ API tokens

  createToken(input: { name: string; type: TokenRecord['type']; actions?: string[]; lifespan?: string; description?: string }): { accessKey: string; record: TokenRecord } {
    if (!input.name) throw validationError('A token needs a name');
    if (!['read-only', 'full-access', 'custom'].includes(input.type)) throw validationError('The token type must be read-only, full-access or custom');
    if (input.type === 'custom' && !input.actions?.length) throw validationError('A custom token needs at least one action');
    const lifespanKey = input.lifespan ?? 'unlimited';
    if (!(lifespanKey in LIFESPANS)) throw validationError('The lifespan must be 7d, 30d, 90d or unlimited');
    this.state.refresh();
    const tokens = this.state.tokens.data.tokens;
    if (tokens.some((t) => t.name === input.name)) throw applicationError(`A token named "${input.name}" already exists`);
    const accessKey = randomKey(128);
    const days = LIFESPANS[lifespanKey];
    const created = new Date();
    const record: TokenRecord = {
      id: tokens.reduce((m, t) => Math.max(m, t.id), 0) + 1, name: input.name, description: input.description ?? '', type: input.type,
      actions: input.type === 'custom' ? [...new Set(input.actions)] : [], accessKey: hmac(this.state.secrets.tokenSalt, accessKey),
      lifespan: days === null ? null : days * 86400_000, expiresAt: days === null ? null : new Date(created.getTime() + days * 86400_000).toISOString(),
      createdAt: created.toISOString(), lastUsedAt: null,
    };
    tokens.push(record);
    this.state.tokens.write();
    return { accessKey, record };
  }

  listTokens(): TokenRecord[] { this.state.refresh(); return this.state.tokens.data.tokens; }

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
    let token = this.state.tokens.data.tokens.find((t) => t.accessKey === hash);
    if (!token) { this.state.refresh(); token = this.state.tokens.data.tokens.find((t) => t.accessKey === hash); }
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

/** Creates an API token for a project (CLI, tests and the conformance replay): the clear key is returned once. */
export async function createApiToken(projectRoot: string, input: { name: string; type: TokenRecord['type']; actions?: string[]; lifespan?: string }) {
  return new AuthService(projectRoot).createToken(input);
}
