import { FolioError, applicationError, fieldErrors, notFound } from '../errors.js';
import { sendEmpty, sendJson } from '../http-kit/respond.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import { parseQueryString } from '../query/parse-qs.js';
import { PermissionsPolicy, type AuthPrincipal } from './access.js';
import { authLimit } from './auth-limit.js';
import { sanitizeUser } from './user-view.js';
import type { AuthService } from './service.js';
import type { UsersConfig } from './config.js';
import type { UserRecord } from './state.js';
import { UsersQuery, roleViews } from './users-query.js';
import {
  cookieMode as cookieModeOf,
  cookieSessionAllowed,
  crossOriginCookie,
  refreshCookieOf,
  setRefreshCookie,
} from './refresh-cookie.js';
import { requestOrigin } from '../http-kit/client.js';
import { REGISTER_FIELDS, bodyOf, emailOf, registerProblems, userInput } from './user-bodies.js';
import { printable } from '../printable.js';

/** What Strapi's `ctx.unauthorized()` answers: a route the caller may use, but only as a logged-in user. */
const unauthorized = () => new FolioError(401, 'UnauthorizedError', 'Unauthorized', {});

/** The caller, whose route's action was checked before its handler ran (see routes.ts). */
const callerOf = async (req: RouteRequest) => (await req.principal()) as AuthPrincipal;

/** The handlers of the users-permissions routes, by the names routes.ts gives them. */
export type UsersHandler =
  | 'register'
  | 'login'
  | 'changePassword'
  | 'forgotPassword'
  | 'resetPassword'
  | 'emailConfirmation'
  | 'sendEmailConfirmation'
  | 'connect'
  | 'callback'
  | 'refresh'
  | 'logout'
  | 'sessions'
  | 'revokeSession'
  | 'me'
  | 'count'
  | 'find'
  | 'create'
  | 'findOne'
  | 'update'
  | 'destroy';

/**
 * The handlers of the users-permissions routes (answers are unwrapped JSON, as Strapi's): register, login, me,
 * users (find, count, findOne, create, update, destroy), change-password, forgot/reset-password, e-mail
 * confirmation and, in refresh mode, refresh, logout and sessions. OAuth providers answer "This provider is
 * disabled", as every provider but e-mail does in a new Strapi project. routes.ts declares their paths and the
 * Strapi action each needs (`plugin::users-permissions.auth.register`, `.user.me`, ...).
 *
 * Folio sends no e-mail: account e-mails (reset codes, confirmation links) are written to `log`, the
 * server's log, for the developer running it.
 */
