import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

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
const HSTS: [string, string] = ['strict-transport-security', 'max-age=31536000; includeSubDomains'];

/**
 * Strapi's security headers (`strapi::security`), on every answer Folio sends; routes may set stricter ones after.
 * HSTS only over HTTPS, where a browser takes it into account. `asLines`: the answer's route never reads, replaces
 * or removes one of them, so a FolioResponse may write them as lines (see there).
 */
export function setSecurityHeaders(res: ServerResponse, https: boolean, asLines = false): void {
  if (asLines && linesWritten && res instanceof FolioResponse && res.getHeaderNames().length === 0) {
    res.presetHead(https ? HEAD_LINES_HTTPS : HEAD_LINES);
    return;
  }
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  if (https) res.setHeader(...HSTS);
}

/** The same headers as lines of an answer's head, in the same order, as `setSecurityHeaders` has node write them. */
const lines = (headers: Array<[string, string]>) => headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
const HEAD_LINES = lines(HEADERS);
const HEAD_LINES_HTTPS = lines([...HEADERS, HSTS]);

/** Node's step that writes an answer's head: the status line given, then each header set, then its own. */
type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;
const storeHeader = (ServerResponse.prototype as unknown as { _storeHeader: StoreHeader })._storeHeader;

/**
 * The server's responses (`folio serve`): one can carry header lines built once, written right after its status
 * line, rather than headers set one by one, each checked and stored by node on every answer. Those lines are not
 * among the headers `getHeader` sees, so only headers no route reads, replaces or removes are given so.
 */
export class FolioResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  private headLines = '';

  _storeHeader(firstLine: string, headers: unknown): void {
    storeHeader.call(this, firstLine + this.headLines, headers);
  }

  /** Header lines (each ending in CRLF, names and values valid) written first, before the headers set. */
  presetHead(lines: string): void {
    this.headLines = lines;
  }
}

/**
 * Whether this node writes a FolioResponse's lines: the step it overrides is internal to node:http. Checked once, on
 * a response of no connection; where it does not hold, the headers are set one by one, as on any other response.
 */
const linesWritten = (() => {
  try {
    const res = new FolioResponse(new IncomingMessage(new Socket()));
    res.presetHead('x-folio-check: 1\r\n');
    res.writeHead(200);
    return String((res as unknown as { _header?: unknown })._header).startsWith(
      'HTTP/1.1 200 OK\r\nx-folio-check: 1\r\n',
    );
  } catch {
    return false;
  }
})();
