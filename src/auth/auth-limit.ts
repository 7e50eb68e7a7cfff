import { FolioError } from '../errors.js';
import { clientAddress } from '../http-kit/client.js';
import type { RouteRequest } from '../http-kit/route.js';
import type { RateLimitConfig } from './config.js';
import { EMAIL_MAX_LENGTH } from './email-address.js';
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
/** The body field naming the account a route acts on (Strapi keys by `email`; a sign-in names it `identifier`). */
const ACCOUNT_FIELD: Record<string, string> = { '/api/auth/local': 'identifier' };
/**
 * Past this many requests of one address to one route, in all accounts, the address is refused too: a counter per
 * account must not let one client try a password on every account of the site.
 */
const ADDRESS_FACTOR = 10;

/**
 * The limit of the auth routes, as a function that counts a request and throws 429 past it. As Strapi's limiter,
 * a counter per route, client address and account (the lower-cased e-mail or sign-in identifier of the body, the
 * signed-in user for change-password), so that one account's wrong passwords do not lock out the others behind
 * the same proxy; and per route and address, ten times higher. Authentication and the route's permission come
 * first (by the router), then the limit, then the controller. Failed and successful attempts both count.
 */
export function authLimit(rateLimit: () => RateLimitConfig) {
  // A new window of counts when folio.json changes the limit or its interval.
  let limiter: { rate: RateLimitConfig; perAccount: RateLimiter; perAddress: RateLimiter } | undefined;
  const limiters = (rate: RateLimitConfig) => {
    if (limiter?.rate.max !== rate.max || limiter.rate.interval !== rate.interval)
      limiter = {
        rate,
        perAccount: new RateLimiter(rate.max, rate.interval),
        perAddress: new RateLimiter(rate.max * ADDRESS_FACTOR, rate.interval),
      };
    return limiter;
  };
  return (req: RouteRequest, userId?: number) => {
    const path = req.path.toLowerCase();
    const rate = rateLimit();
    if (!RATE_LIMITED.has(path) || !rate.enabled) return;
    const ip = clientAddress(req.event.node.req, req.project.config.server);
    const { perAccount, perAddress } = limiters(rate);
    const address = perAddress.hit(`${path}|${ip}`);
    const named = bodyOf(req)[ACCOUNT_FIELD[path] ?? 'email'];
    // Longer than any e-mail: no account, and a key of bounded size.
    const account =
      userId !== undefined
        ? `user:${userId}`
        : typeof named === 'string' && named.length <= EMAIL_MAX_LENGTH
          ? named.trim().toLowerCase()
          : '';
    const r = address.limited ? address : perAccount.hit(`${path}|${ip}|${account}`);
    for (const [k, v] of Object.entries(r.headers)) req.event.node.res.setHeader(k, v);
    if (r.limited) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.', {});
  };
}
