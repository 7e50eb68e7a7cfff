import { forbidden, notFound } from '../errors.js';
import { parseQueryString } from '../query/parse-qs.js';
import { Reader } from '../query/reader.js';
import type { ContentType } from '../schema/types.js';
import type { H3Event } from 'h3';
import { methodNotAllowed, sendEmpty, sendJson, sendJsonBytes } from '../http-kit/respond.js';
import { defineRoutes, type RouteModule, type RouteRequest } from '../http-kit/route.js';
import { ContentRoutes, type RouteInput, type RouteResult } from './content-routes.js';
import { actorOf } from '../http-kit/actor.js';
import { weakEtag } from './http-basics.js';
import { ResponseCache } from './response-cache.js';
import { toV4Body } from './v4.js';

type Action = 'find' | 'findOne' | 'findSingle' | 'create' | 'update' | 'upsertSingle' | 'delete' | 'deleteSingle';

/** The Strapi action each route needs on the content-type it names. */
const STRAPI_ACTION: Record<Action, string> = {
  find: 'find',
  findOne: 'findOne',
  findSingle: 'find',
  create: 'create',
  update: 'update',
  upsertSingle: 'update',
  delete: 'delete',
  deleteSingle: 'delete',
};

const COLLECTION_ALLOW = ['HEAD', 'GET', 'POST'];
const DOCUMENT_ALLOW = ['HEAD', 'GET', 'PUT', 'DELETE'];

/**
 * The content-type API: `/api/:pluralName[/:documentId]` and `/api/:singularName`, `/api` as written. The name is
 * looked up in the schema registry at request time (lower-cased), so a schema change is live without rebuilding a
 * router; which action a method is depends on the type's kind, so these routes answer their own 405s.
 */
export function contentRoutes(opts: { cache?: boolean } = {}): RouteModule {
  const cache = new ResponseCache();
  type Handler = (req: RouteRequest) => unknown;
  /** The type the path names and the action `method` is on it; a 405 (`allow`) when the kind has no such action. */
  const on =
    (pick: (ct: ContentType) => Action | undefined): Handler =>
    (req) => {
      const { ct, documentId } = target(req);
      const action = pick(ct);
      if (!action) return methodNotAllowed(req.event, documentId === undefined ? allowOf(ct) : DOCUMENT_ALLOW);
      return run(req, ct, documentId, action);
    };
  const collectionOnly = (action: Action) => on((ct) => (ct.kind === 'collectionType' ? action : undefined));
  const singleOnly = (action: Action) => on((ct) => (ct.kind === 'singleType' ? action : undefined));
  const handlers = {
    list: on((ct) => (ct.kind === 'collectionType' ? 'find' : 'findSingle')),
    create: collectionOnly('create'),
    upsertSingle: singleOnly('upsertSingle'),
    deleteSingle: singleOnly('deleteSingle'),
    findOne: on(() => 'findOne'),
    update: on(() => 'update'),
    delete: on(() => 'delete'),
    other: on(() => undefined),
  };

  async function run(req: RouteRequest, ct: ContentType, documentId: string | undefined, action: Action) {
    const { event, method, project, access } = req;
    const caller = await req.principal();
    if (!access.can(caller, actionName(ct.uid, STRAPI_ACTION[action]))) throw forbidden();

    const url = event.node.req.url ?? '/';
    const cacheable = (action === 'find' || action === 'findOne' || action === 'findSingle') && opts.cache !== false;
    const v4 = String(event.node.req.headers['strapi-response-format'] ?? '') === 'v4';
    const who = cacheable ? access.cacheKey?.(caller) : undefined;
    const cacheKey = who === undefined ? undefined : `${who}|${v4 ? 4 : 5}|${ct.uid}|${url}`;
    const index = project.documents.index;
    const generation = index.generation;
    if (cacheKey) {
      const hit = cache.get(index, generation, cacheKey);
      if (hit) {
        // The ETag is computed once per cached answer, not per request (finishResponse keeps it).
        if (hit.etag) event.node.res.setHeader('etag', hit.etag);
        return answer(event, hit.status, method === 'HEAD' ? '' : hit.body);
      }
    }
    const query = parseQueryString(req.rawQuery);
    const read = new Reader(project, (uid) => access.can(caller, actionName(uid, 'find')));
    const input: RouteInput = {
      event,
      ct,
      documentId,
      query,
      body: async () => req.body,
      read,
      actor: actorOf(caller),
    };
    // A v5 answer to a caller known by its permissions is assembled from documents shaped before.
    if (!v4 && who !== undefined) input.bytesFor = who;
    const routes = new ContentRoutes(project.documents);
    const result: RouteResult = await (routes[action] as (i: RouteInput) => Promise<RouteResult> | RouteResult).call(
      routes,
      input,
    );
    if (result.status === 204) return sendEmpty(event, 204);
    const body =
      result.bytes?.bytes ??
      JSON.stringify(v4 ? toV4Body(project.schemas, ct, result.body as { data: unknown; meta: unknown }) : result.body);
    // Only successful reads carry an ETag (see finishResponse). HEAD: the same status and headers as GET,
    // no body (h3 would turn a null answer into a 204). An answer assembled from documents' bytes has the
    // digest of its parts, so its whole body is not hashed.
    const tagged = result.status === 200 && (method === 'GET' || method === 'HEAD');
    const etag = !tagged ? undefined : result.bytes ? `W/"${result.bytes.digest}"` : weakEtag(body as string);
    if (cacheKey) cache.set(index, generation, cacheKey, { status: result.status, body, etag });
    if (etag) event.node.res.setHeader('etag', etag);
    return answer(event, result.status, method === 'HEAD' ? '' : body);
  }

  return defineRoutes({
    routes: [
      { method: 'GET', path: '/api/:name', handler: 'list', exactCase: true },
      { method: 'POST', path: '/api/:name', handler: 'create', exactCase: true },
      { method: 'PUT', path: '/api/:name', handler: 'upsertSingle', exactCase: true },
      { method: 'DELETE', path: '/api/:name', handler: 'deleteSingle', exactCase: true },
      { method: '*', path: '/api/:name', handler: 'other', exactCase: true },
      { method: 'GET', path: '/api/:name/:documentId', handler: 'findOne', exactCase: true },
      { method: 'PUT', path: '/api/:name/:documentId', handler: 'update', exactCase: true },
      { method: 'DELETE', path: '/api/:name/:documentId', handler: 'delete', exactCase: true },
      { method: '*', path: '/api/:name/:documentId', handler: 'other', exactCase: true },
    ],
    load: async () => handlers,
  });
}

