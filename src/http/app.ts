import type { IncomingMessage } from 'node:http';
import { createApp, eventHandler, toNodeListener, type App, type H3Event, type NodeListener } from 'h3';
import { FolioError, notFound } from '../errors.js';
import type { Project } from '../project.js';
import { type AccessPolicy, OpenAccess, type Principal } from '../http-kit/access.js';
import { parseBody } from '../http-kit/body.js';
import { closeAfterAnswer } from '../http-kit/linger.js';
import { sendEmpty, sendError } from '../http-kit/respond.js';
import type { RouteModule, RouteRequest } from '../http-kit/route.js';
import { contentRoutes } from './content-api.js';
import { applyCors, finishResponse } from './http-basics.js';
import { moduleRouter, pathsLike, type ModuleRouter } from './router.js';
import { isHttps } from '../http-kit/client.js';
import { setSecurityHeaders } from '../http-kit/security-headers.js';
import { landingRoutes, localesRoutes } from './routes.js';
import { leanListener } from './lean-read.js';

/**
 * Sign-in, renewal and sign-out with a password or a Studio sign-in link: they write the server's own sessions
 * in `.folio/`, never content, so a read-only server takes them (as POSTs only: other methods on these paths
 * may reach a content-type's routes) and its Studio can be used to read. And a replica's pull: it brings the
 * checkout to its remote's commit, which no client writes.
 */
const SESSION_PATHS = new Set([
  '/api/auth/local',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/_folio/studio/sign-in',
  '/_folio/git/pull',
]);

export interface AppOptions {
  access?: AccessPolicy;
  /** The route modules before the content API, asked in turn (default: the locales). */
  routes?: RouteModule[];
  log?: (msg: string) => void;
  /** Refuse every write (replicas serving one commit). */
  readOnly?: boolean;
  /** Log each request with its status and timing. */
  verbose?: boolean;
  /** Cache serialised GET answers until the next change (default on). */
  cache?: boolean;
}

/**
 * The h3 app: CORS, the read-only check and the body, then the route modules' h3 routers asked in turn, the
 * content API last (see content-api.ts).
 */
export function createFolioApp(project: Project, opts: AppOptions = {}): App {
  return folioServer(project, opts).app;
}

/**
 * The node listener `folio serve` runs: the h3 app, but a GET or HEAD the content API alone may answer takes a
 * lean path through the same steps without h3's event and response machinery (see lean-read.ts).
 */
export function createFolioListener(project: Project, opts: AppOptions = {}): NodeListener {
  const { app, answerLean, leanTakes, log } = folioServer(project, opts);
  return leanListener(toNodeListener(app), answerLean, leanTakes, log);
}

function folioServer(project: Project, opts: AppOptions) {
  const access = opts.access ?? new OpenAccess();
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const routers = [...(opts.routes ?? defaultRoutes()), contentRoutes({ cache: opts.cache })].map(moduleRouter);
  const earlier = routers.slice(0, -1);
  // Whether a module before the content API may have a path: all of theirs at once.
  const earlierMayHave = pathsLike(earlier.flatMap((router) => router.paths));
  const contentOnly = routers.slice(-1);
  // Media changes alter populated answers: they end the cached generation too.
  const media = project.documents.media as { onChange?: (fn: () => void) => unknown };
  if (typeof media.onChange === 'function')
    media.onChange(() => {
      project.documents.index.generation++;
    });
  const app = createApp({
    // What fails after a route returned (a response stream that errors): a 500 in the envelope while nothing
    // was sent yet, else the connection is cut, since a half-sent answer cannot be turned into an error.
    onError(error, event) {
      const res = event.node.res;
      if (res.headersSent) {
        log(`response failed: ${(error.cause as Error | undefined)?.message ?? error.message}`);
        res.destroy();
        return;
      }
      const text = sendError(event, error.cause ?? error, log);
      res.end(text);
    },
  });

  /**
   * Every request's steps, up to the answer h3 sends (or the lean path writes). `lean`: only the content API may
   * have the path (see leanTakes), so the other modules are not asked.
   */
  async function answerRequest(event: H3Event, lean = false): Promise<unknown> {
    const req = event.node.req;
    const res = event.node.res;
    if (opts.verbose) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log(`${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
    }
    // The content API's reads never touch the security headers: on the lean path they are lines built once.
    setSecurityHeaders(res, isHttps(req, project.config.server), lean);
    if (applyCors(event, project.config.server.cors)) return sendEmpty(event, 204);
    let answer: unknown;
    // Node's server sets both on every request it parsed.
    const method = req.method!.toUpperCase();
    const url = req.url!;
    try {
      if (
        opts.readOnly &&
        !['GET', 'HEAD', 'OPTIONS'].includes(method) &&
        /^\/(api|_folio\/)/i.test(url) &&
        !(method === 'POST' && SESSION_PATHS.has(url.split('?')[0].toLowerCase()))
      ) {
        throw new FolioError(403, 'ForbiddenError', 'This server is read-only: writes are refused', {});
      }
      answer = await dispatch(event, method, url, lean ? contentOnly : routers);
    } catch (err) {
      answer = sendError(event, err, log);
    }
    // A body refused before its end (too large, malformed, aborted) is not read on: the connection ends
    // with the answer, so a client cannot keep it busy with more of the body.
    if (!req.complete && !res.headersSent) {
      res.setHeader('connection', 'close');
      closeAfterAnswer(req);
    }
    return finishResponse(event, answer);
  }
  app.use(eventHandler((event) => answerRequest(event)));

  /** A request only the content API may answer, without a body: the lean path takes it. */
  function leanTakes(req: IncomingMessage): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const url = req.url!;
    if (!url.startsWith('/api/')) return false;
    const q = url.indexOf('?');
    let lower = (q === -1 ? url : url.slice(0, q)).toLowerCase();
    // The path as dispatch routes it: one trailing slash dropped.
    if (lower.endsWith('/')) lower = lower.slice(0, -1);
    return !earlierMayHave(lower);
  }

  async function dispatch(event: H3Event, method: string, url: string, asked: ModuleRouter[]) {
    const req = event.node.req;
    const qIndex = url.indexOf('?');
    let path = qIndex === -1 ? url : url.slice(0, qIndex);
    const rawQuery = qIndex === -1 ? '' : url.slice(qIndex + 1);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const lower = path.toLowerCase();

    if (lower === '/_health') {
      event.node.res.setHeader('strapi', 'You are so French!');
      return sendEmpty(event, 204);
    }

    // The body is parsed before routing, as Strapi's global body middleware does: a malformed or
    // oversized body is answered even on routes that do not exist.
    let body: unknown;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH')
      body = await parseBody(req, project.config.server.bodyLimit);

    let principalPromise: Promise<Principal> | undefined;
    const principal = () => (principalPromise ??= access.authenticate(req));
    // h3's router drops a trailing slash: a path that still ends in one names no route.
    if (path.length > 1 && path.endsWith('/')) throw notFound();
    const readOnly = opts.readOnly === true;
    const request: RouteRequest = {
      event,
      method,
      path,
      rawQuery,
      body,
      project,
      access,
      principal,
      params: {},
      readOnly,
    };
    for (const route of asked) {
      const routed = route(request, lower);
      if (routed) return await routed.answer;
    }
    throw notFound();
  }

  return { app, answerLean: (event: H3Event) => answerRequest(event, true), leanTakes, log };
}

/** The route modules every server has before the content API; features add theirs (see compose.ts). */
export function defaultRoutes(): RouteModule[] {
  return [localesRoutes, landingRoutes];
}
