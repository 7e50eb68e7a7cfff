import type { Project } from '../project.js';
import type { AppOptions } from './app.js';
import { defaultRoutes } from './app.js';
import { usersConfig, type UsersConfig } from '../auth/config.js';
import type { FolioConfig } from '../config.js';
import { AuthService } from '../auth/service.js';
import { PermissionsPolicy } from '../auth/access.js';
import { accountRoutes, rolesRoutes } from '../auth/routes.js';
import { uploadRoutes } from '../upload/routes.js';
import { studioRoutes } from '../studio/routes.js';
import { gitRoutes } from '../git/routes.js';
import type { Follower } from '../git/pull.js';
import {
  apiDocsRoutes,
  contentTypeBuilderRoutes,
  emailRoutes,
  liveEventsRoutes,
  publicationRoutes,
  uidRoutes,
} from './routes.js';

/**
 * The one place that assembles a server for a project: its access policy and route modules (the content API
 * comes last, in app.ts). `folio serve`, the tests and an embedding program all start servers through it, so
 * they always run the same thing. A feature adds its routes here: one entry of the list.
 * Content is private by default: access comes from content/permissions.json, users and API tokens.
 */
export async function serverOptions(
  project: Project,
  opts: { log?: (message: string) => void; git?: { follower?: Follower } } = {},
): Promise<AppOptions & { access: PermissionsPolicy }> {
  // Read from the project's current config on each use: a reload of folio.json swaps `project.config`.
  let seen: FolioConfig | undefined;
  let current: UsersConfig | undefined;
  const users = () => {
    if (seen !== project.config || !current) current = usersConfig((seen = project.config));
    return current;
  };
  const auth = new AuthService(project.root, () => users().auth);
  const access = new PermissionsPolicy(project.contentDir, auth);
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  return {
    access,
    routes: [
      ...defaultRoutes(),
      ...accountRoutes(auth, users, log),
      rolesRoutes(auth),
      uploadRoutes,
      liveEventsRoutes,
      apiDocsRoutes,
      contentTypeBuilderRoutes,
      publicationRoutes,
      uidRoutes,
      emailRoutes(log),
      studioRoutes(auth),
      ...gitRoutes(() => opts.git?.follower),
    ],
  };
}
