import { applicationError, forbidden, notFound } from '../errors.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';
import { actorOf } from '../http-kit/actor.js';

/** Folio's own publication routes (as written): Strapi's REST API has no unpublish and no discard. */
export const PUBLICATION_PREFIX = '/_folio/content/';

const ACTIONS = { unpublish: 'unpublish', 'discard-draft': 'discardDraft' } as const;

/**
 * `POST /_folio/content/:pluralName/:documentId/unpublish` (or `/:singularName/unpublish` for a single type) and
 * `…/discard-draft`, with `?locale=` on localized types: the document service's unpublish and discard-draft,
 * which `folio docs` has too, for clients such as Folio Studio. They need the type's `update` permission, as a
 * REST publish (PUT) does, and answer `{ data: { documentId, locale, status }, meta: {} }`.
 */
export const publicationHandlers: Record<'publication', RouteHandler> = {
  async publication({ path, event, rawQuery, project, access, principal }) {
    const parts = path.slice(PUBLICATION_PREFIX.length).split('/');
    const name = parts.pop() as keyof typeof ACTIONS;
    const [route, documentId, ...more] = parts;
    const ct = route ? project.schemas.route(route.toLowerCase()) : undefined;
    if (!ct || !Object.hasOwn(ACTIONS, name) || more.length) throw notFound();
    if ((ct.kind === 'singleType') !== (documentId === undefined)) throw notFound();
    const caller = await principal();
    if (!access.can(caller, `${ct.uid}.update`)) throw forbidden();
    const locale = new URLSearchParams(rawQuery).get('locale') ?? undefined;
    const id = documentId ?? project.documents.singleDocument(ct)?.documentId;
    if (!id) throw notFound();
    const version = await project.documents[ACTIONS[name]](ct.uid, id, { locale, actor: actorOf(caller) });
    if (!version) throw applicationError(`Nothing to ${name.replace('-', ' ')}: there is no published version`);
    return sendJson(event, 200, {
      data: { documentId: id, locale: version.locale ?? null, status: name === 'unpublish' ? 'draft' : 'published' },
      meta: {},
    });
  },
};
