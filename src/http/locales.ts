import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ServedProject } from '../http-kit/served-project.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler } from '../http-kit/route.js';
import { stableId } from '../http-kit/stable-id.js';

/** `GET /api/i18n/locales`: the configured locales as Strapi's locale records (a bare array). */
export const localesHandlers: Record<'list', RouteHandler> = {
  list: ({ event, project }) => sendJson(event, 200, localesList(project)),
};

function localesList(project: ServedProject) {
  let ts: string;
  try {
    ts = statSync(join(project.contentDir, 'folio.json')).mtime.toISOString();
  } catch {
    ts = new Date(0).toISOString();
  }
  return project.config.locales.map((l, i) => ({
    id: i + 1,
    documentId: stableId(`locale:${l.code}`),
    name: l.name,
    code: l.code,
    createdAt: ts,
    updatedAt: ts,
    publishedAt: ts,
    isDefault: l.code === project.config.defaultLocale,
  }));
}