/**
 * `uid.action`, built once: the permission a request needs is looked up in the caller's grants by a string V8 has
 * hashed before, rather than one joined and hashed on every request.
 */
const actionNames = new Map<string, Map<string, string>>();
function actionName(uid: string, action: string): string {
  let names = actionNames.get(uid);
  if (!names) actionNames.set(uid, (names = new Map()));
  let name = names.get(action);
  if (name === undefined) names.set(action, (name = `${uid}.${action}`));
  return name;
}

/** A JSON answer as text or as its bytes. */
const answer = (event: H3Event, status: number, body: string | Buffer) =>
  typeof body === 'string' ? sendJson(event, status, undefined, body) : sendJsonBytes(event, status, body);

const allowOf = (ct: ContentType) => (ct.kind === 'collectionType' ? COLLECTION_ALLOW : DOCUMENT_ALLOW);

/** The content-type and documentId the path names: a 404 for an unknown type, or a documentId on a single type. */
function target(req: RouteRequest): { ct: ContentType; documentId?: string } {
  const name = decodeSegment(req.params.name);
  const ct = name === undefined ? undefined : req.project.schemas.route(name.toLowerCase());
  if (!ct) throw notFound();
  if (req.params.documentId === undefined) return { ct };
  const documentId = decodeSegment(req.params.documentId);
  if (ct.kind === 'singleType' || documentId === undefined) throw notFound();
  return { ct, documentId };
}

/** A path segment, URL-decoded; undefined when it is malformed or could name a path (`..`, `/`). */
function decodeSegment(s: string): string | undefined {
  try {
    // Without a `%`, there is nothing to decode (the name of nearly every request).
    const d = s.includes('%') ? decodeURIComponent(s) : s;
    return /^[A-Za-z0-9_-]+$/.test(d) ? d : undefined;
  } catch {
    return undefined;
  }
}
