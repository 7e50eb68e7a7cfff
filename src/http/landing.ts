import { notFound } from '../errors.js';
import type { Project } from '../project.js';
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
export function typeRoutes(project: Project): TypeRoute[] {
  return [...project.schemas.contentTypes.values()].map((ct) => ({
    uid: ct.uid,
    kind: ct.kind,
    displayName: ct.displayName,
    route: `/api/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`,
  }));
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(types: TypeRoute[]): string {
  const rows = types
    .map(
      (t) =>
        `<li><a href="${escape(t.route)}"><code>${escape(t.route)}</code></a> ${escape(t.displayName)} ` +
        `<small>(${t.kind === 'singleType' ? 'single type' : 'collection'})</small></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Folio</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}</style>
</head><body><h1>Folio</h1>
<p>This server answers the Strapi v5 REST API over the files of its <code>content/</code> folder.</p>
<h2>Content-types</h2>
<ul>
${rows || '<li>None yet: add one with <code>folio types create</code>.</li>'}
</ul>
<p><a href="/api">/api</a> (this list as JSON) · <a href="/documentation">/documentation</a> (OpenAPI) ·
<a href="/api/i18n/locales">/api/i18n/locales</a></p>
</body></html>
`;
}

/**
 * `GET /`: a small page listing the content-types and their routes; `GET /api`: the same as JSON. Strapi
 * answers neither (it redirects `/` to its admin), so they are only a way in: every other unknown path
 * keeps Strapi's 404.
 */
export const landingHandlers: Record<'page' | 'index' | 'notFound', RouteHandler> = {
  page: ({ event, project }) => {
    event.node.res.setHeader('content-type', 'text/html; charset=utf-8');
    return page(typeRoutes(project));
  },
  index: ({ event, project }) =>
    sendJson(event, 200, {
      data: typeRoutes(project),
      meta: { documentation: '/documentation', openapi: '/api/openapi.json', locales: '/api/i18n/locales' },
    }),
  notFound: () => {
    throw notFound();
  },
};
