import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic.js';
import { serialize } from '../store/serialize.js';
import { readSmallFile } from '../store/read-file.js';

/**
 * `content/permissions.json` (git-tracked, no secrets): the roles and the actions each may perform,
 * named as Strapi names them.
 *
 *   {
 *     "roles": {
 *       "public":        { "name": "Public", "description": "…", "permissions": ["api::article.article.find", …] },
 *       "authenticated": { "name": "Authenticated", "description": "…", "permissions": [ … ] },
 *       "editor":        { "name": "Editor", "description": "", "permissions": [ … ] }
 *     }
 *   }
 *
 * - A role's `permissions` is the complete list of what it may do (sorted, no duplicates when Folio writes it).
 * - `public` is every caller without credentials; `authenticated` is the role of new users; other keys
 *   (lower-case letters, digits, `-`, `_`) are custom roles a user can be given (`folio users create --role`).
 * - When the file, or its `public` or `authenticated` entry, is missing, that role has what a fresh Strapi
 *   install grants it (DEFAULT_GRANTS): the auth flows for public, the account actions for authenticated,
 *   and nothing on content-types, upload or i18n. An entry that is present is taken as written, so a
 *   grant can be taken away by leaving it out.
 * - Action names: `api::<type>.<type>.find|findOne|create|update|delete` (single types: find, update,
 *   delete), `plugin::upload.content-api.find|findOne|findPage|upload|destroy`,
 *   `plugin::users-permissions.auth.*`, `plugin::users-permissions.user.me|find|findOne|count`,
 *   `plugin::i18n.locales.listLocales`, `plugin::email.email.send`,
 *   `plugin::content-type-builder.content-types.getContentTypes|getContentType`,
 *   `plugin::content-type-builder.components.getComponents|getComponent`.
 */
/** `id`: the numeric id a custom role keeps once the API has handed it out (authenticated is 1, public 2). */
export interface Role {
  name: string;
  description: string;
  permissions: string[];
  id?: number;
}
export interface PermissionsFile {
  roles: Record<string, Role>;
}

/** What a fresh Strapi install grants: the auth flows to everyone, account actions to logged-in users. */
export const DEFAULT_GRANTS: Record<string, string[]> = {
  public: [
    'callback',
    'connect',
    'forgotPassword',
    'resetPassword',
    'register',
    'emailConfirmation',
    'sendEmailConfirmation',
    'refresh',
  ].map((a) => `plugin::users-permissions.auth.${a}`),
  authenticated: [
    ...['logout', 'getSessions', 'revokeSession', 'changePassword'].map((a) => `plugin::users-permissions.auth.${a}`),
    'plugin::users-permissions.user.me',
  ],
};

const DEFAULT_ROLES: Record<string, Role> = {
  public: {
    name: 'Public',
    description: 'Default role given to unauthenticated user.',
    permissions: DEFAULT_GRANTS.public,
  },
  authenticated: {
    name: 'Authenticated',
    description: 'Default role given to authenticated user.',
    permissions: DEFAULT_GRANTS.authenticated,
  },
};

export function defaultPermissions(): PermissionsFile {
  return {
    roles: Object.fromEntries(
      Object.entries(DEFAULT_ROLES).map(([k, r]) => [k, { ...r, permissions: [...r.permissions] }]),
    ),
  };
}

