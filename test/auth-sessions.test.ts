import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { bearer } from './helpers/auth.js';

const HEX32 = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Users & permissions sessions as Strapi 5.54 answers them (issue 24 §5), in the default (httpOnly cookie) mode. */
describe('users & permissions sessions, as Strapi answers them', () => {
  let s: TestServer;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    s.api(path, { anonymous: true, method: 'POST', body, headers });

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('register answers { jwt, refreshToken, user } even in httpOnly mode, and sets no cookie', async () => {
    const reg = await post('/api/auth/local/register', {
      username: 'grace',
      email: 'g@example.com',
      password: 'pw-123456',
    });
    expect(reg.status).toBe(200);
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(reg.body.refreshToken).toEqual(expect.any(String));
    expect(reg.headers.get('set-cookie')).toBeNull();
    // The refresh token it gave works.
    const refreshed = await post('/api/auth/refresh', { refreshToken: reg.body.refreshToken });
    expect(refreshed.status).toBe(200);
  });

  it('lists sessions as { data: [{ id, deviceId, current, loginAt, lastActiveAt }] }', async () => {
    const first = await post('/api/auth/local', { identifier: 'grace', password: 'pw-123456' });
    const second = await post('/api/auth/local', { identifier: 'grace', password: 'pw-123456' });
    const res = await s.api('/api/auth/sessions', { anonymous: true, headers: bearer(second.body.jwt) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.length).toBeGreaterThanOrEqual(3);
    for (const session of res.body.data) {
      expect(Object.keys(session).sort()).toEqual(['current', 'deviceId', 'id', 'lastActiveAt', 'loginAt']);
      expect(session.id).toMatch(HEX32);
      expect(session.deviceId).toMatch(UUID);
      expect(session.loginAt).toMatch(ISO);
      expect(session.lastActiveAt).toMatch(ISO);
    }
    const current = res.body.data.filter((x: { current: boolean }) => x.current);
    expect(current).toHaveLength(1);
    // The listed id revokes that session: the first login's token is refused afterwards.
    const others = res.body.data.filter((x: { current: boolean }) => !x.current);
    for (const other of others) {
      const del = await s.api(`/api/auth/sessions/${other.id}`, {
        anonymous: true,
        method: 'DELETE',
        headers: bearer(second.body.jwt),
      });
      expect(del.status).toBe(200);
    }
    expect((await s.api('/api/users/me', { anonymous: true, headers: bearer(first.body.jwt) })).status).toBe(401);
    const after = await s.api('/api/auth/sessions', { anonymous: true, headers: bearer(second.body.jwt) });
    expect(after.body.data).toEqual([current[0]].map((c) => ({ ...c, lastActiveAt: expect.stringMatching(ISO) })));
  });

  it('change-password answers { jwt, refreshToken, user } too, and the new refresh token works', async () => {
    const login = await post('/api/auth/local', { identifier: 'grace', password: 'pw-123456' });
    const changed = await post(
      '/api/auth/change-password',
      { currentPassword: 'pw-123456', password: 'pw-654321', passwordConfirmation: 'pw-654321' },
      bearer(login.body.jwt),
    );
    expect(changed.status).toBe(200);
    expect(Object.keys(changed.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect((await post('/api/auth/refresh', { refreshToken: changed.body.refreshToken })).status).toBe(200);
    await post(
      '/api/auth/change-password',
      { currentPassword: 'pw-654321', password: 'pw-123456', passwordConfirmation: 'pw-123456' },
      bearer(changed.body.jwt),
    );
  });

  it('logout clears the refresh cookie with a 1970 expiry, whether or not the request sent it', async () => {
    const login = await post('/api/auth/local', { identifier: 'grace', password: 'pw-123456' });
    expect(login.headers.get('set-cookie')).toMatch(/^strapi_up_refresh=[0-9a-f]+;/);
    const out = await post('/api/auth/logout', {}, bearer(login.body.jwt));
    expect(out.status).toBe(200);
    const cleared = out.headers.get('set-cookie') ?? '';
    expect(cleared).toMatch(/^strapi_up_refresh=;/);
    expect(cleared).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('users/me?populate=role keeps the role (a listed decision): every key Strapi answers, plus role', async () => {
    const login = await post('/api/auth/local', { identifier: 'grace', password: 'pw-123456' });
    const plain = await s.api('/api/users/me', { anonymous: true, headers: bearer(login.body.jwt) });
    const withRole = await s.api('/api/users/me?populate=role', { anonymous: true, headers: bearer(login.body.jwt) });
    expect(withRole.status).toBe(200);
    expect(withRole.body).toEqual({ ...plain.body, role: expect.objectContaining({ type: 'authenticated' }) });
  });
});
