import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import {
  USER_KEYS,
  bearer,
  expiredJwt,
  expiredToken,
  filesHolding,
  jwtPayload,
  writePermissions,
} from './helpers/auth.js';
import { AuthService, createApiToken } from '../src/auth/service.js';
import { openProject } from '../src/project.js';

type Res = Awaited<ReturnType<TestServer['api']>>;

const UNAUTHORIZED = { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} };
const FORBIDDEN = { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} };

/** Every credential kind against public and private routes: who gets what, with Strapi's status codes. */
describe('users & permissions: who may do what', () => {
  let s: TestServer;
  let auth: AuthService;
  const creds: Record<string, Record<string, string>> = {};
  let articleId = '';
  let tagId = '';
  let n = 0;

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { max: 1000 } } } });
    auth = new AuthService(s.dir);
    articleId = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Public one' } } })).body.data
      .documentId;
    tagId = (await s.api('/api/tags', { method: 'POST', body: { data: { name: 'private-tag' } } })).body.data
      .documentId;
    const reg = await s.api('/api/auth/local/register', {
      anonymous: true,
      method: 'POST',
      body: { username: 'reader', email: 'Reader@Example.com', password: 'reader-pass' },
    });
    expect(reg.status).toBe(200);
    creds.none = {};
    creds.basic = { authorization: 'Basic dXNlcjpwYXNz' };
    creds.user = bearer(reg.body.jwt);
    creds.readOnly = bearer(auth.createToken({ name: 'ro', type: 'read-only' }).accessKey);
    creds.fullAccess = bearer(s.token);
    creds.custom = bearer(
      auth.createToken({
        name: 'custom',
        type: 'custom',
        actions: ['api::tag.tag.findOne', 'api::article.article.create', 'plugin::i18n.locales.listLocales'],
      }).accessKey,
    );
    const revoked = auth.createToken({ name: 'revoked', type: 'full-access' });
    auth.revokeToken('revoked');
    creds.revoked = bearer(revoked.accessKey);
    creds.expiredToken = bearer(expiredToken(s.dir, 'expired'));
    creds.expiredJwt = bearer(
      await expiredJwt(s.dir, { id: reg.body.user.id, sessionId: jwtPayload(reg.body.jwt).sessionId, type: 'access' }),
    );
    creds.garbage = bearer('not-a-token');
  });
  afterAll(async () => {
    await s.stop();
  });

  const as = (who: string, path: string, method = 'GET', body?: unknown) =>
    s.api(path, { anonymous: true, method, headers: creds[who], body });
  const fresh = async (plural: string, data: Record<string, unknown>) =>
    (await s.api(`/api/${plural}`, { method: 'POST', body: { data } })).body.data.documentId as string;

  const routes: Array<[string, (who: string) => Promise<Res>]> = [
    ['article find', (w) => as(w, '/api/articles')],
    ['article findOne', (w) => as(w, `/api/articles/${articleId}`)],
    ['article create', (w) => as(w, '/api/articles', 'POST', { data: { title: `by ${w} ${++n}` } })],
    ['article update', (w) => as(w, `/api/articles/${articleId}`, 'PUT', { data: {} })],
    [
      'article delete',
      async (w) => as(w, `/api/articles/${await fresh('articles', { title: `doomed ${++n}` })}`, 'DELETE'),
    ],
    ['tag find', (w) => as(w, '/api/tags')],
    ['tag findOne', (w) => as(w, `/api/tags/${tagId}`)],
    ['tag create', (w) => as(w, '/api/tags', 'POST', { data: { name: `tag ${w} ${++n}` } })],
    ['tag update', (w) => as(w, `/api/tags/${tagId}`, 'PUT', { data: {} })],
    ['tag delete', async (w) => as(w, `/api/tags/${await fresh('tags', { name: `doomed ${++n}` })}`, 'DELETE')],
    ['users/me', (w) => as(w, '/api/users/me')],
    ['i18n locales', (w) => as(w, '/api/i18n/locales')],
  ];
  const allOf = (status: number) => routes.map(() => status);
  // Public may find/findOne articles (granted), nothing on tags, nothing on the locales endpoint.
  const matrix: Record<string, number[]> = {
    //            article: find findOne create update delete | tag: find findOne create update delete | me | locales
    none: [200, 200, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403],
    basic: [200, 200, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403],
    user: [200, 200, 201, 200, 204, 200, 200, 201, 200, 204, 200, 403],
    readOnly: [200, 200, 403, 403, 403, 200, 200, 403, 403, 403, 403, 403],
    fullAccess: [200, 200, 201, 200, 204, 200, 200, 201, 200, 204, 401, 200],
    custom: [403, 403, 201, 403, 403, 403, 200, 403, 403, 403, 403, 200],
    revoked: allOf(401),
    expiredToken: allOf(401),
    expiredJwt: allOf(401),
    garbage: allOf(401),
  };

  it.each(Object.entries(matrix))('%s', async (who, expected) => {
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const [i, [name, run]] of routes.entries()) {
      const res = await run(who);
      got[name] = res.status;
      want[name] = expected[i];
      if (res.status === 403) expect(res.body.error, name).toEqual(FORBIDDEN);
      if (res.status === 401) expect(res.body.error.name, name).toBe('UnauthorizedError');
    }
    expect(got).toEqual(want);
  });

  it("answers 401 with Strapi's messages", async () => {
    for (const who of ['garbage', 'revoked', 'expiredJwt'])
      expect((await as(who, '/api/articles')).body.error, who).toEqual(UNAUTHORIZED);
    expect((await as('expiredToken', '/api/articles')).body.error).toEqual({
      ...UNAUTHORIZED,
      message: 'Token expired',
    });
    // users/me passes the permission check for a full-access token, but there is no user: Strapi's ctx.unauthorized().
    expect((await as('fullAccess', '/api/users/me')).body.error).toEqual({ ...UNAUTHORIZED, message: 'Unauthorized' });
    // The scheme is case-insensitive; anything but exactly two parts is not a bearer header (so: public).
    expect(
      (await s.api('/api/tags', { anonymous: true, headers: { authorization: `bEaReR ${s.token}` } })).status,
    ).toBe(200);
    expect((await s.api('/api/tags', { anonymous: true, headers: { authorization: 'Bearer' } })).status).toBe(403);
  });

  it('checks the route (404, 405) before the credentials', async () => {
    expect((await as('garbage', '/api/nope')).status).toBe(404);
    expect((await as('garbage', '/api/articles', 'DELETE')).status).toBe(405);
    expect((await as('garbage', '/api/users/me', 'POST', {})).status).toBe(405);
  });

  it('drops populated relations the caller may not find, and refuses filters on them', async () => {
    await s.api(`/api/articles/${articleId}`, { method: 'PUT', body: { data: { tags: [tagId] } } });
    const pub = await as('none', `/api/articles/${articleId}?populate=*`);
    expect(pub.status).toBe(200);
    expect(pub.body.data.tags).toBeUndefined();
    expect(pub.body.data.category).toBeDefined(); // category is public: populated (null here)
    for (const who of ['fullAccess', 'readOnly', 'user']) {
      expect((await as(who, `/api/articles/${articleId}?populate=*`)).body.data.tags, who).toHaveLength(1);
    }
    const filtered = await as('none', '/api/articles?filters[tags][name][$eq]=private-tag');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error.message).toBe('Invalid key tags');
    expect((await as('user', '/api/articles?filters[tags][name][$eq]=private-tag')).body.data).toHaveLength(1);
  });

  // §10.1 item 3: a relation in a write body to a type the caller cannot `find` is refused.
  it('refuses a body relation to a type the caller cannot find (custom token with article.create only)', async () => {
    const refused = await as('custom', '/api/articles', 'POST', { data: { title: 'Tagged by custom', tags: [tagId] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key tags',
      details: { key: 'tags', path: 'tags', source: 'body' },
    });
    const allowed = await as('custom', '/api/articles', 'POST', { data: { title: 'Untagged by custom' } });
    expect(allowed.status).toBe(201);
    expect(
      (await as('fullAccess', '/api/articles', 'POST', { data: { title: 'Tagged by full access', tags: [tagId] } }))
        .status,
    ).toBe(201);
  });

  it('never returns private attributes', async () => {
    await s.api(`/api/articles/${articleId}`, { method: 'PUT', body: { data: { secretNote: 'hidden' } } });
    for (const who of ['none', 'fullAccess', 'user'])
      expect((await as(who, `/api/articles/${articleId}`)).text).not.toContain('hidden');
  });

  it('takes tokens created and revoked by another process at once', async () => {
    const { accessKey } = await createApiToken(s.dir, { name: 'late', type: 'read-only' });
    expect((await s.api('/api/tags', { anonymous: true, headers: bearer(accessKey) })).status).toBe(200);
    new AuthService(s.dir).revokeToken('late');
    expect((await s.api('/api/tags', { anonymous: true, headers: bearer(accessKey) })).body.error).toEqual(
      UNAUTHORIZED,
    );
  });

  it('lists users for callers with user.find, with filters, sort, paging, fields and the role', async () => {
    await new AuthService(s.dir).createUser({
      username: 'writer',
      email: 'writer@example.com',
      password: 'writer-pass',
    });
    expect((await as('user', '/api/users')).status).toBe(403); // authenticated lacks user.find, as in Strapi
    const list = await as('fullAccess', '/api/users?sort=username:desc');
    expect(list.status).toBe(200);
    expect(list.body.map((u: { username: string }) => u.username)).toEqual(['writer', 'reader']);
    expect(Object.keys(list.body[0]).sort()).toEqual(USER_KEYS);
    expect((await as('fullAccess', '/api/users?filters[username][$eq]=reader')).body).toHaveLength(1);
    expect(
      (await as('fullAccess', '/api/users?sort=username&start=1&limit=1')).body.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['writer']);
    expect((await as('fullAccess', '/api/users?fields=username')).body[0]).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      username: expect.any(String),
    });
    expect(
      (await as('fullAccess', '/api/users?populate=role&filters[role][type]=authenticated')).body[0].role,
    ).toMatchObject({ id: 1, name: 'Authenticated', type: 'authenticated' });
    const bad = await as('fullAccess', '/api/users?filters[password][$eq]=x');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid key password');
    // Strict parameters do not apply to the users routes, as in Strapi: an unknown one is ignored.
    expect((await as('fullAccess', '/api/users?nope=1')).status).toBe(200);
    const count = await as('fullAccess', '/api/users/count');
    expect(count.body).toBe(2);
    expect((await as('fullAccess', '/api/users/count?filters[email][$contains]=writer')).body).toBe(1);
    const one = await as('fullAccess', `/api/users/${list.body[1].id}`);
    expect(one.body.username).toBe('reader');
    const missing = await as('fullAccess', '/api/users/999');
    expect(missing.status).toBe(204);
    expect(missing.text).toBe('');
    expect((await as('readOnly', '/api/users')).status).toBe(200); // read-only tokens may use every find
    expect((await as('readOnly', '/api/users/count')).status).toBe(403);
  });
});

