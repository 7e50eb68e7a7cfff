import type { RouteRequest } from '../http-kit/route.js';
import type { AuthConfig } from './config.js';

/** Strapi's name for the refresh token cookie of httpOnly mode. */
export const REFRESH_COOKIE = 'strapi_up_refresh';

/** Whether the refresh token travels in the cookie: `users.httpOnly`, or the client asks with Strapi's header. */
export const cookieMode = (config: AuthConfig, req: RouteRequest) =>
  config.httpOnly || req.event.node.req.headers['x-strapi-refresh-cookie'] === 'httpOnly';

export const setRefreshCookie = (req: RouteRequest, value: string, maxAge: number) => {
  const secure = (req.event.node.req.socket as { encrypted?: boolean }).encrypted ? '; Secure' : '';
  // A cleared cookie also carries Strapi's 1970 expiry, for clients that read Expires rather than Max-Age.
  const expires = maxAge === 0 ? `; Expires=${new Date(0).toUTCString()}` : '';
  req.event.node.res.setHeader(
    'set-cookie',
    `${REFRESH_COOKIE}=${value}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${expires}${secure}`,
  );
};

/** The refresh token of the request's cookie, if it has one. */
export const refreshCookieOf = (req: RouteRequest): string | undefined =>
  new RegExp(`(?:^|;\\s*)${REFRESH_COOKIE}=([^;]+)`).exec(String(req.event.node.req.headers.cookie ?? ''))?.[1];
