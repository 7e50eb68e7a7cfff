import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';

/** Roles over REST (`/api/users-permissions/roles`): each change is a change of content/permissions.json. */
describe('users-permissions roles and permissions', () => {
  let s: TestServer;
  const permissionsFile = () => JSON.parse(readFileSync(join(s.contentDir, 'permissions.json'), 'utf8'));
  const tree = (actions: string[]) => {
    const out: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> = {};
    for (const a of actions) {
      const [, api, controller, verb] = /^(.+)\.([^.]+)\.([^.]+)$/.exec(a)!;
      ((out[api] ??= { controllers: {} }).controllers[controller] ??= {})[verb] = { enabled: true };
    }
    return out;
  };
  const logIn = async (identifier: string, password: string) =>
    (await s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password } })).body
      .jwt as string;
  const createArticle = (jwt: string) =>
    s.api('/api/articles', {
      anonymous: true,
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: { data: { title: `by role ${Math.random()}` } },
    });

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it("lists the roles with Strapi's ids and user counts", async () => {
    await s.api('/api/users', {
      method: 'POST',
      body: { username: 'counted', email: 'counted@example.com', password: 'counted-pass', role: 1, confirmed: true },
    });
    const res = await s.api('/api/users-permissions/roles');
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.roles.map((r: { type: string }) => [r.type, r]));
    expect(byType.authenticated).toMatchObject({ id: 1, name: 'Authenticated', nb_users: 1 });
    expect(byType.public).toMatchObject({ id: 2, name: 'Public', nb_users: 0 });
  });

  it('lists every action there is as a tree of controllers', async () => {
    const res = await s.api('/api/users-permissions/permissions');
    expect(res.status).toBe(200);
    expect(res.body.permissions['api::article'].controllers.article.find).toEqual({ enabled: false, policy: '' });
    expect(Object.keys(res.body.permissions['api::global'].controllers.global).sort()).toEqual([
      'delete',
      'find',
      'update',
    ]);
    expect(res.body.permissions['plugin::users-permissions'].controllers.auth.callback).toEqual({
      enabled: false,
      policy: '',
    });
  });

  it('creates a role that takes effect at once, with a stable id written to permissions.json', async () => {
    const res = await s.api('/api/users-permissions/roles', {
      method: 'POST',
      body: {
        name: 'Éditeur en chef',
        description: 'Edits',
        permissions: tree(['api::article.article.find', 'api::article.article.create']),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(permissionsFile().roles.editeur_en_chef).toEqual({
      id: 3,
      name: 'Éditeur en chef',
      description: 'Edits',
      permissions: ['api::article.article.create', 'api::article.article.find'],
    });
    const one = await s.api('/api/users-permissions/roles/3');
    expect(one.body.role).toMatchObject({ id: 3, type: 'editeur_en_chef' });
    expect(one.body.role.permissions['api::article'].controllers.article.create.enabled).toBe(true);
    expect(one.body.role.permissions['api::article'].controllers.article.delete.enabled).toBe(false);

    await s.api('/api/users', {
      method: 'POST',
      body: { username: 'chief', email: 'chief@example.com', password: 'chief-pass', role: 3, confirmed: true },
    });
    expect((await createArticle(await logIn('chief', 'chief-pass'))).status).toBe(201);
  });

  it('updates a role: taking a permission away refuses it at once; ids stay put when roles are added', async () => {
    const res = await s.api('/api/users-permissions/roles/3', {
      method: 'PUT',
      body: { description: 'Reads only', permissions: tree(['api::article.article.find']) },
    });
    expect(res.body).toEqual({ ok: true });
    expect(permissionsFile().roles.editeur_en_chef).toMatchObject({
      description: 'Reads only',
      permissions: ['api::article.article.find'],
    });
    expect((await createArticle(await logIn('chief', 'chief-pass'))).status).toBe(403);
    // A role whose key sorts first does not take id 3.
    expect(
      (await s.api('/api/users-permissions/roles', { method: 'POST', body: { name: 'aaa', permissions: {} } })).status,
    ).toBe(200);
    const ids = Object.fromEntries(
      (await s.api('/api/users-permissions/roles')).body.roles.map((r: { type: string; id: number }) => [r.type, r.id]),
    );
    expect(ids).toMatchObject({ editeur_en_chef: 3, aaa: 4 });
  });

  it.each([
    ['no name', { permissions: {} }, 'name is a required field'],
    [
      'an action the project does not have',
      { name: 'Bad', permissions: tree(['api::nope.nope.find']) },
      'Unknown action api::nope.nope.find',
    ],
  ])('refuses a role with %s (400) and writes nothing', async (_label, body, message) => {
    const before = readFileSync(join(s.contentDir, 'permissions.json'), 'utf8');
    const res = await s.api('/api/users-permissions/roles', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(readFileSync(join(s.contentDir, 'permissions.json'), 'utf8')).toBe(before);
  });

  it('deletes a custom role (its users fall back to public); the default roles stay', async () => {
    const user = (await s.api('/api/users?filters[username][$eq]=chief')).body[0];
    expect((await s.api('/api/users-permissions/roles/3', { method: 'DELETE' })).body).toEqual({ ok: true });
    expect(permissionsFile().roles.editeur_en_chef).toBeUndefined();
    expect((await s.api(`/api/users/${user.id}?populate=role`)).body.role.type).toBe('public');
    expect((await s.api('/api/users-permissions/roles/3')).status).toBe(404);
    const pub = await s.api('/api/users-permissions/roles/2', { method: 'DELETE' });
    expect(pub.status).toBe(400);
    expect(pub.body.error.message).toBe('Cannot delete public role');
  });

  it('is refused to callers without the role actions', async () => {
    expect((await s.api('/api/users-permissions/roles', { anonymous: true })).status).toBe(403);
    expect(
      (await s.api('/api/users-permissions/roles', { anonymous: true, method: 'POST', body: { name: 'x' } })).status,
    ).toBe(403);
  });
});
