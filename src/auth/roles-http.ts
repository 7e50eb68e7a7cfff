import { applicationError, fieldErrors, notFound, validationError } from '../errors.js';
import { sendJson } from '../http-kit/respond.js';
import { actorOf } from '../http-kit/actor.js';
import type { RouteHandler, RouteRequest } from '../http-kit/route.js';
import type { ServedProject } from '../http-kit/served-project.js';
import { PermissionsPolicy } from './access.js';
import {
  CONTENT_ACTIONS,
  PLUGIN_ACTIONS,
  SINGLE_TYPE_ACTIONS,
  type PermissionsFile,
  isRoleKey,
  loadPermissions,
  savePermissions,
} from './permissions.js';
import type { AuthService } from './service.js';
import { roleViews } from './users-query.js';

/** Strapi's permissions tree: `{ "api::article": { controllers: { article: { find: { enabled, policy } } } } }`. */
type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

const DEFAULT_ROLES = new Set(['public', 'authenticated']);

/** Every action a role may be given in this project: each content-type's, and the plugins'. */
function availableActions(project: ServedProject): string[] {
  const out: string[] = [];
  for (const ct of project.schemas.contentTypes.values()) {
    for (const verb of ct.kind === 'singleType' ? SINGLE_TYPE_ACTIONS : CONTENT_ACTIONS) out.push(`${ct.uid}.${verb}`);
  }
  return [...out, ...PLUGIN_ACTIONS];
}

function toTree(actions: string[], enabled: Set<string>): Tree {
  const tree: Tree = {};
  for (const action of actions) {
    const m = /^(.+)\.([^.]+)\.([^.]+)$/.exec(action)!;
    const [, api, controller, verb] = m;
    ((tree[api] ??= { controllers: {} }).controllers[controller] ??= {})[verb] = {
      enabled: enabled.has(action),
      policy: '',
    };
  }
  return tree;
}

/** The enabled actions of a tree sent by a client; an action this project does not have is a 400. */
function fromTree(tree: unknown, known: Set<string>): string[] {
  if (tree === undefined || tree === null) return [];
  if (typeof tree !== 'object' || Array.isArray(tree)) throw validationError('permissions must be an object');
  const out: string[] = [];
  for (const [api, node] of Object.entries(tree as Record<string, unknown>)) {
    const controllers = (node as { controllers?: unknown })?.controllers;
    if (!controllers || typeof controllers !== 'object')
      throw validationError(`permissions.${api}.controllers must be an object`);
    for (const [controller, verbs] of Object.entries(controllers as Record<string, unknown>)) {
      if (!verbs || typeof verbs !== 'object')
        throw validationError(`permissions.${api}.controllers.${controller} must be an object`);
      for (const [verb, state] of Object.entries(verbs as Record<string, unknown>)) {
        const action = `${api}.${controller}.${verb}`;
        if (!known.has(action)) throw validationError(`Unknown action ${action}`);
        if ((state as { enabled?: unknown })?.enabled === true) out.push(action);
      }
    }
  }
  return out;
}

/** Strapi derives a role's type from its name: lower-case, accents off, snake_case. */
const typeOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/**
 * The handlers of the roles routes of users-permissions (`/api/users-permissions/roles`, `/permissions`; see
 * routes.ts), over content/permissions.json: a role created, changed or deleted here is a diff in that file, and
 * the running server's permissions change at once.
 */
