import type { IncomingMessage } from 'node:http';
import type { FolioConfig } from '../config.js';

/** The settings that say who a request comes from: `server.trustProxy` and `server.cors`. */
export type ClientSettings = Pick<FolioConfig['server'], 'trustProxy' | 'cors'>;

/**
 * The value a believed proxy put in a forwarding header. Each proxy appends what it saw, so with `n` proxies in
 * front the outermost one's entry is the `n`th from the end; whatever comes before it, the client may have written.
 */
function forwarded(req: IncomingMessage, name: string, trust: boolean | number): string | undefined {
  // How many proxies are believed: `true` is the one in front (1), `false` none (0).
  const n = Number(trust);
  const raw = req.headers[name];
  if (!n || raw === undefined) return undefined;
  // Node joins repeated X-Forwarded-* headers with commas: a string, as one header would be.
  const list = String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list[Math.max(list.length - n, 0)];
}

/** The address of the client: the socket's peer, or what the believed proxy says it saw. */
export function clientAddress(req: IncomingMessage, settings: Pick<ClientSettings, 'trustProxy'>): string {
  return forwarded(req, 'x-forwarded-for', settings.trustProxy) ?? req.socket.remoteAddress ?? '';
}

/** Whether the client reached the server over HTTPS: the socket's TLS, or the believed proxy's word. */
export function isHttps(req: IncomingMessage, settings: Pick<ClientSettings, 'trustProxy'>): boolean {
  const proto = forwarded(req, 'x-forwarded-proto', settings.trustProxy);
  if (proto !== undefined) return proto.toLowerCase() === 'https';
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}

/** The origin the client addressed (`https://cms.example.com`), as its browser would write it. */
export function requestOrigin(req: IncomingMessage, settings: Pick<ClientSettings, 'trustProxy'>): string {
  const host = forwarded(req, 'x-forwarded-host', settings.trustProxy) ?? String(req.headers.host ?? 'localhost');
  return `${isHttps(req, settings) ? 'https' : 'http'}://${host}`.toLowerCase();
}

/** Whether `server.cors` names this origin itself (`'*'` allows an origin to read, it does not name it). */
export const listedOrigin = (origin: string, settings: Pick<ClientSettings, 'cors'>) =>
  settings.cors.origin.includes(origin.toLowerCase());

/**
 * Whether a request may use or receive a cookie session: it comes from a page of this server's own origin, or of
 * an origin `server.cors` lists. A browser says where a request comes from (`Sec-Fetch-Site`, `Origin`) and no
 * page can forge those headers; a request with neither is not a page's (curl, a server), and holds no browser's
 * cookie but one it was given.
 */
export function fromOwnOrListedOrigin(req: IncomingMessage, settings: ClientSettings): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && listedOrigin(origin, settings)) return true;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  if (origin !== undefined) return origin.toLowerCase() === requestOrigin(req, settings);
  return true;
}
