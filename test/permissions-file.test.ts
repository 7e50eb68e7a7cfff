import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** A fresh Strapi 5 install's grants (users-permissions' bootstrap), sorted: the auth flows, a user's own account. */
const STRAPI_PUBLIC = [
  'callback',
  'connect',
  'emailConfirmation',
  'forgotPassword',
  'refresh',
  'register',
  'resetPassword',
  'sendEmailConfirmation',
].map((a) => `plugin::users-permissions.auth.${a}`);
const STRAPI_AUTHENTICATED = [
  ...['changePassword', 'getSessions', 'logout', 'revokeSession'].map((a) => `plugin::users-permissions.auth.${a}`),
  'plugin::users-permissions.user.me',
];

/**
 * content/permissions.json as people leave it: missing (a fresh Strapi's grants), written by hand (names,
 * descriptions and ids filled in or kept, actions sorted once each), or broken (a clear error naming the file
 * and what is wrong, from the CLI and from a server asked to reload it).
 */
describe('content/permissions.json', () => {
  let made: ReturnType<typeof makeProject>;
  const file = () => join(made.contentDir, 'permissions.json');
  const folio = (...args: string[]) => runFolio([...args, '--dir', made.dir]);
  const listed = async () => {
    const r = await folio('permissions', 'list', '--json');
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as Record<string, { name: string; description: string; permissions: string[] }>;
  };

  beforeAll(() => {
    made = makeProject();
  });
  afterAll(() => made.cleanup());

  it("grants a fresh Strapi's defaults when the file is missing", async () => {
    rmSync(file());
    const roles = await listed();
    expect(Object.keys(roles)).toEqual(['public', 'authenticated']);
    expect(roles.public).toMatchObject({ name: 'Public', description: 'Default role given to unauthenticated user.' });
    expect([...roles.public.permissions].sort()).toEqual(STRAPI_PUBLIC);
    expect(roles.authenticated).toMatchObject({
      name: 'Authenticated',
      description: 'Default role given to authenticated user.',
    });
    expect([...roles.authenticated.permissions].sort()).toEqual(STRAPI_AUTHENTICATED);
  });

  it('takes a hand-written file: names filled in, default roles added, actions sorted once each', async () => {
    writeFileSync(
      file(),
      JSON.stringify({
        roles: {
          editor: {
            permissions: ['api::tag.tag.find', 'api::article.article.find', 'api::tag.tag.find'],
            id: 7,
          },
          'night-shift_2': { name: 'Night shift', description: 'Late', permissions: [], id: 2 },
        },
      }),
    );
    const roles = await listed();
    expect(roles.editor).toEqual({
      name: 'editor',
      description: '',
      permissions: ['api::article.article.find', 'api::tag.tag.find'],
      id: 7,
    });
    expect(roles['night-shift_2']).toEqual({ name: 'Night shift', description: 'Late', permissions: [] });
    expect([...roles.public.permissions].sort()).toEqual(STRAPI_PUBLIC);
    expect([...roles.authenticated.permissions].sort()).toEqual(STRAPI_AUTHENTICATED);
  });

  it.each([
    ['{ "roles": ', 'content/permissions.json: '],
    ['{}', '"roles" must be an object of roles'],
    ['{ "roles": [] }', '"roles" must be an object of roles'],
    ['{ "roles": "public" }', '"roles" must be an object of roles'],
    ['null', '"roles" must be an object of roles'],
    ['{ "roles": { "Editors": { "permissions": [] } } }', '"Editors" is not a role key'],
    ['{ "roles": { "-editor": { "permissions": [] } } }', '"-editor" is not a role key'],
    ['{ "roles": { "night shift": { "permissions": [] } } }', '"night shift" is not a role key'],
    ['{ "roles": { "editor": {} } }', 'roles.editor.permissions must be a list of action names'],
    ['{ "roles": { "editor": null } }', 'roles.editor.permissions must be a list of action names'],
    ['{ "roles": { "editor": { "permissions": [3] } } }', 'roles.editor.permissions must be a list'],
    ['{ "roles": { "editor": { "permissions": ["article.find"] } } }', 'roles.editor.permissions must be a list'],
    ['{ "roles": { "editor": { "permissions": ["api::tag.tag.find "] } } }', 'roles.editor.permissions must'],
    ['{ "roles": { "editor": { "permissions": ["my api::tag.tag.find"] } } }', 'roles.editor.permissions must'],
    ['{ "roles": { "editor": { "permissions": [["api::tag.tag.find"]] } } }', 'roles.editor.permissions must'],
  ])('refuses %s, saying what is wrong', async (text, message) => {
    writeFileSync(file(), text);
    const r = await folio('permissions', 'list');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('content/permissions.json');
  });
});

