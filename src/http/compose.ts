import type { Project } from '../project.js';
import { defaultModules, type AppOptions } from './app.js';
import { uploadModule } from '../upload/http.js';
import { liveEventsModule } from './live-events.js';
import { apiDocsModule } from './api-docs.js';
import { loadUsersConfig } from '../auth/config.js';
import { AuthService } from '../auth/service.js';
import { PermissionsPolicy } from '../auth/access.js';
import { usersModule } from '../auth/http.js';
import { rolesModule } from '../auth/roles-http.js';

/**
 * The one place that assembles a server for a project: its access policy and route modules.
 * `folio serve` and the tests both start servers through it, so they always run the same thing.
 * Content is private by default: access comes from content/permissions.json, users and API tokens.
 */
export async function serverOptions(project: Project, opts: { log?: (message: string) => void } = {}): Promise<AppOptions & { access: PermissionsPolicy }> {
  const users = loadUsersConfig(project.contentDir);
  const auth = new AuthService(project.root, users.auth);
  const access = new PermissionsPolicy(project.contentDir, auth);
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  return {
    access,
    modules: [...defaultModules(), usersModule(auth, users.rateLimit, users.mail, log), rolesModule(auth), uploadModule, liveEventsModule, apiDocsModule],
  };
}
