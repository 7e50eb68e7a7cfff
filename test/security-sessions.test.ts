import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../src/auth/service.js';
import { bearer } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/project.js';

const LISTED = 'https://app.example.com';
const SIBLING = 'http://localhost:19999';

/** The `name=value` of a Set-Cookie answer, and its attributes. */
const cookieOf = (headers: Headers) => {
  const raw = headers.get('set-cookie');
  return raw === null ? undefined : { pair: raw.split(';')[0], attributes: raw.split(';').map((s) => s.trim()) };
};

/**
 * Cookie sessions are same-origin (issue 31, findings 2, 5 and 6): the refresh cookie is spent and set only for
 * pages of the server's own origin or of origins server.cors lists; Authorization headers work from anywhere;
 * server.trustProxy makes the cookie Secure behind a TLS proxy and the limits count the real client.
 */
describe('cookie sessions, CORS and the proxy', () => {
  let s: TestServer;
  const login = (identifier: string, password: string, headers: Record<string, string> = {}) =>
    s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password }, headers });
  const refresh = (cookie: string, headers: Record<string, string>) =>
    s.api('/api/auth/refresh', { anonymous: true, method: 'POST', body: {}, headers: { cookie, ...headers } });
  /** A fresh session's cookie, signed in as a user agent with no Origin (as the Studio's sign-in page's server). */
  const session = async () => cookieOf((await login('ada', 'ada-pass-1')).headers)!.pair;

  beforeAll(async () => {
    s = await startTestServer({
      config: {
        server: { cors: { origin: ['*', `${LISTED}/`] } },
        users: { ratelimit: { enabled: false } },
      },
    });
    const auth = new AuthService(s.dir);
    for (const name of ['ada', 'bob'])
      await auth.createUser({ username: name, email: `${name}@example.com`, password: `${name}-pass-1` });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('refuses the refresh cookie from a page of another origin, even of the same site', async () => {
    const cookie = await session();
    const pages: Array<Record<string, string>> = [
      { origin: SIBLING, 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // A browser without Sec-Fetch-Site: its Origin is not this server's.
      { origin: SIBLING },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of pages) {
      const r = await refresh(cookie, headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.body.error.name).toBe('ForbiddenError');
      expect(r.body.jwt).toBeUndefined();
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    }
    // The session was not spent: the server's own pages still renew it.
    expect((await refresh(cookie, { origin: s.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('takes the refresh cookie from its own pages, listed origins, and clients that are no page', async () => {
    let cookie = await session();
    const callers: Array<Record<string, string>> = [
      { origin: s.url, 'sec-fetch-site': 'same-origin' },
      // An older browser: no Sec-Fetch-Site, its Origin is this server's.
      { origin: s.url },
      { origin: LISTED, 'sec-fetch-site': 'cross-site' },
      // curl, a server-side client: neither header.
      {},
    ];
    for (const headers of callers) {
      const r = await refresh(cookie, headers);
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(Object.keys(r.body)).toEqual(['jwt']);
      cookie = cookieOf(r.headers)!.pair;
    }
  });

  it('sends credentialed CORS only to listed origins; Authorization headers work from any origin', async () => {
    const jwt = (await login('bob', 'bob-pass-1')).body.jwt as string;
    const other = await s.api('/api/users/me', { anonymous: true, headers: { ...bearer(jwt), origin: SIBLING } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBe(SIBLING);
    expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    const listed = await s.api('/api/users/me', { anonymous: true, headers: { ...bearer(jwt), origin: LISTED } });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    // A refresh token sent in the body is no cookie: any origin may use it.
    const issued = await s.api('/api/auth/local/register', {
      anonymous: true,
      method: 'POST',
      body: { username: 'carol', email: 'carol@example.com', password: 'carol-pass-1' },
    });
    const byBody = await s.api('/api/auth/refresh', {
      anonymous: true,
      method: 'POST',
      body: { refreshToken: issued.body.refreshToken },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(byBody.status).toBe(200);
    expect(Object.keys(byBody.body).sort()).toEqual(['jwt', 'refreshToken']);
    expect(byBody.headers.get('set-cookie')).toBeNull();
  });

  it('plants no session cookie from a sign-in by a page of another origin', async () => {
    const planted = await login('ada', 'ada-pass-1', { origin: SIBLING, 'sec-fetch-site': 'same-site' });
    expect(planted.status).toBe(200);
    expect(planted.body.jwt).toEqual(expect.any(String));
    expect(planted.headers.get('set-cookie')).toBeNull();
    const own = await login('ada', 'ada-pass-1', { origin: s.url, 'sec-fetch-site': 'same-origin' });
    expect(cookieOf(own.headers)?.pair).toMatch(/^strapi_up_refresh=/);
    const signIn = await s.api('/_folio/studio/sign-in', {
      anonymous: true,
      method: 'POST',
      body: { code: 'whatever' },
      headers: { origin: SIBLING, 'sec-fetch-site': 'same-site' },
    });
    expect(signIn.status).toBe(403);
  });

  it('sets the refresh cookie SameSite=Strict, and Secure only over HTTPS', async () => {
    const plain = cookieOf((await login('ada', 'ada-pass-1')).headers)!;
    expect(plain.attributes).toContain('SameSite=Strict');
    expect(plain.attributes).toContain('HttpOnly');
    expect(plain.attributes).not.toContain('Secure');
    // Without server.trustProxy, a client's X-Forwarded-Proto is not believed.
    const claimed = cookieOf((await login('ada', 'ada-pass-1', { 'x-forwarded-proto': 'https' })).headers)!;
    expect(claimed.attributes).not.toContain('Secure');
  });
});

describe('the limit of sign-ins', () => {
  let s: TestServer;
  const at = (identifier: string, password: string) =>
    s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password } });

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } } });
    const auth = new AuthService(s.dir);
    for (const name of ['ada', 'bob'])
      await auth.createUser({ username: name, email: `${name}@example.com`, password: `${name}-pass-1` });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('counts wrong passwords per account: one account locked does not lock out the others', async () => {
    for (let i = 0; i < 3; i++) expect((await at('ada', 'wrong-password')).status).toBe(400);
    expect((await at('ada', 'wrong-password')).status).toBe(429);
    expect((await at('ADA', 'ada-pass-1')).status).toBe(429);
    expect((await at('bob', 'bob-pass-1')).status).toBe(200);
    // One address trying every account is stopped too, at ten times the limit.
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i++) status = (await at(`user${i}`, 'guess-123')).status;
    expect(status).toBe(429);
  });
});

describe('behind a TLS proxy (server.trustProxy)', () => {
  let s: TestServer;
  const behind = (client: string, extra: Record<string, string> = {}) => ({
    'x-forwarded-proto': 'https',
    'x-forwarded-for': client,
    'x-forwarded-host': 'cms.example.com',
    ...extra,
  });
  const login = (identifier: string, password: string, headers: Record<string, string>) =>
    s.api('/api/auth/local', { anonymous: true, method: 'POST', body: { identifier, password }, headers });

  beforeAll(async () => {
    s = await startTestServer({
      config: { server: { trustProxy: true }, users: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } },
    });
    await new AuthService(s.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('makes the cookie Secure and sends HSTS when the client came over HTTPS', async () => {
    const r = await login('ada', 'ada-pass-1', behind('203.0.113.1'));
    expect(r.status).toBe(200);
    expect(cookieOf(r.headers)!.attributes).toContain('Secure');
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await login('ada', 'ada-pass-1', { 'x-forwarded-for': '203.0.113.1' });
    expect(cookieOf(plain.headers)!.attributes).not.toContain('Secure');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('takes its public origin as its own for the refresh cookie', async () => {
    const cookie = cookieOf((await login('ada', 'ada-pass-1', behind('203.0.113.2'))).headers)!.pair;
    const r = await s.api('/api/auth/refresh', {
      anonymous: true,
      method: 'POST',
      body: {},
      headers: behind('203.0.113.2', { cookie, origin: 'https://cms.example.com' }),
    });
    expect(r.status).toBe(200);
  });

  it('counts each client apart, by the address the proxy saw', async () => {
    for (let i = 0; i < 3; i++) expect((await login('ada', 'wrong-pass', behind('203.0.113.7'))).status).toBe(400);
    expect((await login('ada', 'wrong-pass', behind('203.0.113.7'))).status).toBe(429);
    // A client cannot escape its counter by writing its own X-Forwarded-For: the proxy appends the address it saw.
    expect((await login('ada', 'wrong-pass', behind('198.51.100.9, 203.0.113.7'))).status).toBe(429);
    expect((await login('ada', 'ada-pass-1', behind('203.0.113.8'))).status).toBe(200);
  });
});
