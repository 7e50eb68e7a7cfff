import type { Project } from '../project.js';
import { defaultModules, type AppOptions, type HttpModule } from './app.js';
import { loadUsersConfig } from '../auth/config.js';
import { AuthService } from '../auth/service.js';
import { PermissionsPolicy } from '../auth/access.js';
import {
  LIVE_EVENTS_PATH,
  STORED_FILES,
  isAccountsPath,
  isApiDocsPath,
  isContentTypeBuilderPath,
  isRolesPath,
  isUploadApiPath,
} from './route-paths.js';
import { isStudioPath } from '../studio/paths.js';

/**
 * The one place that assembles a server for a project: its access policy and route modules.
 * `folio serve` and the tests both start servers through it, so they always run the same thing.
 * Content is private by default: access comes from content/permissions.json, users and API tokens.
 */
export async function serverOptions(
  project: Project,
  opts: { log?: (message: string) => void } = {},
): Promise<AppOptions & { access: PermissionsPolicy }> {
  const users = loadUsersConfig(project.contentDir);
  const auth = new AuthService(project.root, users.auth);
  const access = new PermissionsPolicy(project.contentDir, auth);
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  return {
    access,
    modules: [
      ...defaultModules(),
      onDemand(isAccountsPath, async () =>
        (await import('../auth/http.js')).usersModule(auth, users.rateLimit, users.mail, log),
      ),
      onDemand(isRolesPath, async () => (await import('../auth/roles-http.js')).rolesModule(auth)),
      onDemand(
        (p) => p.startsWith(STORED_FILES) || isUploadApiPath(p),
        async () => (await import('../upload/http.js')).uploadModule,
      ),
      onDemand(
        (p) => p === LIVE_EVENTS_PATH,
        async () => (await import('./live-events.js')).liveEventsModule,
      ),
      onDemand(isApiDocsPath, async () => (await import('./api-docs.js')).apiDocsModule),
      onDemand(isStudioPath, async () => (await import('../studio/routes.js')).studioRoutes(auth)),
      onDemand(
        isContentTypeBuilderPath,
        async () => (await import('./content-type-builder.js')).contentTypeBuilderModule,
      ),
    ],
  };
}

/**
 * A route module loaded by the first request for a path it may own (`owns` sees the path in lower case,
 * so it says yes to more than a module that compares the path as written answers: see route-paths.ts).
 * Uploads, accounts, roles, live events and the API documentation bring their own modules (busboy, the
 * OpenAPI generator…): loading them on first use keeps that work off the start, while a first start reads
 * its files.
 */
function onDemand(owns: (lowerPath: string) => boolean, load: () => Promise<HttpModule>): HttpModule {
  let loaded: Promise<HttpModule> | undefined;
  return {
    async handle(req) {
      if (!owns(req.path.toLowerCase())) return undefined;
      if (!loaded) {
        loaded = load();
        // A module that failed to load is tried again by the next request, rather than failing for good.
        loaded.catch(() => {
          loaded = undefined;
        });
      }
      return (await loaded).handle(req);
    },
  };
}
