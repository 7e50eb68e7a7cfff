import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../src/auth/service.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/** A wrong password for `ada` sent through proxies that wrote these X-Forwarded-For entries: its status. */
const attempt = (s: TestServer, forwardedFor?: string) =>
  s
    .api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: 'ada', password: 'wrong-password' },
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    })
    .then((r) => r.status);

/**
 * Who a request comes from behind `server.trustProxy` proxies. With two, the entry the outer proxy appended is the
 * client: what comes before it the client may have written, what comes after is the inner proxy. Each client has
 * its own sign-in limit (one wrong password here), so a second attempt from the same client is a 429.
 */
describe('two trusted proxies (server.trustProxy: 2)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      config: {
        server: { trustProxy: 2 },
        users: { ratelimit: { enabled: true, interval: 60_000, max: 1 } },
      },
    });
    await new AuthService(s.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('counts a client by the entry the outer proxy wrote, whatever the client wrote before it', async () => {
    expect(await attempt(s, 'forged-1, 203.0.113.1, 10.0.0.1')).toBe(400);
    expect(await attempt(s, 'forged-2, 203.0.113.1, 10.0.0.1')).toBe(429);
    expect(await attempt(s, '203.0.113.1, 10.0.0.1')).toBe(429);
    expect(await attempt(s, 'forged-2, 203.0.113.2, 10.0.0.1')).toBe(400);
  });

  it('reads entries with spaces and empty ones as the proxies meant them', async () => {
    expect(await attempt(s, ' , 203.0.113.5 ,, 10.0.0.1 ')).toBe(400);
    expect(await attempt(s, '203.0.113.5,10.0.0.1')).toBe(429);
  });

  it('takes the only entry when a request passed one proxy', async () => {
    expect(await attempt(s, '203.0.113.3')).toBe(400);
    expect(await attempt(s, '203.0.113.3')).toBe(429);
    expect(await attempt(s, '203.0.113.4')).toBe(400);
  });

  it('counts a request without an address from the proxies by its connection', async () => {
    expect(await attempt(s)).toBe(400);
    expect(await attempt(s, ' , ')).toBe(429);
  });
});

describe('one trusted proxy (server.trustProxy: true)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { trustProxy: true }, users: { ratelimit: { enabled: false } } } });
    await new AuthService(s.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('believes the proxy that the client came over plain HTTP: no Secure cookie, no HSTS', async () => {
    const r = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: 'ada', password: 'ada-pass-1' },
      headers: { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.1' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('set-cookie')).toMatch(/^strapi_up_refresh=/);
    expect(r.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });
});

/** The origin a request addressed: the Host header, or behind a trusted proxy what the proxy says. */
describe('the origin of the server', () => {
  const cookieOf = (headers: Headers) => headers.get('set-cookie')?.split(';')[0];

  it('is the Host the client addressed: its pages may use the session cookie', async () => {
    const s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    try {
      await new AuthService(s.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
      const login = await s.api('/api/auth/local', {
        anonymous: true,
        method: 'POST',
        body: { identifier: 'ada', password: 'ada-pass-1' },
      });
      let cookie = cookieOf(login.headers)!;
      const refresh = (headers: Record<string, string>) =>
        s.api('/api/auth/refresh', { anonymous: true, method: 'POST', body: {}, headers: { cookie, ...headers } });
      const host = new URL(s.url).host;
      const pages: Array<Record<string, string>> = [
        { origin: `HTTP://${host.toUpperCase()}` },
        { host: host.toUpperCase(), origin: s.url },
      ];
      for (const headers of pages) {
        const r = await refresh(headers);
        expect([JSON.stringify(headers), r.status]).toEqual([JSON.stringify(headers), 200]);
        cookie = cookieOf(r.headers)!;
      }
      // A page of the same host over HTTPS is another origin.
      expect((await refresh({ origin: `https://${host}` })).status).toBe(403);
      // A browser that says the user opened the URL itself (no page sent it).
      expect((await refresh({ origin: 'https://elsewhere.example', 'sec-fetch-site': 'none' })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('is the public origin behind a trusted proxy: e-mail links name it', async () => {
    const log: string[] = [];
    const s = await startTestServer({
      config: {
        server: { trustProxy: true },
        users: { ratelimit: { enabled: false }, emailConfirmation: true },
      },
      app: { log: (m) => log.push(m) },
    });
    try {
      const r = await s.api('/api/auth/local/register', {
        anonymous: true,
        method: 'POST',
        body: { username: 'carol', email: 'carol@example.com', password: 'carol-pass-1' },
        headers: { 'x-forwarded-host': 'CMS.Example.com', 'x-forwarded-proto': 'HTTPS', 'x-forwarded-for': '1.2.3.4' },
      });
      expect(r.status).toBe(200);
      const line = log.find((l) => l.includes('confirm your e-mail address'))!;
      expect(line).toMatch(/: https:\/\/cms\.example\.com\/api\/auth\/email-confirmation\?confirmation=\S+$/);
    } finally {
      await s.stop();
    }
  });
});

describe('server.cors listing "null"', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      config: { server: { cors: { origin: ['null'] } }, users: { ratelimit: { enabled: false } } },
    });
    await new AuthService(s.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('does not let a sandboxed page (Origin: null) use the session cookie', async () => {
    const login = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: 'ada', password: 'ada-pass-1' },
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const r = await s.api('/api/auth/refresh', {
      anonymous: true,
      method: 'POST',
      body: {},
      headers: { cookie, origin: 'null', 'sec-fetch-site': 'cross-site' },
    });
    expect([r.status, r.body.error.name]).toEqual([403, 'ForbiddenError']);
  });
});
