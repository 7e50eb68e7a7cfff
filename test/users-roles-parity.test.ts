import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type ApiAnswer, type TestServer } from './helpers/project.js';
import { bearer } from './helpers/auth.js';

/**
 * Users & roles (`plugin::users-permissions`) as Strapi 5.54 answers them to the apps that manage users: the
 * role populated on every users route, the users list's parameters, sign-in without e-mail confirmation, the roles
 * routes' messages, the permission tree of every installed plugin; and where Folio stays stricter.
 */
describe('users & roles as Strapi answers them', () => {
  let s: TestServer;
  const logged: string[] = [];
  const error = (res: ApiAnswer, status: number, name: string, message: string) => {
    expect(res.status, res.text).toBe(status);
    expect(res.body.error).toMatchObject({ status, name, message });
  };
  const signIn = (identifier: string, password: string) =>
    s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password } });
  const createUser = (body: Record<string, unknown>) => s.api('/api/users', { method: 'POST', body });

  beforeAll(async () => {
    s = await startTestServer({
      config: { users: { ratelimit: { enabled: false } } },
      app: { log: (m: string) => logged.push(m) },
    });
    for (const [username, role] of [
      ['ada', 1],
      ['bob', 2],
      ['cyd', 1],
    ] as const)
      expect(
        (await createUser({ username, email: `${username}@example.com`, password: 'secret-pass', role })).status,
      ).toBe(201);
  });
  afterAll(() => s.stop());

  describe('the role of a user', () => {
    const ROLE_KEYS = ['createdAt', 'description', 'documentId', 'id', 'name', 'publishedAt', 'type', 'updatedAt'];

    it('comes back with populate=role on the list, one user and me: the role document itself', async () => {
      const role = (await s.api('/api/users-permissions/roles/1')).body.role;
      const { permissions: _tree, ...authenticated } = role;
      expect(Object.keys(authenticated).sort()).toEqual(ROLE_KEYS);

      const list = await s.api('/api/users?populate=role&sort=id');
      expect(list.body.map((u: { role: { type: string } }) => u.role.type)).toEqual([
        'authenticated',
        'public',
        'authenticated',
      ]);
      expect(list.body[0].role).toEqual(authenticated);
      const listed = (await s.api('/api/users-permissions/roles')).body.roles;
      const { nb_users: _n, ...inList } = listed.find((r: { id: number }) => r.id === 1);
      expect(inList).toEqual(authenticated);

      const ada = list.body[0];
      for (const q of ['populate=role', 'populate[role]=true', 'populate[0]=role', 'populate=*'])
        expect((await s.api(`/api/users/${ada.id}?${q}`)).body.role, q).toEqual(authenticated);
      const jwt = (await signIn('ada', 'secret-pass')).body.jwt;
      const me = await s.api('/api/users/me?populate=role', { anonymous: true, headers: bearer(jwt) });
      expect(me.body.role).toEqual(authenticated);
    });

    it('takes fields and filters inside populate[role]; populate[role]=false leaves it out', async () => {
      const named = await s.api('/api/users?populate[role][fields][0]=name&sort=id');
      expect(named.status, named.text).toBe(200);
      expect(named.body[0].role).toEqual({ id: 1, documentId: expect.any(String), name: 'Authenticated' });
      const filtered = await s.api('/api/users?populate[role][filters][type][$eq]=public&sort=id');
      expect(filtered.body.map((u: { role: unknown }) => u.role && (u.role as { type: string }).type)).toEqual([
        null,
        'public',
        null,
      ]);
      const off = await s.api('/api/users?populate[role]=false');
      expect(off.body[0]).not.toHaveProperty('role');
    });

    it('refuses keys Strapi refuses inside populate[role], naming the key and the populated relation', async () => {
      const res = await s.api('/api/users?populate[role][nope]=1');
      error(res, 400, 'ValidationError', 'Invalid key nope at role');
      expect(res.body.error.details).toMatchObject({ key: 'nope', path: 'role', param: 'populate' });
      error(await s.api('/api/users?populate=nope'), 400, 'ValidationError', 'Invalid key nope');
      // Where Strapi's validator places each key: nowhere (null) for a nested field name and an unknown relation.
      for (const [query, message, key, path] of [
        ['populate[role][fields][0]=nope', 'Invalid key nope', 'nope', null],
        ['populate[role][fields][0]=users', 'Invalid key users', 'users', 'users'],
        ['populate[nope]=1', 'Invalid key nope', 'nope', null],
        ['populate[role]=nope', 'Invalid key nope at role', 'nope', 'role'],
        ['populate=role.name', 'Invalid key name at role.name', 'name', 'role.name'],
        ['populate[role][filters][nope]=1', 'Invalid key nope', 'nope', null],
      ] as const) {
        const answer = await s.api(`/api/users?${query}`);
        error(answer, 400, 'ValidationError', message);
        expect(answer.body.error.details, query).toEqual({ key, path, source: 'query', param: 'populate' });
      }
      const password = await s.api('/api/users?fields[0]=password');
      expect(password.body.error.details).toMatchObject({ key: 'password', path: 'password', param: 'fields' });
    });
  });

  describe('the users list', () => {
    it('ignores pagination[...] and returns the whole list; start and limit slice it', async () => {
      const all = await s.api('/api/users?pagination[page]=1&pagination[pageSize]=1');
      expect(all.status, all.text).toBe(200);
      expect(all.body).toHaveLength(3);
      expect((await s.api('/api/users?page=1&pageSize=1')).body).toHaveLength(3);
      const sliced = await s.api('/api/users?sort=username:desc&start=1&limit=1');
      expect(sliced.body.map((u: { username: string }) => u.username)).toEqual(['bob']);
      expect((await s.api('/api/users?limit=-1')).body).toHaveLength(3);
      // Parameters Strapi does not know are not refused on these routes.
      expect((await s.api('/api/users?whatever=1')).status).toBe(200);
    });

    it("checks page parameters as Strapi's query transform does", async () => {
      error(
        await s.api('/api/users?page=abc'),
        400,
        'PaginationError',
        "Invalid 'page' parameter. Expected an integer > 0, received: abc",
      );
      error(
        await s.api('/api/users?page=1&start=0'),
        400,
        'PaginationError',
        'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object',
      );
      error(
        await s.api('/api/users?start=-1'),
        400,
        'ValidationError',
        'convertStartQueryParams expected a positive integer got -1',
      );
    });

    it('searches with _q in public fields only: never the password hash', async () => {
      const found = await s.api('/api/users?_q=BO');
      expect(found.body.map((u: { username: string }) => u.username)).toEqual(['bob']);
      expect((await s.api('/api/users?_q=example.com')).body).toHaveLength(3);
      // Every password hash holds "$" (and scrypt's marker): Strapi's search would match them all.
      expect((await s.api('/api/users?_q=$')).body).toEqual([]);
      expect((await s.api('/api/users/count?_q=ada')).body).toBe(1);
    });
  });

  describe('sign-in and blocking', () => {
    it('signs in a user whose e-mail is not confirmed while confirmation is off (the default)', async () => {
      await createUser({
        username: 'unconf',
        email: 'unconf@example.com',
        password: 'secret-pass',
        confirmed: false,
        role: 1,
      });
      const res = await signIn('unconf', 'secret-pass');
      expect(res.status, res.text).toBe(200);
      expect(res.body.user.confirmed).toBe(false);
    });

    it('answers a blocked user’s JWT 401 "Invalid credentials", and ends its sessions for good', async () => {
      await createUser({ username: 'blockme', email: 'blockme@example.com', password: 'secret-pass', role: 1 });
      const signedIn = await signIn('blockme', 'secret-pass');
      const login = signedIn.body;
      // The refresh token travels in the cookie (users.httpOnly, the default).
      let cookie = String(signedIn.headers.get('set-cookie')).split(';')[0];
      const refresh = () =>
        s.api('/api/auth/refresh', { anonymous: true, method: 'POST', headers: { cookie }, body: {} });
      const first = await refresh();
      expect(first.status, first.text).toBe(200);
      cookie = String(first.headers.get('set-cookie')).split(';')[0];
      const me = () => s.api('/api/users/me', { anonymous: true, headers: bearer(login.jwt) });
      expect((await me()).status).toBe(200);
      await s.api(`/api/users/${login.user.id}`, { method: 'PUT', body: { blocked: true } });
      error(await me(), 401, 'UnauthorizedError', 'Invalid credentials');
      error(
        await signIn('blockme', 'secret-pass'),
        400,
        'ApplicationError',
        'Your account has been blocked by an administrator',
      );
      // Unblocked, the user signs in again; the tokens of before stay refused (Strapi revives them).
      await s.api(`/api/users/${login.user.id}`, { method: 'PUT', body: { blocked: false } });
      expect((await me()).status).toBe(401);
      const refreshed = await refresh();
      expect(refreshed.status).toBe(401);
      expect((await signIn('blockme', 'secret-pass')).status).toBe(200);
    });
  });

  describe('the users routes’ messages', () => {
    it('says a duplicate username through POST /api/users as Strapi does, and an e-mail taken first', async () => {
      error(
        await createUser({ username: 'ada', email: 'other@example.com', password: 'secret-pass', role: 1 }),
        400,
        'ApplicationError',
        'This attribute must be unique',
      );
      error(
        await createUser({ username: 'ada', email: 'bob@example.com', password: 'secret-pass', role: 1 }),
        400,
        'ApplicationError',
        'Email already taken',
      );
      const bob = (await s.api('/api/users?filters[username][$eq]=bob')).body[0];
      error(
        await s.api(`/api/users/${bob.id}`, { method: 'PUT', body: { username: 'ada' } }),
        400,
        'ApplicationError',
        'Username already taken',
      );
    });

    it('keeps one user of several created at once with one username', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createUser({ username: 'twin', email: `twin${i}@example.com`, password: 'secret-pass', role: 1 }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
      expect((await s.api('/api/users?filters[username][$eq]=twin')).body).toHaveLength(1);
    });
  });

  describe('the roles routes', () => {
    const roles = (path = '', init: { method?: string; body?: unknown } = {}) =>
      s.api(`/api/users-permissions/roles${path}`, init);

    it("answer Strapi's messages and statuses", async () => {
      error(await roles('/99'), 404, 'NotFoundError', 'Role not found');
      error(await roles('/99', { method: 'PUT', body: {} }), 400, 'ValidationError', 'Request body cannot be empty');
      error(await roles('/1', { method: 'PUT', body: {} }), 400, 'ValidationError', 'Request body cannot be empty');
      error(await roles('/99', { method: 'PUT', body: { name: 'X' } }), 404, 'NotFoundError', 'Role not found');
      error(await roles('', { method: 'POST', body: {} }), 400, 'ValidationError', 'Request body cannot be empty');
      error(await roles('/2', { method: 'DELETE' }), 400, 'ApplicationError', 'Cannot delete public role');
      error(await roles('/99', { method: 'DELETE' }), 404, 'NotFoundError', 'Role not found');
      // Folio keeps the authenticated role, which new users are given.
      error(await roles('/1', { method: 'DELETE' }), 400, 'ApplicationError', 'Cannot delete authenticated role');
      // A role read alone is the role and its permission tree, as Strapi's (no users).
      expect(Object.keys((await roles('/1')).body.role)).not.toContain('users');
    });

    it('list every installed plugin’s actions in the tree, the e-mail plugin’s send included', async () => {
      const tree = (await roles('/2')).body.role.permissions;
      expect(
        Object.keys(tree)
          .filter((k) => k.startsWith('plugin::'))
          .sort(),
      ).toEqual([
        'plugin::content-type-builder',
        'plugin::email',
        // Folio's own actions (the git pull hook's), grantable like any other.
        'plugin::folio',
        'plugin::i18n',
        'plugin::upload',
        'plugin::users-permissions',
      ]);
      expect(tree['plugin::email'].controllers).toEqual({ email: { send: { enabled: false, policy: '' } } });
      expect(Object.keys(tree['plugin::upload'].controllers['content-api']).sort()).toEqual([
        'destroy',
        'find',
        'findOne',
        'findPage',
        'upload',
      ]);
      expect((await s.api('/api/users-permissions/permissions')).body.permissions['plugin::email']).toEqual({
        controllers: { email: { send: { enabled: false, policy: '' } } },
      });
    });

    it('lets a role granted email.send send through POST /api/email (written to the log)', async () => {
      const denied = await s.api('/api/email', {
        anonymous: true,
        method: 'POST',
        body: { to: 'x@example.com', subject: 'Hi', text: 'Hello' },
      });
      expect(denied.status).toBe(403);
      const sent = await s.api('/api/email', {
        method: 'POST',
        body: { to: 'x@example.com', subject: 'Hi', text: 'Hello' },
      });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({});
      expect(logged.some((l) => l.includes('e-mail to x@example.com') && l.includes('Hi: Hello'))).toBe(true);
      error(
        await s.api('/api/email', { method: 'POST', body: { subject: 'x' } }),
        400,
        'ApplicationError',
        'No recipient(s) are given',
      );
    });

    it('hold role names unique and not empty (stricter than Strapi), and write nothing when refusing', async () => {
      const file = () => readFileSync(join(s.contentDir, 'permissions.json'), 'utf8');
      const before = file();
      const dup = await roles('', { method: 'POST', body: { name: 'authenticated', permissions: {} } });
      error(dup, 400, 'ValidationError', 'This attribute must be unique');
      expect(dup.body.error.details.errors[0].path).toEqual(['name']);
      expect((await roles('', { method: 'POST', body: { name: 'Writers', permissions: {} } })).status).toBe(200);
      const id = (await roles()).body.roles.find((r: { name: string }) => r.name === 'Writers').id;
      error(
        await roles(`/${id}`, { method: 'PUT', body: { name: 'Public' } }),
        400,
        'ValidationError',
        'This attribute must be unique',
      );
      error(
        await roles(`/${id}`, { method: 'PUT', body: { name: '  ' } }),
        400,
        'ValidationError',
        'name cannot be empty',
      );
      expect((await roles(`/${id}`, { method: 'PUT', body: { name: 'Writers', description: 'd' } })).status).toBe(200);
      expect(file()).not.toBe(before);
    });
  });
});
