import type { AuthService } from '../auth/service.js';
import { defineRoutes, type RouteModule } from '../http-kit/route.js';

/**
 * Folio Studio's files, the exchange of a one-time sign-in link, and what the caller may do (the publication
 * routes it also uses are the API's, in http/routes.ts). Paths compare as written, as the Studio's asset names do.
 */
export function studioRoutes(auth: AuthService): RouteModule {
  return defineRoutes({
    routes: [
      { method: 'GET', path: '/admin', handler: 'app', exactCase: true },
      { method: 'GET', path: '/admin/**', handler: 'app', exactCase: true },
      { method: 'POST', path: '/_folio/studio/sign-in', handler: 'signIn', exactCase: true },
      { method: 'GET', path: '/_folio/studio/permissions', handler: 'permissions', exactCase: true },
    ],
    load: async () => {
      const [serve, signIn, permissions] = await Promise.all([
        import('./serve.js'),
        import('./sign-in-link.js'),
        import('./permissions.js'),
      ]);
      return {
        ...serve.studioHandlers(),
        ...signIn.signInLinkHandlers(auth),
        ...permissions.permissionsHandlers,
      };
    },
  });
}
