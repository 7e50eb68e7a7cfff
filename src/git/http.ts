import { FolioError, forbidden, notFound, validationError } from '../errors.js';
import { actorOf } from '../http-kit/actor.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import type { ContentType } from '../schema/types.js';
import { DocumentHistory, fieldChanges, publicBody } from './history.js';
import type { Follower } from './pull.js';

/** The least time between two pulls asked over HTTP: a push hook fired many times starts few fetches. */
const PULL_EVERY_MS = 5000;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The type and document a history route names, the caller allowed to `find` it (and to `also`). */
async function addressed(req: RouteRequest, also?: string): Promise<{ ct: ContentType; documentId: string }> {
  const { type, documentId } = req.params;
  const ct = SEGMENT.test(type) ? req.project.schemas.route(type.toLowerCase()) : undefined;
  if (!ct || !SEGMENT.test(documentId)) throw notFound();
  const caller = await req.principal();
  if (!req.access.can(caller, `${ct.uid}.find`) || (also && !req.access.can(caller, `${ct.uid}.${also}`)))
    throw forbidden();
  return { ct, documentId };
}

async function historyOf(req: RouteRequest): Promise<DocumentHistory> {
  const history = await DocumentHistory.open(req.project);
  if (!history) throw notFound('This project is not in a git repository: its documents have no history');
  return history;
}

/** A whole number query parameter within bounds. */
function count(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) > max)
    throw validationError(`${name} must be a whole number from 0 to ${max}`, { key: name, source: 'query' });
  return Number(raw);
}

/**
 * `GET /_folio/history/:type/:documentId` (`?limit=` up to 100, `?start=`): the commits of the document's file,
 * newest first. `GET …/:commit`: the document as that commit held it and its fields that differ now.
 * `POST …/:commit/restore` (`?locale=`): the locale's draft (or its only version) gets that commit's values back.
 */
export const historyHandlers: Record<'list' | 'one' | 'restore', RouteHandler> = {
  async list(req) {
    const { ct, documentId } = await addressed(req);
    const query = new URLSearchParams(req.rawQuery);
    const limit = count(query, 'limit', 20, 100);
    const start = count(query, 'start', 0, 1_000_000);
    const entries = await (await historyOf(req)).log(ct, documentId, { limit, start });
    return sendJson(req.event, 200, { data: entries, meta: { limit, start } });
  },

  async one(req) {
    const { ct, documentId } = await addressed(req);
    const history = await historyOf(req);
    const then = await history.at(ct, documentId, req.params.commit);
    if (!then) throw notFound('No such commit of this document');
    const schemas = req.project.schemas;
    const document = publicBody(schemas, ct, then.body);
    const current = history.current(ct, documentId);
    const changes = fieldChanges(ct, document, current && publicBody(schemas, ct, current));
    return sendJson(req.event, 200, { data: { ...then.entry, document, changes }, meta: {} });
  },

  async restore(req) {
    const { ct, documentId } = await addressed(req, 'update');
    const locale = new URLSearchParams(req.rawQuery).get('locale') ?? undefined;
    const actor = actorOf(await req.principal());
    const done = await (await historyOf(req)).restore(ct, documentId, req.params.commit, { locale, actor });
    if (!done) throw notFound('No such commit of this document');
    if (!done.version) throw notFound();
    const version = done.version;
    return sendJson(req.event, 200, {
      data: { documentId, locale: version.locale, status: version.status, restored: done.entry.commit },
      meta: {},
    });
  },
};

/**
 * `POST /_folio/git/pull`: the replica fetches and fast-forwards now (for a push hook). At most one pull every
 * few seconds: a request meanwhile is a 429 with `Retry-After`; requests during a pull share it.
 */
export function pullHandlers(follower: () => Follower | undefined): Record<'pull', RouteHandler> {
  let last = 0;
  let running: ReturnType<Follower['pull']> | undefined;
  return {
    async pull(req) {
      const f = follower();
      if (!f) throw notFound();
      const wait = last + PULL_EVERY_MS - Date.now();
      if (!running && wait > 0) {
        req.event.node.res.setHeader('retry-after', String(Math.ceil(wait / 1000)));
        throw new FolioError(429, 'RateLimitError', 'Too many pulls, please try again later.', {});
      }
      if (!running) {
        last = Date.now();
        running = f.pull().finally(() => (running = undefined));
      }
      try {
        const r = await running;
        return sendJson(req.event, 200, { data: { commit: r.after ?? null, updated: r.updated }, meta: {} });
      } catch (err) {
        throw new FolioError(502, 'BadGatewayError', (err as Error).message, {});
      }
    },
  };
}