describe('the roles a server lists from a hand-written permissions.json', () => {
  const made = makeProject();
  let s: TestServer;
  beforeAll(async () => {
    writeFileSync(
      join(made.contentDir, 'permissions.json'),
      JSON.stringify({
        roles: {
          public: { name: 'Public', description: '', permissions: ['api::article.article.find'] },
          editor: { name: 'Editor', description: '', permissions: [], id: 7 },
          // Ids 1 and 2 are Strapi's authenticated and public; a fraction is no id: both get the next free one.
          clash: { name: 'Clash', description: '', permissions: [], id: 2 },
          half: { name: 'Half', description: '', permissions: [], id: 7.5 },
        },
      }),
    );
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  it('keeps the id a custom role was written with, and numbers the others after the highest', async () => {
    const res = await s.api('/api/users-permissions/roles');
    expect(res.status).toBe(200);
    const ids = Object.fromEntries(res.body.roles.map((r: { type: string; id: number }) => [r.type, r.id]));
    expect(ids).toEqual({ authenticated: 1, public: 2, editor: 7, clash: 8, half: 9 });
  });

  it('writes the file back sorted, with the ids it handed out, when a role changes', async () => {
    const res = await s.api('/api/users-permissions/roles/7', {
      method: 'PUT',
      body: { permissions: { 'api::tag': { controllers: { tag: { find: { enabled: true } } } } } },
    });
    expect(res.status).toBe(200);
    const written = JSON.parse(readFileSync(join(made.contentDir, 'permissions.json'), 'utf8')).roles;
    expect(Object.keys(written)).toEqual(['authenticated', 'clash', 'editor', 'half', 'public']);
    expect(written.editor).toEqual({ id: 7, name: 'Editor', description: '', permissions: ['api::tag.tag.find'] });
  });
});

describe('the actions a role may be given', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it("lists each plugin's actions as Strapi 5 names them (and Folio's git pull), each one grantable", async () => {
    const res = await s.api('/api/users-permissions/permissions');
    expect(res.status).toBe(200);
    const tree = res.body.permissions as Record<string, { controllers: Record<string, Record<string, unknown>> }>;
    const plugins = Object.fromEntries(
      Object.entries(tree)
        .filter(([api]) => api.startsWith('plugin::'))
        .map(([api, { controllers }]) => [
          api,
          Object.fromEntries(Object.entries(controllers).map(([c, verbs]) => [c, Object.keys(verbs).sort()])),
        ]),
    );
    expect(plugins).toEqual({
      'plugin::users-permissions': {
        auth: [
          'callback',
          'changePassword',
          'connect',
          'emailConfirmation',
          'forgotPassword',
          'getSessions',
          'logout',
          'refresh',
          'register',
          'resetPassword',
          'revokeSession',
          'sendEmailConfirmation',
        ],
        user: ['count', 'create', 'destroy', 'find', 'findOne', 'me', 'update'],
        role: ['createRole', 'deleteRole', 'find', 'findOne', 'updateRole'],
        permissions: ['getPermissions'],
      },
      'plugin::upload': { 'content-api': ['destroy', 'find', 'findOne', 'findPage', 'upload'] },
      'plugin::i18n': { locales: ['listLocales'] },
      'plugin::email': { email: ['send'] },
      'plugin::content-type-builder': {
        'content-types': ['getContentType', 'getContentTypes'],
        components: ['getComponent', 'getComponents'],
      },
      'plugin::folio': { git: ['pull'] },
    });
    const names = Object.entries(plugins).flatMap(([api, controllers]) =>
      Object.entries(controllers).flatMap(([c, verbs]) => verbs.map((v) => `${api}.${c}.${v}`)),
    );
    const grant = (...args: string[]) => runFolio(['permissions', 'grant', ...args, '--dir', s.dir]);
    const granted = await grant('--role', 'plugins', '--create-role', ...names);
    expect([granted.code, granted.stderr]).toEqual([0, '']);
    const refused = await grant('--role', 'plugins', 'plugin::users-permissions.auth.nope');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"plugin::users-permissions.auth.nope" is not a plugin action Folio knows');
  });
});

describe('the actions `folio permissions grant` takes', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());
  const grant = (...args: string[]) =>
    runFolio(['permissions', 'grant', '--role', 'editor', '--create-role', ...args, '--dir', made.dir]);
  const granted = async (...actions: string[]) => {
    const r = await grant('--json', ...actions);
    expect([r.code, r.stderr]).toEqual([0, '']);
    return JSON.parse(r.stdout).granted as string[];
  };

  it("takes Strapi's names and the shorthands type.verb, types:verb and type.* (every verb of the type)", async () => {
    expect(await granted('api::article.article.find', 'plugin::upload.content-api.upload')).toEqual([
      'api::article.article.find',
      'plugin::upload.content-api.upload',
    ]);
    expect(await granted('article.findOne', 'articles:update', 'tag.*')).toEqual([
      'api::article.article.findOne',
      'api::article.article.update',
      ...['find', 'findOne', 'create', 'update', 'delete'].map((v) => `api::tag.tag.${v}`),
    ]);
    expect(await granted('global.*', 'api::about.about.*')).toEqual([
      ...['find', 'update', 'delete'].map((v) => `api::global.global.${v}`),
      ...['find', 'update', 'delete'].map((v) => `api::about.about.${v}`),
    ]);
  });

  it.each([
    ['api::nope.nope.find', '"api::nope.nope.find" does not name a content-type of this project'],
    ['api::api::article.article.find', 'does not name a content-type of this project'],
    ['api::article.article.find!', 'does not name a content-type of this project'],
    ['api::article.article.publish', '"publish" is not an action of api::article.article (find, findOne, create'],
    ['global.findOne', '"findOne" is not an action of api::global.global (find, update, delete)'],
    ['nope.find', '"nope" is not a content-type of this project'],
    ['article', '"article" is not an action: use e.g. api::article.article.find, article.find or article.*'],
    ['#article.find', '"#article.find" is not an action'],
    ['article.find!', '"article.find!" is not an action'],
    ['plugin::upload.content-api.uplod', '"plugin::upload.content-api.uplod" is not a plugin action Folio knows ('],
  ])('refuses %s, saying why', async (action, message) => {
    const r = await grant(action);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
  });
});
