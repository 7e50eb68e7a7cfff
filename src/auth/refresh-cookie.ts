import { getCookie, type H3Event } from 'h3';
import { FolioError } from '../errors.js';
import { fromOwnOrListedOrigin, isHttps, type ClientSettings } from '../http-kit/client.js';
import type { RouteRequest } from '../http-kit/route.js';
import type { AuthConfig } from './config.js';

/** Strapi's name for the refresh token cookie of httpOnly mode. */
export const REFRESH_COOKIE = 'strapi_up_refresh';

/** Whether the refresh token travels in the cookie: `users.httpOnly`, or the client asks with Strapi's header. */
export const cookieMode = (config: AuthConfig, req: RouteRequest) =>
  config.httpOnly || req.event.node.req.headers['x-strapi-refresh-cookie'] === 'httpOnly';

/**
 * Sets (or with `maxAge` 0 clears) the refresh cookie: httpOnly, sent back only to `/api/auth` and only by pages of
 * this site (`SameSite=Strict`), `Secure` when the client came over HTTPS (directly or through a believed proxy).
 */
export function setRefreshCookie(event: H3Event, settings: ClientSettings, value: string, maxAge: number) {
  const secure = isHttps(event.node.req, settings) ? '; Secure' : '';
  // A cleared cookie also carries Strapi's 1970 expiry, for clients that read Expires rather than Max-Age.
  const expires = maxAge === 0 ? `; Expires=${new Date(0).toUTCString()}` : '';
  event.node.res.setHeader(
    'set-cookie',
    `${REFRESH_COOKIE}=${value}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${expires}${secure}`,
  );
}

/** The refresh token of the request's cookie, if it has one. */
export const refreshCookieOf = (req: RouteRequest): string | undefined =>
  getCookie(req.event, REFRESH_COOKIE) || undefined;

/**
 * Whether a cookie session may be used or opened by this request: pages of this server's origin and of origins
 * `server.cors` lists may, any other page may not (it could be a sibling site borrowing an editor's session).
 */
export const cookieSessionAllowed = (event: H3Event, settings: ClientSettings) =>
  fromOwnOrListedOrigin(event.node.req, settings);

/** The answer to a page of another origin presenting the session cookie. */
export const crossOriginCookie = () =>
  new FolioError(
    403,
    'ForbiddenError',
    'The session cookie is only taken from pages of this server, or of an origin listed in server.cors',
    {},
  );
