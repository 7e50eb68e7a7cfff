import { defineRoutes } from '../http-kit/route.js';

/** `GET /api/i18n/locales`: the configured locales. */
export const localesRoutes = defineRoutes({
  routes: [{ method: 'GET', path: '/api/i18n/locales', handler: 'list', action: 'plugin::i18n.locales.listLocales' }],
  load: async () => (await import('./locales.js')).localesHandlers,
});

/** `GET /` (to Folio Studio) and `GET /api` (the types and their routes as JSON): ways in, see landing.ts. */
export const landingRoutes = defineRoutes({
  routes: [
    { method: 'GET', path: '/', handler: 'home' },
    { method: 'GET', path: '/api', handler: 'index' },
    // Strapi has no route at either: other methods answer its 404, not a 405.
    { method: '*', path: '/', handler: 'notFound' },
    { method: '*', path: '/api', handler: 'notFound' },
  ],
  load: async () => (await import('./landing.js')).landingHandlers,
});

/** `GET /_folio/events`: the live events stream (each event checked against the caller's `find`). */
export const liveEventsRoutes = defineRoutes({
  routes: [{ method: 'GET', head: false, path: '/_folio/events', handler: 'stream', exactCase: true }],
  load: async () => (await import('./live-events.js')).liveEventsHandlers,
});

/** The OpenAPI document of the live schemas and its Swagger UI, open to every caller. */
export const apiDocsRoutes = defineRoutes({
  routes: [
    { method: 'GET', path: '/api/openapi.json', handler: 'openapi', exactCase: true },
    { method: 'GET', path: '/documentation', handler: 'page', exactCase: true },
    { method: 'GET', path: '/documentation/**', handler: 'page', exactCase: true },
  ],
  load: async () => (await import('./api-docs.js')).apiDocsHandlers,
});

/** The action each read route of the content-type-builder needs, as Strapi names it. */
export const CONTENT_TYPE_BUILDER_ACTIONS = {
  contentTypes: 'plugin::content-type-builder.content-types.getContentTypes',
  contentType: 'plugin::content-type-builder.content-types.getContentType',
  components: 'plugin::content-type-builder.components.getComponents',
  component: 'plugin::content-type-builder.components.getComponent',
} as const;

/** The content-type-builder's read routes: the model, read-only. */
export const contentTypeBuilderRoutes = defineRoutes({
  routes: [
    {
      method: 'GET',
      path: '/api/content-type-builder/content-types',
      handler: 'contentTypes',
      action: CONTENT_TYPE_BUILDER_ACTIONS.contentTypes,
    },
    {
      method: 'GET',
      path: '/api/content-type-builder/content-types/:uid',
      handler: 'contentType',
      action: CONTENT_TYPE_BUILDER_ACTIONS.contentType,
    },
    {
      method: 'GET',
      path: '/api/content-type-builder/components',
      handler: 'components',
      action: CONTENT_TYPE_BUILDER_ACTIONS.components,
    },
    {
      method: 'GET',
      path: '/api/content-type-builder/components/:uid',
      handler: 'component',
      action: CONTENT_TYPE_BUILDER_ACTIONS.component,
    },
  ],
  load: async () => (await import('./content-type-builder.js')).contentTypeBuilderHandlers,
});

/** Folio's unpublish and discard-draft (Strapi's REST API has neither), under `/_folio/content/` (publication.ts). */
export const publicationRoutes = defineRoutes({
  routes: [
    { method: 'POST', path: '/_folio/content/:type/:action', handler: 'publication', exactCase: true },
    { method: 'POST', path: '/_folio/content/:type/:documentId/:action', handler: 'publication', exactCase: true },
  ],
  load: async () => (await import('./publication.js')).publicationHandlers,
});

/** Whether a uid value is free, and a free one made from its target field (uid-availability.ts). */
export const uidRoutes = defineRoutes({
  routes: [
    { method: 'POST', path: '/_folio/uid/check-availability', handler: 'checkAvailability', exactCase: true },
    { method: 'POST', path: '/_folio/uid/generate', handler: 'generate', exactCase: true },
  ],
  load: async () => (await import('./uid-availability.js')).uidHandlers,
});

/** `POST /api/email`: the e-mail plugin's send, written to the server's log (Folio sends no e-mail). */
export const emailRoutes = (log: (message: string) => void) =>
  defineRoutes({
    routes: [{ method: 'POST', path: '/api/email', handler: 'send', action: 'plugin::email.email.send' }],
    load: async () => (await import('./email.js')).emailHandlers(log),
  });
