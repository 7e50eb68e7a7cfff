import { FolioError, forbidden, notFound, validationError } from '../errors.js';
import { actorOf } from '../http-kit/actor.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import { DocumentHistory, fieldChanges, localesStillThere, publicBody, type HistoryEntry } from './history.js';
import type { Follower } from './pull.js';

/** The least time between two pulls asked over HTTP: a push hook fired many times starts few fetches. */
const PULL_EVERY_MS = 5000;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The action that lets a caller read users' e-mail addresses (`GET /api/users`): commit authors' too. */
const READ_EMAILS = 'plugin::users-permissions.user.find';

/** The type and document a history route names, the caller allowed to `find` it (and to `also`). */
async function addressed(req: RouteRequest, also?: string) {
  const { type, documentId } = req.params;
  const ct = SEGMENT.test(type) ? req.project.schemas.route(type.toLowerCase()) : undefined;
  if (!ct || !SEGMENT.test(documentId)) throw notFound();
  const caller = await req.principal();
  if (!req.access.can(caller, `${ct.uid}.find`) || (also && !req.access.can(caller, `${ct.uid}.${also}`)))
    throw forbidden();
  return {
    ct,
    documentId,
    caller,
    /** Whether the caller may see what the document no longer has (those who could write it again may). */
    seesGone: req.access.can(caller, `${ct.uid}.create`),
    /** Whether the caller may see authors' e-mail addresses (those who may read users' may). */
    seesEmails: req.access.can(caller, READ_EMAILS),
  };
}

async function historyOf(req: RouteRequest): Promise<DocumentHistory> {
  const history = await DocumentHistory.open(req.project);
  if (!history) throw notFound('This project is not in a git repository: its documents have no history');
  return history;
}

/**
 * The history of a document as the caller may read it: a document that is gone now (deleted through the API,
 * or from the checkout) is, to a caller who could not write it again, as absent as it is from the API.
 */
async function historyFor(req: RouteRequest, at: Awaited<ReturnType<typeof addressed>>) {
  const history = await historyOf(req);
  const now = history.now(at.ct, at.documentId);
  if (now.gone && !at.seesGone) throw notFound();
  return { history, current: now.body };
}

/** An entry with its author's e-mail address only for a caller who may read users' addresses. */
const entryFor = (entry: HistoryEntry, seesEmails: boolean) =>
  seesEmails ? entry : { ...entry, author: { name: entry.author.name } };

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
    const at = await addressed(req);
    const query = new URLSearchParams(req.rawQuery);
    const limit = count(query, 'limit', 20, 100);
    const start = count(query, 'start', 0, 1_000_000);
    const { history } = await historyFor(req, at);
    const entries = await history.log(at.ct, at.documentId, { limit, start });
    const data = entries.map((e) => entryFor(e, at.seesEmails));
    return sendJson(req.event, 200, { data, meta: { limit, start } });
  },

  async one(req) {
    const at = await addressed(req);
    const { ct, documentId } = at;
    const { history, current } = await historyFor(req, at);
    const then = await history.at(ct, documentId, req.params.commit);
    if (!then) throw notFound('No such commit of this document');
    const schemas = req.project.schemas;
    const now = current && publicBody(schemas, ct, current);
    const document = at.seesGone
      ? publicBody(schemas, ct, then.body)
      : localesStillThere(ct, publicBody(schemas, ct, then.body), now);
    const changes = fieldChanges(ct, document, now);
    return sendJson(req.event, 200, { data: { ...entryFor(then.entry, at.seesEmails), document, changes }, meta: {} });
  },

  async restore(req) {
    const at = await addressed(req, 'update');
    const { ct, documentId } = at;
    const locale = new URLSearchParams(req.rawQuery).get('locale') ?? undefined;
    const actor = actorOf(at.caller);
    const { history } = await historyFor(req, at);
    const done = await history.restore(ct, documentId, req.params.commit, { locale, actor });
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