export function usersHandlers(
  auth: AuthService,
  settings: () => UsersConfig,
  log: (message: string) => void,
): Record<UsersHandler, RouteHandler> {
  const limit = authLimit(() => settings().rateLimit);

  /** The caller's user: an API token or the public role may pass the permission check but has none. */
  const requireUser = (p: AuthPrincipal): UserRecord => {
    if (!p.user) throw unauthorized();
    return p.user;
  };
  const cookieMode = (req: RouteRequest) => cookieModeOf(auth.config, req);
  const sameOrigin = (req: RouteRequest) => cookieSessionAllowed(req.event, req.project.config.server);
  const setCookie = (req: RouteRequest, value: string, maxAge = auth.config.refreshTtlDays * 86400) =>
    setRefreshCookie(req.event, req.project.config.server, value, maxAge);

  /**
   * `{ jwt, refreshToken, user }` (refresh mode), `{ jwt, user }` (legacy mode, or the refresh token in a cookie).
   * Register and change-password always answer the refresh token in the body, as Strapi does, cookie mode or not.
   * A page of another origin (not listed in server.cors) gets no cookie: it cannot plant a session in the browser.
   */
  const credentials = async (req: RouteRequest, user: UserRecord, inBody = false) => {
    const issued = await auth.issue(user, String(req.event.node.req.headers['user-agent'] ?? '') || null);
    if (issued.refreshToken && cookieMode(req) && !inBody) {
      if (sameOrigin(req)) setCookie(req, issued.refreshToken);
      return { jwt: issued.jwt, user: sanitizeUser(user) };
    }
    return issued.refreshToken
      ? { jwt: issued.jwt, refreshToken: issued.refreshToken, user: sanitizeUser(user) }
      : { jwt: issued.jwt, user: sanitizeUser(user) };
  };

  // An address is the user's own text: one line in the log, its control characters escaped.
  const email = (to: string, what: string, link: string) =>
    log(printable(`e-mail to ${to} (Folio sends none; here it is): ${what}: ${link}`));
  const origin = (req: RouteRequest) => requestOrigin(req.event.node.req, req.project.config.server);
  const sendConfirmation = (req: RouteRequest, user: UserRecord) => {
    const token = auth.startEmailConfirmation(user);
    email(
      user.email,
      'confirm your e-mail address',
      `${origin(req)}/api/auth/email-confirmation?confirmation=${token}`,
    );
  };

  const usersQuery = (req: RouteRequest) => {
    const roles = req.access instanceof PermissionsPolicy ? req.access.roles() : {};
    return new UsersQuery(roleViews(req.project.contentDir, roles));
  };
  const query = (req: RouteRequest) => parseQueryString(req.rawQuery);
  /** Users routes address a user by numeric id. */
  const userId = (req: RouteRequest) => (/^\d+$/.test(req.params.id) ? Number(req.params.id) : NaN);

  return {
    async register(req) {
      limit(req);
      const body = bodyOf(req);
      const extra = Object.keys(body).filter((k) => !REGISTER_FIELDS.has(k));
      if (extra.length) throw new FolioError(400, 'ValidationError', `Invalid parameters: ${extra.join(', ')}`, {});
      const problems = registerProblems(body);
      if (problems.length) throw fieldErrors(problems);
      const { emailConfirmation } = settings().mail;
      const user = await auth.createUser({
        username: String(body.username ?? ''),
        email: String(body.email ?? ''),
        password: body.password as string,
        confirmed: !emailConfirmation,
      });
      if (emailConfirmation) {
        // As Strapi: no credentials until the address is confirmed.
        sendConfirmation(req, user);
        return sendJson(req.event, 200, { user: sanitizeUser(user) });
      }
      return sendJson(req.event, 200, await credentials(req, user, true));
    },
    async login(req) {
      limit(req);
      const body = bodyOf(req);
      const user = await auth.login(body.identifier, body.password, settings().mail.emailConfirmation);
      return sendJson(req.event, 200, await credentials(req, user));
    },
    async changePassword(req) {
      const p = await callerOf(req);
      limit(req, p.user?.id);
      if (!p.user) throw applicationError('You must be authenticated to reset your password');
      const user = await auth.changePassword(p.user, bodyOf(req));
      return sendJson(req.event, 200, await credentials(req, user, true));
    },
    async forgotPassword(req) {
      limit(req);
      const started = auth.startPasswordReset(emailOf(bodyOf(req)));
      if (started) {
        const url = settings().mail.resetPasswordUrl;
        const link = url
          ? `${url}${url.includes('?') ? '&' : '?'}code=${started.code}`
          : `code ${started.code} (set users.resetPasswordUrl in folio.json for a link)`;
        email(started.user.email, 'reset your password', link);
      }
      // The same answer for unknown and blocked accounts, so it does not tell which exist.
      return sendJson(req.event, 200, { ok: true });
    },
    async resetPassword(req) {
      limit(req);
      const user = await auth.resetPassword(bodyOf(req));
      return sendJson(req.event, 200, await credentials(req, user));
    },
    emailConfirmation(req) {
      auth.confirmEmail(query(req).confirmation);
      req.event.node.res.setHeader('location', settings().mail.emailConfirmationRedirection || '/');
      return sendEmpty(req.event, 302);
    },
    sendEmailConfirmation(req) {
      limit(req);
      const address = emailOf(bodyOf(req));
      const user = auth.userByEmail(address);
      if (!user) return sendJson(req.event, 200, { email: address, sent: true });
      if (user.confirmed) throw applicationError('Already confirmed');
      if (user.blocked) throw applicationError('User blocked');
      sendConfirmation(req, user);
      return sendJson(req.event, 200, { email: user.email, sent: true });
    },
    // Folio has no OAuth: every provider but e-mail is off, as in a new Strapi project.
    connect() {
      throw applicationError('This provider is disabled');
    },
    async callback(req) {
      // The provider is the path's fourth segment: routes.ts also names some of them as fixed paths.
      if (req.path.split('/')[3].toLowerCase() === 'local') {
        // E-mail sign-in is the one provider on: it takes its credentials as POST /api/auth/local does.
        await auth.login(undefined, undefined);
      }
      throw applicationError('This provider is disabled');
    },
    async refresh(req) {
      const body = bodyOf(req);
      const cookie = body.refreshToken == null ? refreshCookieOf(req) : undefined;
      // The cookie is a browser's: only pages of this server (or listed origins) may spend it.
      const allowed = sameOrigin(req);
      if (cookie !== undefined && !allowed) throw crossOriginCookie();
      const out = await auth.refresh(body.refreshToken ?? cookie);
      if (allowed && (cookieMode(req) || cookie !== undefined)) {
        setCookie(req, out.refreshToken);
        return sendJson(req.event, 200, { jwt: out.jwt });
      }
      return sendJson(req.event, 200, out);
    },
    async logout(req) {
      const p = await callerOf(req);
      const user = requireUser(p);
      if (p.sessionId) auth.revokeSession(user.id, p.sessionId);
      // As Strapi: the refresh cookie is cleared whether or not the request carried it.
      setCookie(req, '', 0);
      return sendJson(req.event, 200, { ok: true });
    },
    async sessions(req) {
      const p = await callerOf(req);
      const user = requireUser(p);
      return sendJson(req.event, 200, { data: auth.sessionsOf(user.id, p.sessionId) });
    },
    async revokeSession(req) {
      const user = requireUser(await callerOf(req));
      let id: string;
      try {
        id = decodeURIComponent(req.params.id);
      } catch {
        throw notFound('Session not found');
      }
      if (!auth.revokeSession(user.id, id)) throw notFound('Session not found');
      return sendJson(req.event, 200, { ok: true });
    },
    async me(req) {
      const user = requireUser(await callerOf(req));
      return sendJson(req.event, 200, usersQuery(req).shaper(query(req))(user));
    },
    count: (req) => sendJson(req.event, 200, usersQuery(req).select(auth.listUsers(), query(req), 'count').length),
    async create(req) {
      const input = userInput(req, bodyOf(req), true);
      const user = (await auth.saveUser(undefined, { ...input, role: input.role }))!;
      return sendJson(req.event, 201, usersQuery(req).shaper({ populate: 'role' })(user));
    },
    find(req) {
      const q = query(req);
      const uq = usersQuery(req);
      return sendJson(req.event, 200, uq.select(auth.listUsers(), q, 'find').map(uq.shaper(q)));
    },
    async update(req) {
      const id = userId(req);
      if (!auth.userById(id)) throw notFound('User not found');
      const user = await auth.saveUser(id, userInput(req, bodyOf(req), false));
      if (!user) throw notFound('User not found');
      return sendJson(req.event, 200, usersQuery(req).shaper({ populate: 'role' })(user));
    },
    destroy(req) {
      const id = userId(req);
      const gone = Number.isNaN(id) ? undefined : auth.deleteUserById(id);
      // Strapi answers the deleted user, or an empty 204 when there was none.
      return gone ? sendJson(req.event, 200, sanitizeUser(gone)) : sendEmpty(req.event, 204);
    },
    findOne(req) {
      const shape = usersQuery(req).shaper(query(req));
      const id = userId(req);
      const user = Number.isNaN(id) ? undefined : auth.userById(id);
      // Strapi answers an unknown user with an empty 204.
      return user ? sendJson(req.event, 200, shape(user)) : sendEmpty(req.event, 204);
    },
  };
}
