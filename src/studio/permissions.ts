import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';

/** Where the Studio reads what its user may do (as written). */
export const PERMISSIONS_PATH = '/_folio/studio/permissions';

const DOCUMENT_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];
const OTHER_ACTIONS = [
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.destroy',
  'plugin::i18n.locales.listLocales',
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
];

/** The actions above that write: a read-only server refuses them whatever the role. */
const WRITES = /\.(create|update|delete|upload|destroy)$/;

/**
 * `GET /_folio/studio/permissions`: the actions the caller may take on the project's content-types and media,
 * as permissions.json names them (`{ data: ["api::article.article.find", …], meta: { readOnly: false, role:
 * "editor" } }`), so the Studio shows only what the role allows, and can say which `folio permissions grant` line
 * gives the role what it lacks (`owner: true` for the project's owner, who lacks nothing). On a read-only server no
 * write action is listed and `meta.readOnly` is true. It says nothing the caller could not learn by trying (or from
 * `/api/users/me`); the API still checks every request.
 */
export const permissionsHandlers: Record<'permissions', RouteHandler> = {
  async permissions({ event, project, access, principal, readOnly = false }) {
    const caller = await principal();
    const candidates = [
      ...[...project.schemas.contentTypes.keys()].flatMap((uid) => DOCUMENT_ACTIONS.map((a) => `${uid}.${a}`)),
      ...OTHER_ACTIONS,
    ];
    const data = candidates.filter((a) => access.can(caller, a) && !(readOnly && WRITES.test(a)));
    const { role = null, owner = false } = caller as { role?: string; owner?: boolean };
    return sendJson(event, 200, { data, meta: { readOnly, role, ...(owner ? { owner } : {}) } });
  },
};
