import { notFound } from '../errors.js';
import type { ServedProject } from '../http-kit/served-project.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler } from '../http-kit/route.js';

/** A content-type as the index lists it: enough to find its routes. */
export interface TypeRoute {
  uid: string;
  kind: 'collectionType' | 'singleType';
  displayName: string;
  route: string;
}

/** The content routes the server answers, one per type, in the registry's order. */
export function typeRoutes(project: ServedProject): TypeRoute[] {
  return [...project.schemas.contentTypes.values()].map((ct) => ({
    uid: ct.uid,
    kind: ct.kind,
    displayName: ct.displayName,
    route: `/api/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`,
  }));
}

/**
 * `GET /` redirects to Folio Studio, as Strapi redirects to its admin; `GET /api` lists the content-types and their
 * routes as JSON (Strapi answers 404 there: it is only a way in). Every other unknown path keeps Strapi's 404.
 */
export const landingHandlers: Record<'home' | 'index' | 'notFound', RouteHandler> = {
  home: ({ event }) => {
    event.node.res.statusCode = 302;
    event.node.res.setHeader('location', '/admin');
    event.node.res.setHeader('content-type', 'text/plain; charset=utf-8');
    return 'Redirecting to /admin.';
  },
  index: ({ event, project }) =>
    sendJson(event, 200, {
      data: typeRoutes(project),
      meta: {
        studio: '/admin',
        documentation: '/documentation',
        openapi: '/api/openapi.json',
        locales: '/api/i18n/locales',
      },
    }),
  notFound: () => {
    throw notFound();
  },
};