describe('users & permissions: accounts and sessions', () => {
  let s: TestServer;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    s.api(path, { anonymous: true, method: 'POST', body, headers });
  const me = (jwt: string) => s.api('/api/users/me', { anonymous: true, headers: bearer(jwt) });

  // Refresh tokens in the JSON body (`users.httpOnly: false`); the default cookie is tested below.
  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false }, httpOnly: false } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it("registers and logs in with Strapi's shapes", async () => {
    const reg = await post('/api/auth/local/register', {
      username: 'Ada',
      email: 'Ada@Example.com',
      password: 'ada-pass-1',
    });
    expect(reg.status).toBe(200);
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(Object.keys(reg.body.user).sort()).toEqual(USER_KEYS);
    expect(reg.body.user).toMatchObject({
      username: 'Ada',
      email: 'ada@example.com',
      provider: 'local',
      confirmed: true,
      blocked: false,
    });
    // A 10-minute access token tied to a session.
    const payload = jwtPayload(reg.body.jwt);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(600);
    expect(payload).toMatchObject({ id: reg.body.user.id, type: 'access', sessionId: expect.any(String) });
    for (const identifier of ['ada@example.com', 'ADA@example.com', 'Ada']) {
      const login = await post('/api/auth/local', { identifier, password: 'ada-pass-1' });
      expect(login.status, identifier).toBe(200);
      expect(Object.keys(login.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect(login.body.user.password).toBeUndefined();
    }
    const m = await me(reg.body.jwt);
    expect(m.status).toBe(200);
    expect(m.body).toEqual(reg.body.user);
    expect(
      (await s.api('/api/users/me?fields=username&populate=role', { anonymous: true, headers: bearer(reg.body.jwt) }))
        .body,
    ).toEqual({
      id: reg.body.user.id,
      documentId: reg.body.user.documentId,
      username: 'Ada',
      role: expect.objectContaining({ type: 'authenticated' }),
    });
  });

  it("refuses wrong passwords and bad registrations with Strapi's errors", async () => {
    const bad = await post('/api/auth/local', { identifier: 'Ada', password: 'nope-nope' });
    expect(bad.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid identifier or password',
      details: {},
    });
    expect((await post('/api/auth/local', { identifier: 'nobody', password: 'nope-nope' })).body.error.message).toBe(
      'Invalid identifier or password',
    );
    expect((await post('/api/auth/local', { identifier: 'Ada' })).body.error.message).toBe(
      'password is a required field',
    );
    const taken = await post('/api/auth/local/register', {
      username: 'ada2',
      email: 'ADA@example.com',
      password: 'whatever1',
    });
    expect(taken.body.error).toEqual({
      status: 400,
      name: 'ApplicationError',
      message: 'Email or Username are already taken',
      details: {},
    });
    expect(
      (
        await post('/api/auth/local/register', {
          username: 'ada@example.com',
          email: 'other@example.com',
          password: 'whatever1',
        })
      ).body.error.message,
    ).toBe('Email or Username are already taken');
    expect(
      (
        await post('/api/auth/local/register', {
          username: 'x1234',
          email: 'x@example.com',
          password: 'whatever1',
          role: 'admin',
        })
      ).body.error,
    ).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid parameters: role', details: {} });
    const short = await post('/api/auth/local/register', {
      username: 'bob',
      email: 'bob@example.com',
      password: '123',
    });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('password must be at least 6 characters');
    expect(
      (await post('/api/auth/local/register', { username: 'bob', email: 'bob@example.com', password: 'x'.repeat(73) }))
        .body.error.message,
    ).toBe('Password must be less than 73 bytes');
  });

  it('refreshes with rotation, lists and revokes sessions, logs out', async () => {
    const a = (await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-1' })).body;
    const b = (await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-1' })).body;
    const refreshed = await post('/api/auth/refresh', { refreshToken: a.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body).sort()).toEqual(['jwt', 'refreshToken']);
    expect((await me(refreshed.body.jwt)).status).toBe(200);
    expect((await post('/api/auth/refresh', { refreshToken: a.refreshToken })).status).toBe(401); // rotated
    expect((await post('/api/auth/refresh', {})).status).toBe(400);

    const sessions = await s.api('/api/auth/sessions', { anonymous: true, headers: bearer(b.jwt) });
    expect(sessions.status).toBe(200);
    const bId = jwtPayload(b.jwt).sessionId;
    expect(sessions.body.data.find((x: { id: string }) => x.id === bId)).toMatchObject({ current: true });
    expect(sessions.body.data.length).toBeGreaterThanOrEqual(2);

    // Revoking session a from session b ends a's access token and refresh token.
    const aId = String(jwtPayload(a.jwt).sessionId);
    expect(
      (await s.api(`/api/auth/sessions/${aId}`, { anonymous: true, method: 'DELETE', headers: bearer(b.jwt) })).status,
    ).toBe(200);
    expect((await me(refreshed.body.jwt)).body.error).toEqual(UNAUTHORIZED);
    expect((await post('/api/auth/refresh', { refreshToken: refreshed.body.refreshToken })).status).toBe(401);
    expect(
      (await s.api(`/api/auth/sessions/${aId}`, { anonymous: true, method: 'DELETE', headers: bearer(b.jwt) })).status,
    ).toBe(404);

    const out = await post('/api/auth/logout', {}, bearer(b.jwt));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect((await me(b.jwt)).status).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: b.refreshToken })).status).toBe(401);
    // Without a user there is no session to end.
    expect((await post('/api/auth/logout', {})).status).toBe(403);
    expect((await post('/api/auth/logout', {}, bearer(s.token))).status).toBe(401);
  });

  const refreshCookieTitle =
    "by default (as Strapi's project template) puts the refresh token in an httpOnly cookie, not in the body";
  it(refreshCookieTitle, async () => {
    const d = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    try {
      const reg = await d.api('/api/auth/local/register', {
        anonymous: true,
        method: 'POST',
        body: { username: 'cookie', email: 'cookie@example.com', password: 'cookie-pass' },
      });
      expect(reg.status).toBe(200);
      // Register answers the refresh token in the body even so, as Strapi does; login sets the cookie.
      expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect(reg.headers.get('set-cookie')).toBeNull();
      const login = await d.api('/api/auth/local', {
        anonymous: true,
        method: 'POST',
        body: { identifier: 'cookie', password: 'cookie-pass' },
      });
      expect(Object.keys(login.body).sort()).toEqual(['jwt', 'user']);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      expect(cookie).toMatch(/^strapi_up_refresh=[0-9a-f]+$/);
      const refreshed = await d.api('/api/auth/refresh', {
        anonymous: true,
        method: 'POST',
        body: {},
        headers: { cookie },
      });
      expect(refreshed.status).toBe(200);
      expect(Object.keys(refreshed.body)).toEqual(['jwt']);
      expect(
        (await d.api('/api/users/me', { anonymous: true, headers: bearer(refreshed.body.jwt) })).body.username,
      ).toBe('cookie');
      // The cookie rotated: the first one is spent.
      expect(
        (await d.api('/api/auth/refresh', { anonymous: true, method: 'POST', body: {}, headers: { cookie } })).status,
      ).toBe(401);
    } finally {
      await d.stop();
    }
  });

  it('puts the refresh token in an httpOnly cookie when asked', async () => {
    const login = await post(
      '/api/auth/local',
      { identifier: 'Ada', password: 'ada-pass-1' },
      { 'x-strapi-refresh-cookie': 'httpOnly' },
    );
    expect(Object.keys(login.body).sort()).toEqual(['jwt', 'user']);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^strapi_up_refresh=[0-9a-f]+; Path=\/api\/auth; HttpOnly/);
    const refreshed = await post('/api/auth/refresh', {}, { cookie: cookie.split(';')[0] });
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body)).toEqual(['jwt']);
    expect(refreshed.headers.get('set-cookie')).toMatch(/^strapi_up_refresh=/);
  });

  it('changes a password: the old one stops working and every other session ends', async () => {
    const other = (await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-1' })).body;
    const mine = (await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-1' })).body;
    const change = (body: Record<string, string>, jwt = mine.jwt) =>
      post('/api/auth/change-password', body, bearer(jwt));
    expect(
      (await change({ currentPassword: 'wrong-pass', password: 'ada-pass-2', passwordConfirmation: 'ada-pass-2' })).body
        .error.message,
    ).toBe('The provided current password is invalid');
    expect(
      (await change({ currentPassword: 'ada-pass-1', password: 'ada-pass-1', passwordConfirmation: 'ada-pass-1' })).body
        .error.message,
    ).toBe('Your new password must be different than your current password');
    expect(
      (await change({ currentPassword: 'ada-pass-1', password: 'ada-pass-2', passwordConfirmation: 'ada-pass-3' })).body
        .error.message,
    ).toBe('Passwords do not match');
    expect(
      (
        await post(
          '/api/auth/change-password',
          { currentPassword: 'ada-pass-1', password: 'ada-pass-2', passwordConfirmation: 'ada-pass-2' },
          bearer(s.token),
        )
      ).body.error,
    ).toEqual({
      status: 400,
      name: 'ApplicationError',
      message: 'You must be authenticated to reset your password',
      details: {},
    });
    const res = await change({
      currentPassword: 'ada-pass-1',
      password: 'ada-pass-2',
      passwordConfirmation: 'ada-pass-2',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect((await me(res.body.jwt)).status).toBe(200);
    expect((await me(other.jwt)).status).toBe(401);
    expect((await me(mine.jwt)).status).toBe(401);
    expect((await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-1' })).status).toBe(400);
    expect((await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-2' })).status).toBe(200);
  });

  it('answers 401 Invalid credentials for a valid JWT whose user is blocked or gone', async () => {
    const reg = (
      await post('/api/auth/local/register', { username: 'gone', email: 'gone@example.com', password: 'gone-pass' })
    ).body;
    const auth = new AuthService(s.dir);
    auth.state.refresh();
    auth.state.users.data.users.find((u) => u.username === 'gone')!.blocked = true;
    auth.state.users.write();
    expect((await me(reg.jwt)).body.error).toEqual({ ...UNAUTHORIZED, message: 'Invalid credentials' });
    expect((await post('/api/auth/local', { identifier: 'gone', password: 'gone-pass' })).body.error.message).toBe(
      'Your account has been blocked by an administrator',
    );
    auth.deleteUser('gone');
    expect((await me(reg.jwt)).status).toBe(401);
  });

  it('keeps every secret out of content/, and only hashes in .folio/ (owner-only files)', async () => {
    const login = (await post('/api/auth/local', { identifier: 'Ada', password: 'ada-pass-2' })).body;
    const ro = await createApiToken(s.dir, { name: 'secret-check', type: 'read-only' });
    const secrets = new AuthService(s.dir).state.secrets;
    const clear = [
      s.token,
      ro.accessKey,
      login.jwt,
      login.refreshToken,
      'ada-pass-1',
      'ada-pass-2',
      'gone-pass',
      secrets.jwtSecret,
      secrets.tokenSalt,
    ];
    expect(filesHolding(s.contentDir, clear)).toEqual([]);
    expect(
      filesHolding(join(s.dir, '.folio'), [
        s.token,
        ro.accessKey,
        login.jwt,
        login.refreshToken,
        'ada-pass-1',
        'ada-pass-2',
        'gone-pass',
      ]),
    ).toEqual([]);
    const users = JSON.parse(readFileSync(join(s.dir, '.folio', 'users.json'), 'utf8')).users;
    expect(users.every((u: { password: string }) => u.password.startsWith('scrypt$'))).toBe(true);
    if (process.platform !== 'win32') {
      for (const f of ['users.json', 'sessions.json', 'tokens.json', 'secrets.json'])
        expect(statSync(join(s.dir, '.folio', f)).mode & 0o077, f).toBe(0);
    }
  });
});

describe('users & permissions: project settings', () => {
  it('rate-limits login attempts (10 per minute by default) with 429 and X-RateLimit headers', async () => {
    const s = await startTestServer();
    try {
      const attempt = (i: number, extra: Record<string, unknown> = {}) =>
        s.api('/api/auth/local', {
          anonymous: true,
          method: 'POST',
          body: { identifier: 'brute', password: `guess-${i}`, ...extra },
        });
      const first = await attempt(0);
      expect(first.status).toBe(400);
      expect(first.body.error.message).toBe('Invalid identifier or password');
      expect(first.headers.get('x-ratelimit-limit')).toBe('10');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('9');
      expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      const statuses = [first.status];
      // A made-up e-mail in the body does not buy a fresh counter. Attempts without a password count as
      // well (and are refused before any password hashing, which keeps this test cheap).
      for (let i = 1; i < 12; i++)
        statuses.push((await attempt(i, { email: `x${i}@example.com`, password: undefined })).status);
      expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
      const last = await attempt(99);
      expect(last.body.error).toEqual({
        status: 429,
        name: 'RateLimitError',
        message: 'Too many requests, please try again later.',
        details: {},
      });
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
      // Each path counts on its own.
      expect(
        (
          await s.api('/api/auth/local/register', {
            anonymous: true,
            method: 'POST',
            body: { username: 'fresh', email: 'fresh@example.com', password: 'fresh-pass' },
          })
        ).status,
      ).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('takes the rate limit from folio.json', async () => {
    const s = await startTestServer({ config: { users: { ratelimit: { max: 2, interval: 60000 } } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await s.api('/api/auth/local', {
              anonymous: true,
              method: 'POST',
              body: { identifier: 'x', password: 'y' },
            })
          ).status,
        );
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await s.stop();
    }
  });

  it('refuses a malformed users section of folio.json', async () => {
    for (const [users, message] of [
      [{ jwtManagement: 'sessions' }, /users.jwtManagement/],
      [{ ratelimit: { max: 0 } }, /users.ratelimit.max/],
      [{ httpOnly: 'yes' }, /users.httpOnly/],
    ] as const) {
      const p = makeProject({ config: { users } });
      try {
        await expect(openProject(p.dir)).rejects.toThrow(message);
      } finally {
        p.cleanup();
      }
    }
  });

  it('legacy mode: one 30-day JWT, and no refresh, logout or sessions routes', async () => {
    const s = await startTestServer({ config: { users: { jwtManagement: 'legacy' } } });
    try {
      const reg = await s.api('/api/auth/local/register', {
        anonymous: true,
        method: 'POST',
        body: { username: 'old', email: 'old@example.com', password: 'old-pass' },
      });
      expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'user']);
      const payload = jwtPayload(reg.body.jwt);
      expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'id']);
      expect(Number(payload.exp) - Number(payload.iat)).toBe(30 * 86400);
      expect((await s.api('/api/users/me', { anonymous: true, headers: bearer(reg.body.jwt) })).body.username).toBe(
        'old',
      );
      for (const [method, path] of [
        ['POST', '/api/auth/refresh'],
        ['POST', '/api/auth/logout'],
        ['GET', '/api/auth/sessions'],
        ['DELETE', '/api/auth/sessions/x'],
      ]) {
        const res = await s.api(path, {
          anonymous: true,
          method,
          headers: bearer(reg.body.jwt),
          body: method === 'POST' ? {} : undefined,
        });
        expect(res.status, path).toBe(404);
        expect(res.body.error.name).toBe('NotFoundError');
      }
    } finally {
      await s.stop();
    }
  });

  const publicRoleTitle =
    'public role without any permission: 401 for anonymous callers; with users.me only: 401 Unauthorized on /users/me';
  it(publicRoleTitle, async () => {
    const p = makeProject();
    writePermissions(p.contentDir, { public: [], authenticated: ['api::article.article.find'] });
    const s = await startTestServer({ dir: p.dir });
    try {
      for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }] as Array<Record<string, string>>) {
        expect((await s.api('/api/articles', { anonymous: true, headers })).body.error).toEqual(UNAUTHORIZED);
      }
      expect(
        (
          await s.api('/api/auth/local/register', {
            anonymous: true,
            method: 'POST',
            body: { username: 'nobody', email: 'n@example.com', password: 'n-pass-1' },
          })
        ).status,
      ).toBe(401);
      const user = await new AuthService(p.dir).createUser({
        username: 'member',
        email: 'm@example.com',
        password: 'member-pass',
      });
      expect(user.role).toBe('authenticated');
      expect((await s.api('/api/articles')).status).toBe(200); // tokens and users are unaffected
    } finally {
      await s.stop();
      p.cleanup();
    }

    const q = makeProject();
    writePermissions(q.contentDir, { public: ['plugin::users-permissions.user.me'] });
    const t = await startTestServer({ dir: q.dir });
    try {
      expect((await t.api('/api/articles', { anonymous: true })).body.error).toEqual(FORBIDDEN);
      expect((await t.api('/api/users/me', { anonymous: true })).body.error).toEqual({
        ...UNAUTHORIZED,
        message: 'Unauthorized',
      });
      // The missing authenticated entry means Strapi's first-boot grants for that role.
      const auth = new AuthService(q.dir);
      const { jwt } = await auth.issue(
        await auth.createUser({ username: 'member', email: 'm@example.com', password: 'member-pass' }),
        null,
      );
      expect((await t.api('/api/users/me', { anonymous: true, headers: bearer(jwt) })).body.username).toBe('member');
      expect((await t.api('/api/articles', { anonymous: true, headers: bearer(jwt) })).status).toBe(403);
    } finally {
      await t.stop();
      q.cleanup();
    }
  });

  it('gives a custom role exactly its actions', async () => {
    const p = makeProject();
    writePermissions(p.contentDir, {
      public: ['plugin::users-permissions.auth.callback'],
      editor: ['api::tag.tag.find', 'plugin::users-permissions.user.me'],
    });
    const s = await startTestServer({ dir: p.dir });
    try {
      await new AuthService(p.dir).createUser({
        username: 'eddie',
        email: 'ed@example.com',
        password: 'editor-pass',
        role: 'editor',
      });
      const login = await s.api('/api/auth/local', {
        anonymous: true,
        method: 'POST',
        body: { identifier: 'eddie', password: 'editor-pass' },
      });
      const h = bearer(login.body.jwt);
      expect((await s.api('/api/tags', { anonymous: true, headers: h })).status).toBe(200);
      expect((await s.api('/api/articles', { anonymous: true, headers: h })).status).toBe(403);
      expect((await s.api('/api/users/me?populate=role', { anonymous: true, headers: h })).body.role).toMatchObject({
        type: 'editor',
        id: 3,
      });
      // No changePassword for this role.
      expect(
        (await s.api('/api/auth/change-password', { anonymous: true, method: 'POST', headers: h, body: {} })).status,
      ).toBe(403);
    } finally {
      await s.stop();
      p.cleanup();
    }
  });
});
