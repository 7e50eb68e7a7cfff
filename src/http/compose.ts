import type { Project } from '../project.js';
import { defaultModules, type AppOptions } from './app.js';
import { OpenAccess } from './access.js';
import { uploadModule } from '../upload/http.js';
import { liveEventsModule } from './live-events.js';

/**
 * The one place that assembles a server for a project: its access policy and route modules.
 * `folio serve` and the tests both start servers through it, so they always run the same thing.
 */
export async function serverOptions(project: Project): Promise<AppOptions> {
  void project;
  return {
    access: new OpenAccess(),
    modules: [...defaultModules(), uploadModule, liveEventsModule],
  };
}
