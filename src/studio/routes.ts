import type { AuthService } from '../auth/service.js';
import { defineRoutes, type RouteModule } from '../http-kit/route.js';

/**
 * Folio Studio's files, the exchange of a one-time sign-in link (and the owner's, printed on request), what the
 * caller may do, and what a document has: its versions and which private fields are set. The publication routes
 * it also uses are the API's (http/routes.ts). Paths compare as written, as the Studio's asset names do.
 */
export function studioRoutes(auth: AuthService): RouteModule {
  return defineRoutes({
    routes: [
      { method: 'GET', path: '/admin', handler: 'app', exactCase: true },
      { method: 'GET', path: '/admin/**', handler: 'app', exactCase: true },
      { method: 'POST', path: '/_folio/studio/sign-in', handler: 'signIn', exactCase: true },
      { method: 'GET', path: '/_folio/studio/permissions', handler: 'permissions', exactCase: true },
      { method: 'GET', path: '/_folio/studio/owner-link', handler: 'ownerLinkState', exactCase: true },
      { method: 'POST', path: '/_folio/studio/owner-link', handler: 'ownerLinkPrint', exactCase: true },
      { method: 'GET', path: '/_folio/studio/document/:type', handler: 'documentState', exactCase: true },
      { method: 'GET', path: '/_folio/studio/document/:type/:documentId', handler: 'documentState', exactCase: true },
    ],
    load: async () => {
      const [serve, signIn, permissions, documentState, ownerLink] = await Promise.all([
        import('./serve.js'),
        import('./sign-in-link.js'),
        import('./permissions.js'),
        import('./document-state.js'),
        import('./owner-link.js'),
      ]);
      return {
        ...serve.studioHandlers(),
        ...signIn.signInLinkHandlers(auth),
        ...permissions.permissionsHandlers,
        ...documentState.documentStateHandlers,
        ...ownerLink.ownerLinkHandlers,
      };
    },
  });
}
