import { forbidden, notFound } from '../errors.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';

/** Where the Studio asks what a document has before it reads it (as written). */
export const DOCUMENT_STATE_PREFIX = '/_folio/studio/document/';

/** One locale's versions of a document: when its draft and its published version were last changed. */
interface LocaleState {
  draft: string | null;
  published: string | null;
}

/**
 * `GET /_folio/studio/document/:pluralName/:documentId` (or `/:singularName` for a single type): what the editor
 * needs to know before reading a document, in one answer that is never a 404 for a missing one (which the browser
 * would log as an error): `{ data: { exists, locales: { en: { draft, published } }, private } }`, each version's
 * updatedAt or null, by locale (`""` on a type without locales). `private` tells, for each private attribute (and
 * password), whether the draft of `?locale=` (default: the default locale) holds a value, never the value: the API
 * never answers these, and without it the Studio could only show an empty box. It needs the type's read permission
 * (`findOne`, `find` for a single type), and `private` the `update` one (null otherwise), as the caller could
 * overwrite those values anyway.
 */
export const documentStateHandlers: Record<'documentState', RouteHandler> = {
  async documentState({ path, event, rawQuery, project, access, principal }) {
    const [route, documentId, ...more] = path.slice(DOCUMENT_STATE_PREFIX.length).split('/');
    const ct = route ? project.schemas.route(route.toLowerCase()) : undefined;
    const single = ct?.kind === 'singleType';
    if (!ct || more.length || single !== (documentId === undefined)) throw notFound();
    const caller = await principal();
    if (!access.can(caller, `${ct.uid}.${single ? 'find' : 'findOne'}`)) throw forbidden();
    const id = documentId ?? project.documents.singleDocument(ct)?.documentId;
    const codes = ct.localized ? project.config.locales.map((l) => l.code) : [undefined];
    const locales: Record<string, LocaleState> = {};
    for (const code of codes) {
      const draft = id ? project.documents.findVersion(ct, id, 'draft', code) : undefined;
      const published = ct.draftAndPublish && id ? project.documents.findVersion(ct, id, 'published', code) : draft;
      if (!draft && !published) continue;
      locales[code ?? ''] = { draft: draft?.updatedAt ?? null, published: published?.updatedAt ?? null };
    }
    let secrets: Record<string, boolean> | null = null;
    if (access.can(caller, `${ct.uid}.update`)) {
      secrets = {};
      const locale = new URLSearchParams(rawQuery).get('locale') ?? undefined;
      const draft = id ? project.documents.findVersion(ct, id, 'draft', locale) : undefined;
      for (const [name, attr] of Object.entries(ct.attributes))
        if (attr.private || attr.type === 'password') {
          const value = draft?.data[name];
          secrets[name] = value !== null && value !== undefined && value !== '';
        }
    }
    return sendJson(event, 200, { data: { exists: Object.keys(locales).length > 0, locales, private: secrets } });
  },
};
