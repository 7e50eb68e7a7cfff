import { forbidden, notFound } from '../errors.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';

/** Where the Studio asks which private fields of a document hold a value (as written). */
export const PRIVATE_PREFIX = '/_folio/studio/private/';

/**
 * `GET /_folio/studio/private/:pluralName/:documentId` (or `/:singularName` for a single type), with `?locale=`
 * on localized types: for each private attribute of the type (`private: true`, and passwords), whether the
 * document's draft holds a value: `{ data: { secretNote: true }, meta: {} }`. The API never answers these
 * values, so without this the Studio could only show an empty box. It tells whether a value is set, never
 * the value, and only to a caller who may change the document (`update`), who could overwrite it anyway.
 */
export const privateFieldsHandlers: Record<'privateFields', RouteHandler> = {
  async privateFields({ path, event, rawQuery, project, access, principal }) {
    const [route, documentId, ...more] = path.slice(PRIVATE_PREFIX.length).split('/');
    const ct = route ? project.schemas.route(route.toLowerCase()) : undefined;
    if (!ct || more.length || (ct.kind === 'singleType') !== (documentId === undefined)) throw notFound();
    if (!access.can(await principal(), `${ct.uid}.update`)) throw forbidden();
    const locale = new URLSearchParams(rawQuery).get('locale') ?? undefined;
    const id = documentId ?? project.documents.singleDocument(ct)?.documentId;
    const version = id ? project.documents.findVersion(ct, id, 'draft', locale) : undefined;
    if (!version) throw notFound();
    const data: Record<string, boolean> = {};
    for (const [name, attr] of Object.entries(ct.attributes))
      if (attr.private || attr.type === 'password') {
        const value = version.data[name];
        data[name] = value !== null && value !== undefined && value !== '';
      }
    return sendJson(event, 200, { data, meta: {} });
  },
};
