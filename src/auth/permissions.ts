import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { serialize } from '../store/serialize.js';

/**
 * `content/permissions.json` (git-tracked, no secrets): the roles and the actions each may perform,
 * named as Strapi names them (`api::article.article.find`, `plugin::upload.content-api.upload`, ...).
 *
 *   { "roles": { "public": { "name": "Public", "description": "…", "permissions": ["api::article.article.find"] },
 *                "authenticated": { "name": "Authenticated", "description": "…", "permissions": [...] } } }
 */
export interface Role { name: string; description: string; permissions: string[] }
export interface PermissionsFile { roles: Record<string, Role> }

/** What a fresh Strapi install grants: the auth flows to everyone, account actions to logged-in users. */
export const DEFAULT_GRANTS: Record<string, string[]> = {
  public: ['callback', 'connect', 'forgotPassword', 'resetPassword', 'register', 'emailConfirmation', 'sendEmailConfirmation', 'refresh']
    .map((a) => `plugin::users-permissions.auth.${a}`),
  authenticated: [
    ...['logout', 'getSessions', 'revokeSession', 'changePassword'].map((a) => `plugin::users-permissions.auth.${a}`),
    'plugin::users-permissions.user.me',
  ],
};

export function defaultPermissions(): PermissionsFile {
  return {
    roles: {
      public: { name: 'Public', description: 'Default role given to unauthenticated user.', permissions: [...DEFAULT_GRANTS.public] },
      authenticated: { name: 'Authenticated', description: 'Default role given to authenticated user.', permissions: [...DEFAULT_GRANTS.authenticated] },
    },
  };
}

export class PermissionsError extends Error {}

const ACTION = /^(api::[a-z0-9-]+\.[a-z0-9-]+|plugin::[a-z0-9-]+\.[a-z0-9-]+)\.[A-Za-z]+$/;

/** Reads permissions.json; a missing file means a fresh install's defaults (nothing on content-types). */
export function loadPermissions(contentDir: string): PermissionsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(contentDir, 'permissions.json'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return defaultPermissions();
    throw new PermissionsError(`content/permissions.json: ${(err as Error).message}`);
  }
  const roles = (raw as { roles?: unknown })?.roles;
  if (!roles || typeof roles !== 'object' || Array.isArray(roles)) throw new PermissionsError('content/permissions.json: "roles" must be an object of roles');
  const out: PermissionsFile = { roles: {} };
  for (const [key, role] of Object.entries(roles as Record<string, unknown>)) {
    const r = role as Partial<Role>;
    if (!Array.isArray(r?.permissions) || !r.permissions.every((p) => typeof p === 'string' && ACTION.test(p))) {
      throw new PermissionsError(`content/permissions.json: roles.${key}.permissions must be a list of action names like "api::article.article.find"`);
    }
    out.roles[key] = { name: typeof r.name === 'string' ? r.name : key, description: typeof r.description === 'string' ? r.description : '', permissions: [...new Set(r.permissions)].sort() };
  }
  for (const key of ['public', 'authenticated']) out.roles[key] ??= defaultPermissions().roles[key];
  return out;
}

export async function savePermissions(contentDir: string, file: PermissionsFile) {
  const roles: Record<string, Role> = {};
  for (const key of Object.keys(file.roles).sort()) {
    const r = file.roles[key];
    roles[key] = { name: r.name, description: r.description, permissions: [...new Set(r.permissions)].sort() };
  }
  await writeFileAtomic(join(contentDir, 'permissions.json'), serialize({ roles }));
}

/**
 * Accepts Strapi's full action names and the shorthands `article.find`, `articles:find` and
 * `article.*` (every content action of a type); returns full names.
 */
export function expandAction(input: string, typeNames: Map<string, string>): string[] {
  if (ACTION.test(input) || /^plugin::/.test(input)) return [input];
  const m = /^([a-z0-9-]+)[.:]([A-Za-z*]+)$/.exec(input);
  if (!m) throw new PermissionsError(`"${input}" is not an action: use e.g. api::article.article.find, article.find or article.*`);
  const singular = typeNames.get(m[1]);
  if (!singular) throw new PermissionsError(`"${m[1]}" is not a content-type of this project`);
  const verbs = m[2] === '*' ? ['find', 'findOne', 'create', 'update', 'delete'] : [m[2]];
  for (const v of verbs) if (!['find', 'findOne', 'create', 'update', 'delete'].includes(v)) throw new PermissionsError(`"${v}" is not a content action (find, findOne, create, update, delete)`);
  return verbs.map((v) => `api::${singular}.${singular}.${v}`);
}
