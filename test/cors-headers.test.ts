import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

const LISTED = 'https://app.example.com';
const OTHER = 'https://other.example';
const METHODS = 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS';

/** The CORS headers of an answer, by name (absent ones left out). */
const corsOf = (headers: Headers) =>
  Object.fromEntries(
    [...headers]
      .filter(([name]) => name.startsWith('access-control-') || name === 'vary')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

/**
 * CORS as Strapi's defaults answer it: the Origin echoed when `server.cors.origin` allows it (never a literal `*`),
 * credentials only for origins it names, `Vary: Origin` on every answer, and preflights answered with 204 before
 * any route or access check.
 */
describe('CORS with server.cors naming one origin', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { cors: { origin: [LISTED], maxAge: 600 } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('allows the named origin, in any case, with credentials', async () => {
    for (const origin of [LISTED, LISTED.toUpperCase()]) {
      const r = await s.api('/api/articles', { headers: { origin } });
      expect(r.status).toBe(200);
      expect(corsOf(r.headers)).toEqual({
        'access-control-allow-credentials': 'true',
        'access-control-allow-origin': origin,
        vary: 'Origin',
      });
    }
  });

  it('allows no other origin, and says nothing to a client that sent none', async () => {
    const other = await s.api('/api/articles', { headers: { origin: OTHER } });
    expect([other.status, corsOf(other.headers)]).toEqual([200, { vary: 'Origin' }]);
    const none = await s.api('/api/articles');
    expect(corsOf(none.headers)).toEqual({ vary: 'Origin' });
  });

  it('answers the named origin’s preflight with 204, the methods, its headers and the max age', async () => {
    const r = await fetch(`${s.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: LISTED, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-a' },
    });
    expect(r.status).toBe(204);
    expect(corsOf(r.headers)).toEqual({
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'x-a',
      'access-control-allow-methods': METHODS,
      'access-control-allow-origin': LISTED,
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    expect(await r.text()).toBe('');
  });

  it('names the usual headers in a preflight that asks for none', async () => {
    const r = await fetch(`${s.url}/api/anything`, {
      method: 'OPTIONS',
      headers: { origin: LISTED, 'access-control-request-method': 'POST' },
    });
    expect([r.status, r.headers.get('access-control-allow-headers')]).toEqual([
      204,
      'Content-Type,Authorization,Origin,Accept',
    ]);
  });

  it('answers another origin’s preflight with 204 and no permission', async () => {
    const r = await fetch(`${s.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: OTHER, 'access-control-request-method': 'DELETE' },
    });
    expect([r.status, corsOf(r.headers)]).toEqual([204, { vary: 'Origin' }]);
  });

  it('answers a GET that carries a preflight’s header as a GET', async () => {
    const r = await s.api('/api/articles', { headers: { origin: LISTED, 'access-control-request-method': 'GET' } });
    expect([r.status, r.body.data]).toEqual([200, []]);
    expect(r.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('routes an OPTIONS request that is no preflight', async () => {
    const r = await s.api('/api/articles', { method: 'OPTIONS', headers: { origin: LISTED } });
    expect([r.status, r.body.error.name]).toEqual([405, 'MethodNotAllowedError']);
    expect(r.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('CORS with credentials turned off', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { cors: { origin: ['*', LISTED], credentials: false } } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('allows every origin, none with credentials, named or not', async () => {
    for (const origin of [LISTED, OTHER]) {
      const r = await s.api('/api/articles', { headers: { origin } });
      expect(corsOf(r.headers)).toEqual({ 'access-control-allow-origin': origin, vary: 'Origin' });
    }
  });
});
