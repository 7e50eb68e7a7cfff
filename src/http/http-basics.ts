import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { H3Event } from 'h3';
import type { CorsConfig } from '../config.js';
import { JsonBytes } from '../http-kit/respond.js';

const COMPRESS_OVER = 1024;
/** Larger answers are compressed on the thread pool: a 32 MB answer takes half a second to compress. */
const COMPRESS_OFF_THREAD_OVER = 256 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * CORS the way Strapi's defaults do it: the request's Origin is echoed (never a literal `*`) when
 * allowed; `Vary: Origin` always. Credentials are allowed only to origins `server.cors.origin` names itself:
 * through `'*'` any page may read the API with an `Authorization` header, none with the session cookie.
 * Returns true when the request was a preflight.
 */
export function applyCors(event: H3Event, cors: CorsConfig): boolean {
  const req = event.node.req;
  const res = event.node.res;
  res.setHeader('vary', 'Origin');
  const origin = req.headers.origin;
  const listed = typeof origin === 'string' && cors.origin.includes(origin.toLowerCase());
  const allowed = typeof origin === 'string' && (listed || cors.origin.includes('*'));
  if (allowed) {
    res.setHeader('access-control-allow-origin', origin);
    if (cors.credentials && listed) res.setHeader('access-control-allow-credentials', 'true');
  }
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  if (preflight && allowed) {
    res.setHeader('access-control-allow-methods', 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
    res.setHeader(
      'access-control-allow-headers',
      String(req.headers['access-control-request-headers'] ?? 'Content-Type,Authorization,Origin,Accept'),
    );
    res.setHeader('access-control-max-age', String(cors.maxAge));
  }
  return preflight;
}

export const weakEtag = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * Last step for every answer: an ETag and `304 Not Modified` for successful GETs, and gzip or brotli
 * for JSON bodies over 1 KB when the client accepts it. A JSON answer given as bytes (JsonBytes) is sent as
 * those bytes.
 */
export function finishResponse(event: H3Event, given: unknown): unknown {
  let answer: string | Buffer;
  if (typeof given === 'string') answer = given;
  else if (given instanceof JsonBytes) answer = given.bytes;
  else return given;
  const req = event.node.req;
  const res = event.node.res;
  const method = req.method!;
  if ((method === 'GET' || method === 'HEAD') && res.statusCode === 200) {
    // A HEAD answer has no body: its route sets the ETag of the GET body it stands for.
    const set = res.getHeader('etag');
    const etag = set === undefined ? weakEtag(answer) : String(set);
    if (set === undefined) res.setHeader('etag', etag);
    const inm = req.headers['if-none-match'];
    if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === etag)) {
      res.statusCode = 304;
      res.removeHeader('content-type');
      return null;
    }
  }
  if (answer.length > COMPRESS_OVER && String(res.getHeader('content-type') ?? '').includes('json')) {
    // Such an answer depends on Accept-Encoding, also when this client sent none: caches must know it.
    res.setHeader('vary', 'Origin, Accept-Encoding');
    const accept = String(req.headers['accept-encoding'] ?? '');
    const offThread = answer.length > COMPRESS_OFF_THREAD_OVER;
    if (/\bbr\b/.test(accept)) {
      res.setHeader('content-encoding', 'br');
      const options = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
      return offThread ? brotliAsync(answer, options) : brotliCompressSync(answer, options);
    }
    if (/\bgzip\b/.test(accept)) {
      res.setHeader('content-encoding', 'gzip');
      return offThread ? gzipAsync(answer, { level: 6 }) : gzipSync(answer, { level: 6 });
    }
  }
  return answer;
}
