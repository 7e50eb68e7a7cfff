import { randomBytes } from 'node:crypto';
import { applicationError, notFound, validationError } from '../errors.js';
import { sanitizeUser, type AuthService } from '../auth/service.js';
import type { UserRecord } from '../auth/state.js';
import type { RouteHandler } from '../http-kit/route.js';
import { cookieSessionAllowed, crossOriginCookie, setRefreshCookie } from '../auth/refresh-cookie.js';
import { sendJson } from '../http-kit/respond.js';

/** Where the Studio exchanges a one-time code for a session (as written). */
export const SIGN_IN_PATH = '/_folio/studio/sign-in';

/** What a link that no longer signs in is answered. */
export const EXPIRED = 'This sign-in link has expired or was used already: ask for a new one';

/** How long a sign-in link works. */
export const SIGN_IN_TTL_MS = 5 * 60_000;

/**
 * One-time sign-in codes of one project, held in the server's memory only: `folio serve --studio-as` makes one
 * and prints the link; the first exchange ends it, and so does its expiry or a restart.
 */
export class SignInCodes {
  private codes = new Map<string, { userId: number; expires: number }>();

  issue(userId: number, ttlMs = SIGN_IN_TTL_MS): string {
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, { userId, expires: Date.now() + ttlMs });
    return code;
  }

  /** How many codes of `userId` wait to be used (not expired). */
  live(userId: number): number {
    let n = 0;
    for (const v of this.codes.values()) if (v.userId === userId && v.expires >= Date.now()) n++;
    return n;
  }

  /** The user `code` signs in, while it waits to be used; the code is left as it is. */
  peek(code: string): number | undefined {
    const found = this.codes.get(code);
    return found && found.expires >= Date.now() ? found.userId : undefined;
  }

  take(code: string): number | undefined {
    const found = this.codes.get(code);
    this.codes.delete(code);
    for (const [c, v] of this.codes) if (v.expires < Date.now()) this.codes.delete(c);
    return found && found.expires >= Date.now() ? found.userId : undefined;
  }
}

const byProject = new Map<string, SignInCodes>();

/** The codes of the project at `root`, shared by `folio serve` and its server in one process. */
export function signInCodes(root: string): SignInCodes {
  let codes = byProject.get(root);
  if (!codes) byProject.set(root, (codes = new SignInCodes()));
  return codes;
}

/** The user a `--studio-as` value names (username or e-mail), signed-in-able. */
export function studioUser(auth: AuthService, who: string): UserRecord {
  const user = auth.listUsers().find((u) => u.username === who || u.email === who.toLowerCase());
  if (!user) throw notFound(`No user ${who}: create one with folio users create`);
  if (!user.confirmed || user.blocked) throw applicationError(`User ${who} is not confirmed or is blocked`);
  return user;
}

/**
 * `POST /_folio/studio/sign-in` with `{ "code": "…" }`: the one-time code of a sign-in link exchanged for a
 * session, answered as `POST /api/auth/local` answers a sign-in with the refresh token in its httpOnly cookie.
 * Only a page of this server (or of an origin server.cors lists) may open a cookie session. With `"check": true`
 * it answers whether the code would sign in (`{ data: { usable } }`), and keeps it: the Studio asks first, so a
 * link opened twice is said plainly rather than as a refused request, which the browser logs as an error.
 */
export function signInLinkHandlers(auth: AuthService): Record<'signIn', RouteHandler> {
  /** The user `userId` names, if a link may sign them in here. */
  const usable = (userId: number | undefined) => {
    const user = userId === undefined ? undefined : auth.userById(userId);
    // The owner's link works only where owner sessions are taken (a server on the user's own machine).
    return !user || user.blocked || !user.confirmed || (!auth.ownerSignIn && auth.isOwner(user.id)) ? undefined : user;
  };
  return {
    async signIn({ event, body, project }) {
      if (!cookieSessionAllowed(event, project.config.server)) throw crossOriginCookie();
      const { code, check } = (body ?? {}) as { code?: unknown; check?: unknown };
      if (typeof code !== 'string' || !code) throw validationError('code is a required field');
      const codes = signInCodes(project.root);
      if (check === true) return sendJson(event, 200, { data: { usable: !!usable(codes.peek(code)) } });
      const user = usable(codes.take(code));
      if (!user) throw applicationError(EXPIRED);
      const issued = await auth.issue(user, String(event.node.req.headers['user-agent'] ?? '') || null);
      // The cookie of POST /api/auth/local in httpOnly mode (auth/http.ts), which the refresh route reads.
      if (issued.refreshToken)
        setRefreshCookie(event, project.config.server, issued.refreshToken, auth.config.refreshTtlDays * 86400);
      return sendJson(event, 200, { jwt: issued.jwt, user: sanitizeUser(user) });
    },
  };
}
