import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { FolioError, forbidden, notFound } from '../errors.js';
import type { AuthService } from '../auth/service.js';
import { randomKey } from '../auth/crypto.js';
import type { UserRecord } from '../auth/state.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';
import { requestOrigin, type ClientSettings } from '../http-kit/client.js';
import { signInCodes, SIGN_IN_TTL_MS } from './sign-in-link.js';

/** Where the sign-in page asks whether an owner link can be had, and asks for a new one (as written). */
export const OWNER_LINK_PATH = '/_folio/studio/owner-link';

/** The most owner links that may wait to be used at once: the terminal is not a place to flood. */
const MAX_LIVE = 3;

/** Whether a server bound to `address` answers only this machine (127.0.0.0/8, ::1, or those as IPv6-mapped). */
export function isLoopback(address: AddressInfo | string | null): boolean {
  const ip = typeof address === 'object' && address ? address.address : String(address ?? '');
  return /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(ip);
}

/**
 * The project's owner account, made now if there is none (or it was deleted): a user named `owner` (or
 * `owner-2`… when taken) whose password is random and never shown, so it cannot sign in with one.
 */
export async function ensureOwner(auth: AuthService): Promise<UserRecord> {
  const id = auth.owner.userId();
  const existing = id === undefined ? undefined : auth.userById(id);
  if (existing) return existing;
  const taken = new Set(auth.listUsers().flatMap((u) => [u.username, u.email]));
  let n = 1;
  const name = () => (n === 1 ? 'owner' : `owner-${n}`);
  while (taken.has(name()) || taken.has(`${name()}@folio.localhost`)) n++;
  const user = await auth.createUser({
    username: name(),
    email: `${name()}@folio.localhost`,
    password: randomKey(32),
  });
  auth.owner.set(user.id);
  return user;
}

/**
 * The one-click sign-in of `folio serve` on the user's own machine: a one-time link for the owner, printed in the
 * server's terminal and nowhere else (the code travels in the address's fragment, which browsers never send).
 */
export class OwnerLinks {
  constructor(
    private auth: AuthService,
    private root: string,
    private write: (text: string) => void,
  ) {}

  /** The lines of a new link (`why` says what asked for it); the owner is made on first use. */
  async lines(base: string, why = 'Sign in to Folio Studio as the project’s owner'): Promise<string> {
    const owner = await ensureOwner(this.auth);
    const code = signInCodes(this.root).issue(owner.id);
    const minutes = SIGN_IN_TTL_MS / 60000;
    return `  ${why} (one click, once, within ${minutes} minutes):\n  ${base}/admin/#sign-in=${code}\n`;
  }

  /** Prints a link asked for from the sign-in page, unless a few wait to be used already. */
  async reprint(base: string): Promise<boolean> {
    const id = this.auth.owner.userId();
    if (id !== undefined && signInCodes(this.root).live(id) >= MAX_LIVE) return false;
    this.write(await this.lines(base, 'A new Folio Studio sign-in link, asked for from its sign-in page'));
    return true;
  }
}

/**
 * The command that started this server, as the user typed it, for the sign-in page to name (it prints the links):
 * `npm start` (or `npm run <script>`) when npm ran a script that serves, `npx folio serve`, else `folio serve`.
 * Never its arguments, which may hold a remote's address with credentials.
 */
export function startedAs(env: NodeJS.ProcessEnv = process.env): string {
  const script = env.npm_lifecycle_event;
  if (!script || !/^[\w:.-]{1,64}$/.test(script) || !/\bserve\b/.test(env.npm_lifecycle_script ?? ''))
    return 'folio serve';
  if (env.npm_command === 'exec') return 'npx folio serve';
  return script === 'start' ? 'npm start' : `npm run ${script}`;
}

/** The owner links of each project served by this process, for the routes below. */
const byProject = new Map<string, { links: OwnerLinks; base: string; command: string }>();

