import { FolioError, notFound } from '../errors.js';
import type { HttpModule, ModuleRequest } from '../http/app.js';
import { methodNotAllowed, sendEmpty, sendJson } from '../http/respond.js';
import type { AuthPrincipal } from './access.js';
import { RateLimiter } from './rate-limit.js';
import { sanitizeUser, type AuthService } from './service.js';
import type { RateLimitConfig } from './config.js';

const forbidden = () => new FolioError(403, 'ForbiddenError', 'Forbidden', {});
const RATE_LIMITED = new Set(['/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/change-password', '/api/auth/send-email-confirmation']);
const REGISTER_FIELDS = new Set(['username', 'email', 'password']);
const REFRESH_COOKIE = 'strapi_up_refresh';

const bodyOf = (req: ModuleRequest): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body as Record<string, unknown> : {};

/**
 * The users-permissions routes (answers are unwrapped JSON, as Strapi's): register, login, me, users,
 * change-password and, in refresh mode, refresh, logout and sessions.
 */
export function usersModule(auth: AuthService, rate: RateLimitConfig): HttpModule {
  const limiter = new RateLimiter(rate.max, rate.interval);
  const refreshMode = auth.config.jwtManagement === 'refresh';

  const requireAction = async (req: ModuleRequest, action: string): Promise<AuthPrincipal> => {
    const p = (await req.principal()) as AuthPrincipal;
    if (!req.access.can(p, `plugin::users-permissions.${action}`)) throw forbidden();
    return p;
  };

  const credentials = async (req: ModuleRequest, user: Parameters<AuthService['issue']>[0]) => {
    const issued = await auth.issue(user, String(req.event.node.req.headers['user-agent'] ?? '') || null);
    const cookieMode = auth.config.httpOnly || req.event.node.req.headers['x-strapi-refresh-cookie'] === 'httpOnly';
    if (issued.refreshToken && cookieMode) {
      req.event.node.res.setHeader('set-cookie', `${REFRESH_COOKIE}=${issued.refreshToken}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=${auth.config.refreshTtlDays * 86400}`);
      return { jwt: issued.jwt, user: sanitizeUser(user) };
    }
    return issued.refreshToken ? { jwt: issued.jwt, refreshToken: issued.refreshToken, user: sanitizeUser(user) } : { jwt: issued.jwt, user: sanitizeUser(user) };
  };

  return {
    async handle(req) {
      const { event, method } = req;
      const path = req.path.toLowerCase();
      if (!path.startsWith('/api/auth/') && path !== '/api/users' && !path.startsWith('/api/users/')) return undefined;

      if (RATE_LIMITED.has(path) && rate.enabled && method === 'POST') {
        const ip = event.node.req.socket.remoteAddress ?? '';
        const email = typeof bodyOf(req).email === 'string' ? String(bodyOf(req).email).toLowerCase() : '';
        const r = limiter.hit(`${path}|${ip}|${email}`);
        for (const [k, v] of Object.entries(r.headers)) event.node.res.setHeader(k, v);
        if (r.limited) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.', {});
      }

      const post = (route: string) => path === route && (method === 'POST' || (() => { throw new MethodNotAllowedSignal(['POST']); })());
      try {
        if (post('/api/auth/local/register')) {
          await requireAction(req, 'auth.register');
          const body = bodyOf(req);
          const extra = Object.keys(body).filter((k) => !REGISTER_FIELDS.has(k));
          if (extra.length) throw new FolioError(400, 'ValidationError', `Invalid parameters: ${extra.join(', ')}`, {});
          const user = await auth.createUser({ username: String(body.username ?? ''), email: String(body.email ?? ''), password: body.password as string });
          return sendJson(event, 200, await credentials(req, user));
        }
        if (post('/api/auth/local')) {
          await requireAction(req, 'auth.callback');
          const body = bodyOf(req);
          const user = await auth.login(body.identifier, body.password);
          return sendJson(event, 200, await credentials(req, user));
        }
        if (post('/api/auth/change-password')) {
          const p = await requireAction(req, 'auth.changePassword');
          if (!p.user) throw forbidden();
          const user = await auth.changePassword(p.user, bodyOf(req));
          return sendJson(event, 200, await credentials(req, user));
        }
        if (path === '/api/auth/refresh' || path === '/api/auth/logout' || path.startsWith('/api/auth/sessions')) {
          if (!refreshMode) throw notFound();
          if (post('/api/auth/refresh')) {
            await requireAction(req, 'auth.refresh');
            const cookie = /(?:^|;\s*)strapi_up_refresh=([^;]+)/.exec(String(event.node.req.headers.cookie ?? ''))?.[1];
            const out = await auth.refresh(bodyOf(req).refreshToken ?? cookie);
            return sendJson(event, 200, out);
          }
          if (post('/api/auth/logout')) {
            const p = await requireAction(req, 'auth.logout');
            if (p.user && p.sessionId) auth.revokeSession(p.user.id, p.sessionId);
            return sendJson(event, 200, { ok: true });
          }
          if (path === '/api/auth/sessions') {
            if (method !== 'GET') return methodNotAllowed(event, ['GET']);
            const p = await requireAction(req, 'auth.getSessions');
            if (!p.user) throw forbidden();
            return sendJson(event, 200, { sessions: auth.sessionsOf(p.user.id).map((s) => ({ ...s, current: s.id === p.sessionId })) });
          }
          const m = /^\/api\/auth\/sessions\/([^/]+)$/.exec(req.path);
          if (m) {
            if (method !== 'DELETE') return methodNotAllowed(event, ['DELETE']);
            const p = await requireAction(req, 'auth.revokeSession');
            if (!p.user) throw forbidden();
            if (!auth.revokeSession(p.user.id, decodeURIComponent(m[1]))) throw notFound('Session not found');
            return sendJson(event, 200, { ok: true });
          }
          throw notFound();
        }
        if (path === '/api/users/me') {
          if (method !== 'GET') return methodNotAllowed(event, ['GET']);
          const p = await requireAction(req, 'user.me');
          if (!p.user) throw forbidden();
          return sendJson(event, 200, sanitizeUser(p.user));
        }
        if (path === '/api/users/count') {
          if (method !== 'GET') return methodNotAllowed(event, ['GET']);
          await requireAction(req, 'user.count');
          return sendJson(event, 200, auth.listUsers().length);
        }
        if (path === '/api/users') {
          if (method !== 'GET') return methodNotAllowed(event, ['GET']);
          await requireAction(req, 'user.find');
          return sendJson(event, 200, auth.listUsers().map(sanitizeUser));
        }
        const one = /^\/api\/users\/([^/]+)$/.exec(path);
        if (one) {
          if (method !== 'GET') return methodNotAllowed(event, ['GET']);
          await requireAction(req, 'user.findOne');
          const user = /^\d+$/.test(one[1]) ? auth.userById(Number(one[1])) : undefined;
          return user ? sendJson(event, 200, sanitizeUser(user)) : sendEmpty(event, 204);
        }
        return undefined;
      } catch (err) {
        if (err instanceof MethodNotAllowedSignal) return methodNotAllowed(event, err.allow);
        throw err;
      }
    },
  };
}

class MethodNotAllowedSignal { constructor(readonly allow: string[]) {} }
