import { createApp, eventHandler, type App, type H3Event } from 'h3';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FolioError, forbidden, notFound } from '../errors.js';
import type { Project } from '../project.js';
import { parseQueryString } from '../query/parse-qs.js';
import type { ReadContext } from '../query/context.js';
import { type AccessPolicy, OpenAccess, type Principal } from './access.js';
import { parseBody } from './body.js';
import { ContentRoutes, type RouteInput, type RouteResult } from './content-routes.js';
import { methodNotAllowed, sendEmpty, sendError, sendJson } from './respond.js';
import { applyCors, finishResponse, weakEtag } from './http-basics.js';
import { toV4Body } from './v4.js';
import { ResponseCache } from './response-cache.js';

/** What a route module sees of a request. */
export interface ModuleRequest {
  event: H3Event;
  method: string;
  /** Path without the query string or a trailing slash, as sent (case kept). */
  path: string;
  rawQuery: string;
  /** The parsed JSON or urlencoded body (undefined for other content types, whose stream is left unread). */
  body: unknown;
  project: Project;
  access: AccessPolicy;
  /** Authenticates the caller once per request. */
  principal(): Promise<Principal>;
}

/**
 * A group of routes outside the content-type API (locales, auth, upload, ...). `handle` answers the
 * request when it owns the path, or returns `undefined` to pass it on. Answers are what h3 sends:
 * use the helpers of respond.ts.
 */
export interface HttpModule {
  handle(req: ModuleRequest): Promise<unknown>;
}

export interface AppOptions {
  access?: AccessPolicy;
  modules?: HttpModule[];
  log?: (msg: string) => void;
  /** Refuse every write (replicas serving one commit). */
  readOnly?: boolean;
  /** Log each request with its status and timing. */
  verbose?: boolean;
  /** Cache serialised GET answers until the next change (default on). */
  cache?: boolean;
}

/**
 * The h3 app. Content routes are matched against the schema registry at request time, so a schema
 * change is live without rebuilding a router: `/api/:pluralName[/:documentId]` and `/api/:singularName`.
 */
