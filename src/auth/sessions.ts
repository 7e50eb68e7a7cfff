import { randomBytes, randomUUID } from 'node:crypto';
import { FolioError } from '../errors.js';
import { hmac, randomKey } from './crypto.js';
import type { SessionRecord, UserRecord } from './state.js';
import { unauthorized } from './auth-base.js';
import { AuthAccountCodes } from './account-codes.js';

/** The JWTs and sessions of AuthService: credentials issued, verified, refreshed and revoked. */
export class AuthSessions extends AuthAccountCodes {
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
  async verifyJwt(token: string): Promise<{ user: UserRecord; sessionId?: string; expiresAt?: number } | undefined> {
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
    const user = this.state.users.data.users.find((u) => u.id === payload.id);
    // A blocked user's token is told so first (blocking also ended its session).
    if (user?.blocked) throw unauthorized('Invalid credentials');
    // A token issued with a session needs that session alive in either mode: switched to legacy, a signed-out
    // token must not work again. Legacy tokens have none, and refresh mode accepts only session tokens.
    if (this.config.jwtManagement === 'refresh' || sessionId !== undefined || payload.type === 'access') {
      if (payload.type !== 'access' || !sessionId) return undefined;
      const session = this.state.sessions.data.sessions.find((s) => s.id === sessionId);
      if (!session || session.userId !== payload.id) return undefined;
    }
    // The owner's tokens count only where owner sessions are taken (a server on the user's own machine).
    if (!this.ownerSignIn && this.isOwner(payload.id)) return undefined;
    if (!user) throw unauthorized('Invalid credentials');
    return { user, sessionId, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined };
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
    if (!user || user.blocked || (!this.ownerSignIn && this.isOwner(user.id)))
      throw unauthorized('Invalid refresh token');
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
}

/** A session id as Strapi shows it (32 hex characters): sessions opened before they were made so had UUIDs. */
const sessionHexId = (id: string) => id.replace(/-/g, '');

/** Loaded on first use: 46 modules that `folio serve` need not compile before its first answer. */
const jose = () => import('jose');
