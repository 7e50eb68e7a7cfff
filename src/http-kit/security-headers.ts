import type { ServerResponse } from 'node:http';

/**
 * The policy of every answer that sets none of its own (the JSON API, `/documentation`, errors): Strapi's
 * (helmet's) policy, without its marketplace image host. Pages run only their own scripts, post forms only here,
 * and are framed only by this origin. Folio Studio and stored files set stricter ones.
 */
const CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self' https:",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
].join('; ');

const HEADERS: Array<[string, string]> = [
  ['content-security-policy', CSP],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'SAMEORIGIN'],
  ['x-permitted-cross-domain-policies', 'none'],
];

/**
 * Strapi's security headers (`strapi::security`), on every answer Folio sends; routes may set stricter ones after.
 * HSTS only over HTTPS, where a browser takes it into account.
 */
export function setSecurityHeaders(res: ServerResponse, https: boolean): void {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  if (https) res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