export function createFolioApp(project: Project, opts: AppOptions = {}): App {
  const access = opts.access ?? new OpenAccess();
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const modules = opts.modules ?? defaultModules();
  const cache = new ResponseCache();
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

  app.use(
    eventHandler(async (event) => {
      const started = process.hrtime.bigint();
      const req = event.node.req;
      const res = event.node.res;
      if (opts.verbose) {
        res.once('finish', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          log(`${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`);
        });
      }
      if (applyCors(event, project.config.server.cors)) return sendEmpty(event, 204);
      let answer: unknown;
      try {
        if (
          opts.readOnly &&
          !['GET', 'HEAD', 'OPTIONS'].includes((req.method ?? 'GET').toUpperCase()) &&
          /^\/(api|_folio\/)/i.test(req.url ?? '')
        ) {
          throw new FolioError(403, 'ForbiddenError', 'This server is read-only: writes are refused', {});
        }
        answer = await dispatch(event);
      } catch (err) {
        answer = sendError(event, err, log);
      }
      // A body refused before its end (too large, malformed, aborted) is not read on: the connection ends
      // with the answer, so a client cannot keep it busy with more of the body.
      if (!req.complete && !res.headersSent) {
        res.setHeader('connection', 'close');
        req.on('error', () => undefined);
        req.resume();
      }
      return finishResponse(event, answer);
    }),
  );

  async function dispatch(event: H3Event) {
    const req = event.node.req;
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
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
    const moduleRequest: ModuleRequest = { event, method, path, rawQuery, body, project, access, principal };
    for (const mod of modules) {
      const answer = await mod.handle(moduleRequest);
      if (answer !== undefined) return answer;
    }

    const m = /^\/api\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (!m) throw notFound();
    const name = decodeSegment(m[1]);
    const ct = name === undefined ? undefined : project.schemas.route(name.toLowerCase());
    if (!ct) throw notFound();
    const documentId = m[2] === undefined ? undefined : decodeSegment(m[2]);
    if (m[2] !== undefined && (ct.kind === 'singleType' || documentId === undefined)) throw notFound();

    const collection = ct.kind === 'collectionType';
    let action: keyof ContentRoutes;
    let allow: string[];
    if (collection && documentId === undefined) {
      allow = ['HEAD', 'GET', 'POST'];
      action = method === 'GET' || method === 'HEAD' ? 'find' : method === 'POST' ? 'create' : ('' as never);
    } else if (collection) {
      allow = ['HEAD', 'GET', 'PUT', 'DELETE'];
      action =
        method === 'GET' || method === 'HEAD'
          ? 'findOne'
          : method === 'PUT'
            ? 'update'
            : method === 'DELETE'
              ? 'delete'
              : ('' as never);
    } else {
      allow = ['HEAD', 'GET', 'PUT', 'DELETE'];
      action =
        method === 'GET' || method === 'HEAD'
          ? 'findSingle'
          : method === 'PUT'
            ? 'upsertSingle'
            : method === 'DELETE'
              ? 'deleteSingle'
              : ('' as never);
    }
    if (!action) return methodNotAllowed(event, allow);

    const caller = await principal();
    const strapiAction = {
      find: 'find',
      findOne: 'findOne',
      findSingle: 'find',
      create: 'create',
      update: 'update',
      upsertSingle: 'update',
      delete: 'delete',
      deleteSingle: 'delete',
    }[action as string]!;
    if (!access.can(caller, `${ct.uid}.${strapiAction}`)) throw forbidden();

    const cacheable = (action === 'find' || action === 'findOne' || action === 'findSingle') && opts.cache !== false;
    const v4 = String(req.headers['strapi-response-format'] ?? '') === 'v4';
    const who = cacheable ? access.cacheKey?.(caller) : undefined;
    const cacheKey = who === undefined ? undefined : `${who}|${v4 ? 4 : 5}|${ct.uid}|${url}`;
    const index = project.documents.index;
    const generation = index.generation;
    if (cacheKey) {
      const hit = cache.get(index, generation, cacheKey);
      if (hit) {
        // The ETag is computed once per cached answer, not per request (finishResponse keeps it).
        if (hit.etag) event.node.res.setHeader('etag', hit.etag);
        return sendJson(event, hit.status, undefined, method === 'HEAD' ? '' : hit.body);
      }
    }
    const query = parseQueryString(rawQuery);
    const read: Omit<ReadContext, 'status'> = {
      schemas: project.schemas,
      index: project.documents.index,
      config: project.config,
      media: project.documents.media,
      canFind: (uid) => access.can(caller, `${uid}.find`),
    };
    const input: RouteInput = { event, ct, documentId, query, body: async () => body, read };
    const routes = new ContentRoutes(project.documents);
    const result: RouteResult = await (routes[action] as (i: RouteInput) => Promise<RouteResult> | RouteResult).call(
      routes,
      input,
    );
    if (result.status === 204) return sendEmpty(event, 204);
    const text = JSON.stringify(
      v4 ? toV4Body(project.schemas, ct, result.body as { data: unknown; meta: unknown }) : result.body,
    );
    // Only successful reads carry an ETag (see finishResponse). HEAD: the same status and headers as GET,
    // no body (h3 would turn a null answer into a 204).
    const etag = result.status === 200 && (method === 'GET' || method === 'HEAD') ? weakEtag(text) : undefined;
    if (cacheKey) cache.set(index, generation, cacheKey, { status: result.status, body: text, etag });
    if (etag) event.node.res.setHeader('etag', etag);
    return sendJson(event, result.status, undefined, method === 'HEAD' ? '' : text);
  }

  return app;
}

/** A path segment, URL-decoded; undefined when it is malformed or could name a path (`..`, `/`). */
function decodeSegment(s: string): string | undefined {
  try {
    const d = decodeURIComponent(s);
    return /^[A-Za-z0-9_-]+$/.test(d) ? d : undefined;
  } catch {
    return undefined;
  }
}

/** `GET /api/i18n/locales`: the configured locales as Strapi's locale records (a bare array). */
export const localesModule: HttpModule = {
  async handle({ event, method, path, project, access, principal }) {
    if (path.toLowerCase() !== '/api/i18n/locales') return undefined;
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET']);
    if (!access.can(await principal(), 'plugin::i18n.locales.listLocales')) throw forbidden();
    return sendJson(event, 200, localesList(project));
  },
};

/** The modules every server has; features add theirs here. */
export function defaultModules(): HttpModule[] {
  return [localesModule];
}

function localesList(project: Project) {
  let ts: string;
  try {
    ts = statSync(join(project.contentDir, 'folio.json')).mtime.toISOString();
  } catch {
    ts = new Date(0).toISOString();
  }
  return project.config.locales.map((l, i) => ({
    id: i + 1,
    documentId: stableId(`locale:${l.code}`),
    name: l.name,
    code: l.code,
    createdAt: ts,
    updatedAt: ts,
    publishedAt: ts,
    isDefault: l.code === project.config.defaultLocale,
  }));
}

/** A documentId-shaped id derived from a name, so records that are not stored keep a stable id. */
export function stableId(name: string): string {
  const digest = createHash('sha256').update(name).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = alphabet[digest[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[digest[i] % 36];
  return out;
}
