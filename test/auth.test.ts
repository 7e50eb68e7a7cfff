import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startTestServer, type TestServer } from './helpers/project.js';
import { AuthService } from '../src/auth/service.js';

/** Every credential kind against public and private routes: who gets what, with Strapi's status codes. */
describe('users & permissions', () => {
  let s: TestServer;
  let auth: AuthService;
  const creds: Record<string, Record<string, string>> = {};
  let articleId = '';
  let tagId = '';
  let userJwt = '';
  let refreshToken = '';

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { max: 5, interval: 60000 } } } });
    auth = new AuthService(s.dir);
    articleId = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Public one' } } })).body.data.documentId;
    tagId = (await s.api('/api/tags', { method: 'POST', body: { data: { name: 'private-tag' } } })).body.data.documentId;
    const reg = await s.api('/api/auth/local/register', { anonymous: true, method: 'POST', body: { username: 'reader', email: 'Reader@Example.com', password: 'reader-pass' } });
    expect(reg.status).toBe(200);
    userJwt = reg.body.jwt;
    refreshToken = reg.body.refreshToken;
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    creds.none = {};
    creds.user = bearer(userJwt);
    creds.readOnly = bearer(auth.createToken({ name: 'ro', type: 'read-only' }).accessKey);
    creds.fullAccess = bearer(auth.createToken({ name: 'full', type: 'full-access' }).accessKey);
    creds.custom = bearer(auth.createToken({ name: 'custom', type: 'custom', actions: ['api::tag.tag.findOne'] }).accessKey);
    const revoked = auth.createToken({ name: 'revoked', type: 'full-access' });
    auth.revokeToken('revoked');
    creds.revoked = bearer(revoked.accessKey);
    const expired = auth.createToken({ name: 'expired', type: 'full-access', lifespan: '7d' });
    const tokens = auth.state.tokens;
    tokens.read();
    tokens.data.tokens.find((t) => t.name === 'expired')!.expiresAt = new Date(Date.now() - 1000).toISOString();
    tokens.write();
    creds.expiredToken = bearer(expired.accessKey);
    const key = new TextEncoder().encode(auth.state.secrets.jwtSecret);
    creds.expiredJwt = bearer(await new SignJWT({ id: 1 }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(key));
    creds.garbage = bearer('not-a-token');
    creds.basic = { authorization: 'Basic dXNlcjpwYXNz' };
  });
  afterAll(async () => { await s.stop(); });

  const call = (who: string, path: string, method = 'GET', body?: unknown) =>
    s.api(path, { anonymous: true, method, headers: creds[who], body });

  // [credential, find article (public), find tag (not public), create article, me]
  const matrix: Array<[string, number, number, number, number]> = [
    ['none', 200, 403, 403, 403],
    ['basic', 200, 403, 403, 403],
    ['user', 200, 200, 201, 200],
    ['readOnly', 200, 200, 403, 403],
    ['fullAccess', 200, 200, 201, 403],
    ['custom', 403, 200, 403, 403],
    ['revoked', 401, 401, 401, 401],
    ['expiredToken', 401, 401, 401, 401],
    ['expiredJwt', 401, 401, 401, 401],
    ['garbage', 401, 401, 401, 401],
  ];
  it.each(matrix)('%s: articles %i, tags %i, create %i, users/me %i', async (who, articles, tags, create, me) => {
    expect((await call(who, '/api/articles')).status).toBe(articles);
    expect((await call(who, `/api/tags/${tagId}`)).status).toBe(tags);
    const created = await call(who, '/api/articles', 'POST', { data: { title: `by ${who}` } });
    expect(created.status).toBe(create);
    if (create >= 400) expect(created.body.error.name).toBe(create === 401 ? 'UnauthorizedError' : 'ForbiddenError');
    expect((await call(who, '/api/users/me')).status).toBe(me);
  });

  it('answers 401 with Strapi\'s messages', async () => {
    expect((await call('garbage', '/api/articles')).body.error).toEqual({ status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} });
    expect((await call('expiredToken', '/api/articles')).body.error.message).toBe('Token expired');
  });

  it('drops populated relations the caller may not find, and refuses filters on them', async () => {
    await s.api(`/api/articles/${articleId}`, { method: 'PUT', body: { data: { tags: [tagId] } } });
    const pub = await call('none', `/api/articles/${articleId}?populate=*`);
    expect(pub.status).toBe(200);
    expect(pub.body.data.tags).toBeUndefined();
    expect((await call('fullAccess', `/api/articles/${articleId}?populate=*`)).body.data.tags).toHaveLength(1);
    const filtered = await call('none', '/api/articles?filters[tags][name][$eq]=private-tag');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error.message).toBe('Invalid key tags');
  });

  it('never returns private attributes', async () => {
    await s.api(`/api/articles/${articleId}`, { method: 'PUT', body: { data: { secretNote: 'hidden' } } });
    for (const who of ['none', 'fullAccess', 'user']) {
      const res = await call(who, `/api/articles/${articleId}`);
      expect(res.text).not.toContain('hidden');
    }
  });

  it('logs in, refreshes, lists sessions and logs out with Strapi\'s shapes', async () => {
    const login = await call('none', '/api/auth/local', 'POST', { identifier: 'reader@example.com', password: 'reader-pass' });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(login.body.user).toMatchObject({ username: 'reader', email: 'reader@example.com', provider: 'local', confirmed: true, blocked: false });
    expect(login.body.user.password).toBeUndefined();
    const me = await s.api('/api/users/me', { anonymous: true, headers: { authorization: `Bearer ${login.body.jwt}` } });
    expect(me.body.username).toBe('reader');
    const refreshed = await call('none', '/api/auth/refresh', 'POST', { refreshToken });
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.body.jwt).toBe('string');
    expect((await call('none', '/api/auth/refresh', 'POST', { refreshToken })).status).toBe(401); // rotated
    const sessions = await s.api('/api/auth/sessions', { anonymous: true, headers: { authorization: `Bearer ${login.body.jwt}` } });
    expect(sessions.body.sessions.length).toBeGreaterThanOrEqual(2);
    const out = await s.api('/api/auth/logout', { anonymous: true, method: 'POST', headers: { authorization: `Bearer ${login.body.jwt}` } });
    expect(out.status).toBe(200);
    expect((await s.api('/api/users/me', { anonymous: true, headers: { authorization: `Bearer ${login.body.jwt}` } })).status).toBe(401);
  });

  it('refuses a wrong password and bad registrations', async () => {
    const bad = await call('none', '/api/auth/local', 'POST', { identifier: 'reader', password: 'nope-nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid identifier or password');
    const taken = await call('none', '/api/auth/local/register', 'POST', { username: 'reader', email: 'other@example.com', password: 'whatever1' });
    expect(taken.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Email or Username are already taken' });
    const extra = await call('none', '/api/auth/local/register', 'POST', { username: 'x1234', email: 'x@example.com', password: 'whatever1', role: 'admin' });
    expect(extra.body.error.message).toBe('Invalid parameters: role');
  });

  it('changes a password and the old one stops working', async () => {
    const res = await s.api('/api/auth/change-password', { anonymous: true, method: 'POST', headers: creds.user, body: { currentPassword: 'reader-pass', password: 'reader-pass-2', passwordConfirmation: 'reader-pass-2' } });
    expect(res.status).toBe(200);
    expect((await call('none', '/api/auth/local', 'POST', { identifier: 'reader', password: 'reader-pass' })).status).toBe(400);
  });

  it('rate-limits login attempts with 429 and X-RateLimit headers', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 8; i++) {
      last = await s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier: 'brute', password: `guess-${i}`, email: 'brute@example.com' } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5).every((x) => x === 400)).toBe(true);
    expect(statuses.slice(5).every((x) => x === 429)).toBe(true);
    expect(last!.body.error).toEqual({ status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} });
    expect(last!.headers.get('x-ratelimit-limit')).toBe('5');
  });

  it('keeps every secret out of content/ and stores only hashes in .folio/', () => {
    const clear = [s.token, ...Object.values(creds).map((h) => h.authorization?.split(' ')[1]).filter(Boolean), 'reader-pass', 'reader-pass-2', auth.state.secrets.jwtSecret];
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
    for (const file of walk(s.contentDir)) {
      const text = readFileSync(file, 'latin1');
      for (const secret of clear) expect(text.includes(secret as string), `${file} holds a secret`).toBe(false);
    }
    const state = ['users.json', 'tokens.json', 'sessions.json'].map((f) => readFileSync(join(s.dir, '.folio', f), 'utf8')).join('\n');
    for (const secret of [s.token, 'reader-pass', 'reader-pass-2', refreshToken]) expect(state.includes(secret)).toBe(false);
  });

  it('users/:id answers 204 for an unknown user, and the public role without any permission gets 401', async () => {
    expect((await s.api('/api/users/999')).status).toBe(204);
  });
});
