import { FolioError } from '../errors.js';
import type { RouteRequest } from '../http-kit/route.js';
import type { RateLimitConfig } from './config.js';
import { RateLimiter } from './rate-limit.js';
import { bodyOf } from './user-bodies.js';

/** The routes Strapi rate-limits (koa2-ratelimit), by path. */
const RATE_LIMITED = new Set([
  '/api/auth/local',
  '/api/auth/local/register',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/change-password',
  '/api/auth/send-email-confirmation',
]);
/**
 * Routes whose counter is also keyed by the lower-cased `body.email` (the account they target). The
 * others count per path and client address only, so that adding a made-up `email` to a login body
 * cannot buy a fresh counter.
 */
const EMAIL_KEYED = new Set(['/api/auth/forgot-password', '/api/auth/send-email-confirmation']);

/**
 * The limit of the auth routes, as a function that counts a request and throws 429 past it. As Strapi's route
 * chain: authentication and the route's permission first (by the router), then the rate limit, then the
 * controller. Failed and successful attempts both count.
 */
export function authLimit(rateLimit: () => RateLimitConfig) {
  // A new window of counts when folio.json changes the limit or its interval.
  let limiter: { rate: RateLimitConfig; counter: RateLimiter } | undefined;
  const rateLimiter = (rate: RateLimitConfig) => {
    if (limiter?.rate.max !== rate.max || limiter.rate.interval !== rate.interval)
      limiter = { rate, counter: new RateLimiter(rate.max, rate.interval) };
    return limiter.counter;
  };
  return (req: RouteRequest) => {
    const path = req.path.toLowerCase();
    const rate = rateLimit();
    if (!RATE_LIMITED.has(path) || !rate.enabled) return;
    const ip = req.event.node.req.socket.remoteAddress ?? '';
    const email =
      EMAIL_KEYED.has(path) && typeof bodyOf(req).email === 'string' ? String(bodyOf(req).email).toLowerCase() : '';
    const r = rateLimiter(rate).hit(`${path}|${ip}|${email}`);
    for (const [k, v] of Object.entries(r.headers)) req.event.node.res.setHeader(k, v);
    if (r.limited) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.', {});
  };
}
