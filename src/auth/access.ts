import type { IncomingMessage } from 'node:http';
import { FolioError } from '../errors.js';
import type { AccessPolicy, Principal } from '../http-kit/access.js';
import { loadPermissions, type PermissionsFile } from './permissions.js';
import type { AuthService } from './service.js';
import type { TokenRecord, UserRecord } from './state.js';

export interface AuthPrincipal extends Principal {
  role?: string;
  user?: UserRecord;
  token?: TokenRecord;
  sessionId?: string;
  /** The project's owner (every permission), on a server that takes owner sessions. */
  owner?: boolean;
  /** When the credentials run out by themselves (a JWT's `exp`, a token's lifespan), in ms since the epoch. */
  expiresAt?: number;
}

/** How often a long-lived answer's credentials are checked again for changes made by other processes (the CLI). */
const RECHECK_MS = 2000;
/** The longest wait a timer takes (2^31-1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const unauthorized = (message = 'Missing or invalid credentials') =>
  new FolioError(401, 'UnauthorizedError', message, {});

/**
 * Users & permissions as Strapi enforces them: an API token, else a user JWT, else the public role.
 * A bearer value that is neither is a 401; a caller without the route's action gets a 403.
 */
export class PermissionsPolicy implements AccessPolicy {
  private permissions: PermissionsFile;
  private grants = new Map<string, Set<string>>();
  /** Bumped on every reload, so answers cached under the old permissions are not served under the new. */
  private version = 0;

  constructor(
    private contentDir: string,
    readonly auth: AuthService,
  ) {
    this.permissions = loadPermissions(contentDir);
    this.index();
  }

  /** Re-reads permissions.json (after an edit); a broken file keeps the previous permissions and throws. */
  reload() {
    this.permissions = loadPermissions(this.contentDir);
    this.index();
  }

  private index() {
    this.grants = new Map(Object.entries(this.permissions.roles).map(([k, r]) => [k, new Set(r.permissions)]));
    this.version++;
  }

  /** The roles as loaded (for listings). */
  roles(): PermissionsFile['roles'] {
    return this.permissions.roles;
  }

  async authenticate(req: IncomingMessage): Promise<AuthPrincipal> {
    const header = req.headers.authorization;
    if (typeof header === 'string') {
      // Node's parser has taken the whitespace around the value off already.
      const parts = header.split(/\s+/);
      if (parts.length === 2 && parts[0].toLowerCase() === 'bearer') {
        const value = parts[1];
        const token = this.auth.findToken(value);
        if (token)
          return {
            kind: 'token',
            id: token.id,
            token,
            expiresAt: token.expiresAt ? Date.parse(token.expiresAt) : undefined,
          };
        const found = await this.auth.verifyJwt(value);
        if (found)
          return {
            kind: 'user',
            id: found.user.id,
            user: found.user,
            role: found.user.role,
            sessionId: found.sessionId,
            ...(this.auth.isOwner(found.user.id) ? { owner: true } : {}),
            expiresAt: found.expiresAt,
          };
        throw unauthorized();
      }
      // Any other scheme is ignored: the request is anonymous, as in Strapi.
    }
    if (!this.grants.get('public')?.size) throw unauthorized();
    return { kind: 'public', role: 'public' };
  }

  /**
   * Ends a long-lived answer (an event stream) once the credentials it was opened with stop holding: signed out,
   * session revoked, password changed, user blocked, deleted or given another role, token revoked, JWT or token
   * expired. Checked again on every write of users, sessions or tokens by this server, every two seconds for the
   * writes of other processes, and when the credentials expire.
   */
  watch(req: IncomingMessage, principal: Principal, ended: () => void): () => void {
    const p = principal as AuthPrincipal;
    if (p.kind === 'public') return () => undefined;
    let done = false;
    const stop = () => {
      done = true;
      offWrite();
      clearInterval(poll);
      clearTimeout(expiry);
    };
    const end = () => {
      if (done) return;
      stop();
      ended();
    };
    // The bearer value fixes who it is (token or user, id, session): once it still authenticates, only the
    // user's role can have changed under it.
    const check = () => {
      this.authenticate(req).then((again) => {
        if (again.role !== p.role) end();
      }, end);
    };
    const offWrite = this.auth.state.onWrite(check);
    const poll = setInterval(check, RECHECK_MS).unref();
    // Ends it the first millisecond the credentials no longer hold (an API token holds through its `expiresAt`).
    const wait = p.expiresAt === undefined ? undefined : Math.max(p.expiresAt - Date.now(), 0) + 1;
    // A longer timer would fire at once; so long an expiry is caught by a re-check first.
    const expiry = wait === undefined || wait > MAX_TIMER_MS ? undefined : setTimeout(end, wait).unref();
    return stop;
  }

  can(principal: Principal, action: string): boolean {
    const p = principal as AuthPrincipal;
    if (p.owner) return true;
    if (p.token) {
      if (p.token.type === 'full-access') return true;
      if (p.token.type === 'read-only') return /\.(find|findOne)$/.test(action);
      return p.token.actions.includes(action);
    }
    return this.grants.get(p.role ?? 'public')?.has(action) ?? false;
  }

  cacheKey(principal: Principal): string | undefined {
    const p = principal as AuthPrincipal;
    // Read-only and full-access tokens see the same whatever permissions.json says; a custom token is
    // keyed by its hash (ids are reused after a revoke); roles by the permissions' version.
    if (p.token) return p.token.type === 'custom' ? `token:custom:${p.token.accessKey}` : `token:${p.token.type}`;
    // The owner may do what no role may: its answers are not a role's.
    if (p.owner) return 'owner';
    return `role:${p.role ?? 'public'}@${this.version}`;
  }
}