/** Offers owner links for the project at `root` (a server that takes owner sessions); `base` is its address. */
export function offerOwnerLinks(root: string, links: OwnerLinks, base: string, command = startedAs()) {
  byProject.set(root, { links, base, command });
}

/** Whether a proxy passed the request on (headers no browser sends by itself). */
const forwarded = (req: IncomingMessage) =>
  ['x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'forwarded'].some((h) => req.headers[h] !== undefined);

/**
 * Whether a request comes from a page of this server's own origin, as the browser says (`Sec-Fetch-Site`, else
 * `Origin`); one with neither is not a page's (curl on this machine).
 */
function fromOwnPage(req: IncomingMessage, settings: Pick<ClientSettings, 'trustProxy'>): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = req.headers.origin;
  if (typeof origin === 'string') return origin.toLowerCase() === requestOrigin(req, settings);
  return true;
}

/**
 * `GET /_folio/studio/owner-link`: `{ data: { available, command } }`, whether this server prints owner links, and
 * the command that started it, which prints them (the sign-in page then says how to get one). `POST`: prints a new
 * one in the server's terminal and answers 202 without it: a page that asks learns nothing it could use. Not
 * offered, or asked through a proxy: 404; asked by a page of another site: 403.
 */
export const ownerLinkHandlers: Record<'ownerLinkState' | 'ownerLinkPrint', RouteHandler> = {
  ownerLinkState({ event, project }) {
    const offered = forwarded(event.node.req) ? undefined : byProject.get(project.root);
    return sendJson(event, 200, {
      data: offered ? { available: true, command: offered.command } : { available: false },
    });
  },
  async ownerLinkPrint({ event, project }) {
    const offered = byProject.get(project.root);
    // A request a proxy passed on comes from anywhere: for it, this server offers no links.
    if (!offered || forwarded(event.node.req)) throw notFound();
    // Only the Studio's own sign-in page asks: another site's page may not fill the terminal with links.
    if (!fromOwnPage(event.node.req, project.config.server)) throw forbidden();
    if (!(await offered.links.reprint(offered.base)))
      throw new FolioError(429, 'RateLimitError', 'Links printed in the terminal wait to be used: open one', {});
    return sendJson(event, 202, { data: { printed: true } });
  },
};

/**
 * What `folio serve` does once it listens: on a loopback address and without `server.trustProxy` (or with
 * `--owner-link`), it takes owner sessions, and answers the lines of the owner's one-click link for its ready
 * banner; the sign-in page may then ask for another. `--no-owner-link` turns both off. With `--json` no link is
 * made or offered (its output is one JSON document, often kept in a log).
 */
export async function prepareOwnerLinks(opts: {
  auth: AuthService;
  root: string;
  address: AddressInfo | string | null;
  base: string;
  /** `--owner-link` (true), `--no-owner-link` (false), or neither. */
  flag: boolean | undefined;
  /** `server.trustProxy`: a proxy fronts the server, so every request may be the internet's. */
  trustProxy: boolean | number;
  json: boolean;
  write(text: string): void;
}): Promise<string[]> {
  // A server on a loopback address behind a proxy (the documented production setup) is not the user's own.
  const loopback = isLoopback(opts.address) && !opts.trustProxy;
  if (opts.flag === false || (!loopback && opts.flag !== true)) {
    if (opts.flag === undefined && opts.trustProxy && isLoopback(opts.address) && !opts.json)
      return ['  No owner sign-in link: server.trustProxy says a proxy passes the internet on to this server.\n'];
    return [];
  }
  opts.auth.ownerSignIn = true;
  if (opts.json) return [];
  const links = new OwnerLinks(opts.auth, opts.root, opts.write);
  let first: string;
  try {
    first = await links.lines(opts.base);
  } catch (err) {
    return [`  No owner sign-in link: ${(err as Error).message}\n`];
  }
  offerOwnerLinks(opts.root, links, opts.base);
  if (loopback) return [first];
  return [
    first,
    '  This server listens beyond this machine (--owner-link): whoever opens the link first gets every permission.\n',
  ];
}
