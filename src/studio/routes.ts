import type { HttpModule } from '../http/app.js';
import { publicationModule } from '../http/publication.js';
import { studioModule } from './serve.js';

/** Folio Studio's files, and the publication routes that the REST API lacks and the Studio uses. */
export function studioRoutes(): HttpModule {
  const modules = [studioModule(), publicationModule];
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
