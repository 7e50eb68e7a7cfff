import type { AuthService } from '../auth/service.js';
import type { HttpModule } from '../http/app.js';
import { publicationModule } from '../http/publication.js';
import { studioModule } from './serve.js';
import { signInLinkModule } from './sign-in-link.js';
import { permissionsModule } from './permissions.js';

/**
 * Folio Studio's files, the publication routes that the REST API lacks and the Studio uses, and the exchange of
 * a one-time sign-in link.
 */
export function studioRoutes(auth: AuthService): HttpModule {
  const modules = [studioModule(), publicationModule, signInLinkModule(auth), permissionsModule];
  return {
    async handle(req) {
      for (const mod of modules) {
        const answer = await mod.handle(req);
        if (answer !== undefined) return answer;
      }
      return undefined;
    },
  };
}