/** The plugin actions Folio knows (Strapi's names); content-type actions are checked against the project's types. */
export const PLUGIN_ACTIONS: readonly string[] = [
  ...[
    'callback',
    'connect',
    'register',
    'forgotPassword',
    'resetPassword',
    'emailConfirmation',
    'sendEmailConfirmation',
    'changePassword',
    'refresh',
    'logout',
    'getSessions',
    'revokeSession',
  ].map((a) => `plugin::users-permissions.auth.${a}`),
  ...['find', 'findOne', 'count', 'create', 'update', 'destroy', 'me'].map(
    (a) => `plugin::users-permissions.user.${a}`,
  ),
  ...['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'].map((a) => `plugin::users-permissions.role.${a}`),
  'plugin::users-permissions.permissions.getPermissions',
  ...['find', 'findOne', 'findPage', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`),
  'plugin::i18n.locales.listLocales',
  'plugin::email.email.send',
  ...['content-types.getContentTypes', 'content-types.getContentType'].map((a) => `plugin::content-type-builder.${a}`),
  ...['components.getComponents', 'components.getComponent'].map((a) => `plugin::content-type-builder.${a}`),
  // Folio's own: a replica's pull from its remote (POST /_folio/git/pull), for a push hook's token.
  'plugin::folio.git.pull',
];

export const CONTENT_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'] as const;
export const SINGLE_TYPE_ACTIONS = ['find', 'update', 'delete'] as const;

export class PermissionsError extends Error {}

const ACTION = /^(api::[a-z0-9-]+\.[a-z0-9-]+|plugin::[a-z0-9-]+\.[a-z0-9-]+)\.[A-Za-z]+$/;
const ROLE_KEY = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Whether `s` is written as Strapi names an action: `api::<api>.<type>.<verb>` or
 * `plugin::<plugin>.<controller>.<verb>`.
 */
export const isActionName = (s: string) => ACTION.test(s);
export const isRoleKey = (s: string) => ROLE_KEY.test(s);

/** Reads permissions.json; a missing file, or a missing public/authenticated role, means Strapi's first-boot grants. */
export function loadPermissions(contentDir: string): PermissionsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readSmallFile(join(contentDir, 'permissions.json'), contentDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return defaultPermissions();
    throw new PermissionsError(`content/permissions.json: ${(err as Error).message}`);
  }
  const roles = (raw as { roles?: unknown })?.roles;
  if (!roles || typeof roles !== 'object' || Array.isArray(roles))
    throw new PermissionsError('content/permissions.json: "roles" must be an object of roles');
  const out: PermissionsFile = { roles: {} };
  for (const [key, role] of Object.entries(roles as Record<string, unknown>)) {
    if (!ROLE_KEY.test(key))
      throw new PermissionsError(
        `content/permissions.json: "${key}" is not a role key (lower-case letters, digits, - and _)`,
      );
    const r = role as Partial<Role>;
    if (!Array.isArray(r?.permissions) || !r.permissions.every((p) => typeof p === 'string' && ACTION.test(p))) {
      throw new PermissionsError(
        `content/permissions.json: roles.${key}.permissions must be a list of action names ` +
          'like "api::article.article.find"',
      );
    }
    out.roles[key] = {
      name: typeof r.name === 'string' ? r.name : key,
      description: typeof r.description === 'string' ? r.description : '',
      permissions: [...new Set(r.permissions)].sort(),
    };
    if (Number.isSafeInteger(r.id) && (r.id as number) > 2) out.roles[key].id = r.id;
  }
  for (const key of Object.keys(DEFAULT_ROLES)) out.roles[key] ??= defaultPermissions().roles[key];
  return out;
}

/** Writes permissions.json (roles sorted, actions sorted and once each); resolves with the file and its text. */
export async function savePermissions(contentDir: string, file: PermissionsFile) {
  const roles: Record<string, Role> = {};
  for (const key of Object.keys(file.roles).sort()) {
    const r = file.roles[key];
    roles[key] = {
      ...(r.id !== undefined ? { id: r.id } : {}),
      name: r.name,
      description: r.description,
      permissions: [...new Set(r.permissions)].sort(),
    };
  }
  const path = join(contentDir, 'permissions.json');
  const text = serialize({ roles });
  await writeFileAtomic(path, text);
  return { file: path, text };
}

/** A content-type as the action shorthands name it. */
export interface TypeRef {
  uid: string;
  single: boolean;
}

/**
 * Accepts Strapi's full action names and the shorthands `article.find`, `articles:find` and `article.*`
 * (every action of a type: five for a collection, find/update/delete for a single type); returns full
 * names. `types` maps singular and plural names to the project's content-types. Unknown types, verbs
 * and plugin actions are errors, so a typo never becomes a silent no-op.
 */
export function expandAction(input: string, types: Map<string, TypeRef>): string[] {
  const uids = new Map([...types.values()].map((t) => [t.uid, t]));
  const verbsOf = (t: TypeRef): readonly string[] => (t.single ? SINGLE_TYPE_ACTIONS : CONTENT_ACTIONS);
  if (input.startsWith('plugin::')) {
    if (!PLUGIN_ACTIONS.includes(input))
      throw new PermissionsError(`"${input}" is not a plugin action Folio knows (${PLUGIN_ACTIONS.join(', ')})`);
    return [input];
  }
  if (input.startsWith('api::')) {
    const m = /^(api::[a-z0-9-]+\.[a-z0-9-]+)\.([A-Za-z*]+)$/.exec(input);
    const type = m ? uids.get(m[1]) : undefined;
    if (!m || !type)
      throw new PermissionsError(
        `"${input}" does not name a content-type of this project (e.g. api::article.article.find)`,
      );
    return expandVerb(m[2], type, verbsOf(type));
  }
  const m = /^([a-z0-9-]+)[.:]([A-Za-z*]+)$/.exec(input);
  if (!m)
    throw new PermissionsError(
      `"${input}" is not an action: use e.g. api::article.article.find, article.find or article.*`,
    );
  const type = types.get(m[1]);
  if (!type) throw new PermissionsError(`"${m[1]}" is not a content-type of this project`);
  return expandVerb(m[2], type, verbsOf(type));
}

function expandVerb(verb: string, type: TypeRef, verbs: readonly string[]): string[] {
  if (verb === '*') return verbs.map((v) => `${type.uid}.${v}`);
  if (!verbs.includes(verb))
    throw new PermissionsError(`"${verb}" is not an action of ${type.uid} (${verbs.join(', ')})`);
  return [`${type.uid}.${verb}`];
}
