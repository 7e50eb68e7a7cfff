import { statSync } from 'node:fs';
import { join } from 'node:path';
import { stableId } from '../http-kit/stable-id.js';
import type { Role } from './permissions.js';

/** A role as Strapi returns it when a user's `role` is populated. */
export interface RoleView {
  id: number;
  documentId: string;
  name: string;
  description: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/**
 * The roles of permissions.json as Strapi's role records: `authenticated` is 1 and `public` 2 (the order
 * Strapi creates them in); a custom role has the id recorded with it, or, if none was, the next free one
 * by key; timestamps are the file's.
 */
export function roleViews(contentDir: string, roles: Record<string, Role>): Map<string, RoleView> {
  let ts: string;
  try {
    ts = statSync(join(contentDir, 'permissions.json')).mtime.toISOString();
  } catch {
    ts = new Date(0).toISOString();
  }
  const ids = new Map<string, number>([
    ['authenticated', 1],
    ['public', 2],
  ]);
  for (const [k, r] of Object.entries(roles)) if (r.id !== undefined && !ids.has(k)) ids.set(k, r.id);
  let next = Math.max(2, ...ids.values()) + 1;
  for (const k of Object.keys(roles).sort()) if (!ids.has(k)) ids.set(k, next++);
  const keys = Object.keys(roles).sort((a, b) => ids.get(a)! - ids.get(b)!);
  return new Map(
    keys.map((k) => [
      k,
      {
        id: ids.get(k)!,
        documentId: stableId(`role:${k}`),
        name: roles[k].name,
        description: roles[k].description,
        type: k,
        createdAt: ts,
        updatedAt: ts,
        publishedAt: ts,
      },
    ]),
  );
}