export function rolesHandlers(
  auth: AuthService,
): Record<'permissions' | 'find' | 'create' | 'findOne' | 'update' | 'destroy', RouteHandler> {
  const views = (req: RouteRequest, file: PermissionsFile) => roleViews(req.project.contentDir, file.roles);
  /** Saves the roles; the write is told to the project's events (`serve --commit` commits it as the caller's). */
  const save = async (req: RouteRequest, file: PermissionsFile, action: string) => {
    const written = await savePermissions(req.project.contentDir, file);
    if (req.access instanceof PermissionsPolicy) req.access.reload();
    const actor = actorOf(await req.principal());
    req.project.events.wrote({ actor, subject: 'permissions', action, files: [written] });
  };
  /**
   * A role's name and description. Folio holds names unique and not empty (Strapi takes duplicate and empty
   * names: two roles a client cannot tell apart); `key` is the role the body is for, on an update.
   */
  const checkNameAndDescription = (body: Record<string, unknown>, file: PermissionsFile, key?: string) => {
    if (key === undefined && (typeof body.name !== 'string' || !body.name.trim()))
      throw validationError('name is a required field');
    if (body.name !== undefined && typeof body.name !== 'string') throw validationError('name must be a `string` type');
    if (typeof body.name === 'string' && body.name.length > 255)
      throw validationError('name must be at most 255 characters');
    if (typeof body.name === 'string' && !body.name.trim()) throw validationError('name cannot be empty');
    if (body.description !== undefined && body.description !== null && typeof body.description !== 'string')
      throw validationError('description must be a `string` type');
    const name = typeof body.name === 'string' ? body.name.trim() : undefined;
    const holder = Object.entries(file.roles).find(
      ([k, r]) => k !== key && name !== undefined && r.name.trim().toLowerCase() === name.toLowerCase(),
    );
    if (holder) throw fieldErrors([{ path: ['name'], message: 'This attribute must be unique', value: body.name }]);
  };
  /** Strapi's first check of a create or an update: a body with nothing in it. */
  const requireBody = (body: Record<string, unknown>) => {
    if (!Object.keys(body).length) throw validationError('Request body cannot be empty');
  };
  /** What every roles route reads: the body, permissions.json, the project's actions. */
  const open = (req: RouteRequest) => {
    const body =
      req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const file = loadPermissions(req.project.contentDir);
    const known = new Set(availableActions(req.project));
    // Before any change, every custom role keeps the id it has now (ids of roles without one are by key,
    // and would move when a role is added or removed).
    const freeze = () => {
      for (const [k, v] of views(req, file)) if (!DEFAULT_ROLES.has(k)) file.roles[k].id ??= v.id;
    };
    return { body, file, known, freeze };
  };
  /** The key of the role the path names by id or documentId; a 404 when there is none. */
  const keyOf = (req: RouteRequest, file: PermissionsFile) => {
    const id = decodeURIComponent(req.params.id);
    for (const [key, view] of views(req, file)) if (String(view.id) === id || view.documentId === id) return key;
    throw notFound('Role not found');
  };

  return {
    permissions(req) {
      const { known } = open(req);
      return sendJson(req.event, 200, { permissions: toTree([...known], new Set()) });
    },
    find(req) {
      const { file } = open(req);
      const users = auth.listUsers();
      return sendJson(req.event, 200, {
        roles: [...views(req, file)].map(([key, view]) => ({
          ...view,
          nb_users: users.filter((u) => u.role === key).length,
        })),
      });
    },
    async create(req) {
      const { body, file, known, freeze } = open(req);
      requireBody(body);
      checkNameAndDescription(body, file);
      freeze();
      const key = typeof body.type === 'string' && body.type ? body.type : typeOf(body.name as string);
      if (!isRoleKey(key))
        throw validationError(`"${key}" cannot be a role type: use lower-case letters, digits, - and _`);
      if (file.roles[key]) throw applicationError(`A role of type ${key} already exists`);
      const id = Math.max(2, ...[...views(req, file).values()].map((v) => v.id)) + 1;
      file.roles[key] = {
        id,
        name: (body.name as string).trim(),
        description: (body.description as string | undefined) ?? '',
        permissions: fromTree(body.permissions, known),
      };
      await save(req, file, `create role "${key}"`);
      return sendJson(req.event, 200, { ok: true });
    },
    findOne(req) {
      const { file, known } = open(req);
      const key = keyOf(req, file);
      const view = views(req, file).get(key)!;
      return sendJson(req.event, 200, {
        role: { ...view, permissions: toTree([...known], new Set(file.roles[key].permissions)) },
      });
    },
    async update(req) {
      const { body, file, known, freeze } = open(req);
      requireBody(body);
      const key = keyOf(req, file);
      checkNameAndDescription(body, file, key);
      freeze();
      const role = file.roles[key];
      if (typeof body.name === 'string' && body.name.trim()) role.name = body.name.trim();
      if (typeof body.description === 'string') role.description = body.description;
      if (body.permissions !== undefined) {
        // Granted actions outside the tree (of a type since removed, say) are kept as they are.
        role.permissions = [...role.permissions.filter((a) => !known.has(a)), ...fromTree(body.permissions, known)];
      }
      await save(req, file, `update role "${key}"`);
      return sendJson(req.event, 200, { ok: true });
    },
    async destroy(req) {
      const { file, freeze } = open(req);
      // As Strapi, the public role is refused before the role is looked up; Folio keeps authenticated too (new
      // users are given it: Strapi's registration breaks without it).
      if (req.params.id === String(views(req, file).get('public')?.id))
        throw applicationError('Cannot delete public role');
      const key = keyOf(req, file);
      if (DEFAULT_ROLES.has(key)) throw applicationError(`Cannot delete ${key} role`);
      freeze();
      delete file.roles[key];
      await save(req, file, `delete role "${key}"`);
      // As Strapi: the role's users fall back to the public role.
      for (const u of auth.listUsers().filter((x) => x.role === key)) await auth.saveUser(u.id, { role: 'public' });
      return sendJson(req.event, 200, { ok: true });
    },
  };
}
