import { join, relative } from 'node:path';
import type { Project } from '../project.js';

/** Header names that carry a credential (Authorization, X-Api-Key, X-Webhook-Token, …). */
const SECRET_HEADER = /authorization|cookie|token|secret|key|signature|password|auth/i;

/**
 * Notices for webhook headers that look like credentials and are written in clear in folio.json, which is committed:
 * such a value belongs in the environment of the server, named by `{ "env": "VARIABLE" }`.
 */
export function clearSecretNotices(project: Project): Array<{ file: string; path: string; message: string }> {
  const file = relative(project.root, join(project.contentDir, 'folio.json'));
  return project.config.webhooks.flatMap((hook, i) =>
    Object.entries(hook.headers)
      .filter(([name, value]) => typeof value === 'string' && value !== '' && SECRET_HEADER.test(name))
      .map(([name]) => ({
        file,
        path: `webhooks[${i}].headers.${name}`,
        message: 'a credential in clear in a committed file: write { "env": "VARIABLE" } and set it where Folio runs',
      })),
  );
}
