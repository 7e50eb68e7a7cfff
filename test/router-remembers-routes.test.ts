import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { moduleRouter } from '../src/http/router.js';
import { defineRoutes, type RouteRequest } from '../src/http-kit/route.js';

/**
 * Each route module remembers which of its routes answered a method and (lower-cased) path, and answers the next
 * request for them without asking h3's router again. A remembered path must answer every method, case and
 * documentId exactly as the first request did: the route of that method, a 405 with its `Allow`, a 404.
 */
describe('a route module answers a path it has seen as it did the first time', () => {
  let s: TestServer;
  let articleId: string;

  beforeAll(async () => {
    s = await startTestServer();
    const made = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Routed' } } });
    articleId = made.body.data.documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  // DELETE left out: it would remove what the other requests read.
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH'];
  const paths = () => [
    '/api/i18n/locales',
    '/API/I18N/locales',
    '/api/users/me',
    '/api/users-permissions/roles',
    '/api/upload/files',
    '/api/about',
    '/api/Articles',
    '/API/articles',
    `/api/articles/${articleId}`,
    `/api/articles/${articleId.toUpperCase()}`,
    '/api/articles/nope/more',
    '/documentation/v1.0.0/openapi.json',
  ];
  // Only what a request without a body answers alike every time (no write succeeds without one).
  const seen = async (server: TestServer, method: string, path: string) => {
    const bodyless = method === 'GET' || method === 'HEAD';
    const init = bodyless ? { method } : { method, headers: { 'content-type': 'text/plain' }, rawBody: '' };
    const res = await server.api(path, init);
    return { status: res.status, allow: res.headers.get('allow'), error: res.body?.error?.name ?? null };
  };

  // The reference: a second server on the same project that is asked this method alone.
  it.each(methods)('%s after every other method was routed', async (method) => {
    const ref = await startTestServer({ dir: s.dir });
    try {
      for (const path of paths()) {
        const expected = await seen(ref, method, path);
        for (const other of methods) if (other !== method) await seen(s, other, path);
        expect(await seen(s, method, path), `${method} ${path}`).toEqual(expected);
        expect(await seen(s, method, path), `${method} ${path}, again`).toEqual(expected);
      }
    } finally {
      await ref.close();
    }
  });

  it('documentIds past what a module remembers are routed as the first ones', async () => {
    for (let i = 0; i < 1100; i++) {
      const res = await s.api(`/api/articles/missing${i}`);
      expect(res.status).toBe(404);
    }
    const found = await s.api(`/api/articles/${articleId}`);
    expect(found.status).toBe(200);
    expect(found.body.data.documentId).toBe(articleId);
  });
});

describe('what a route module remembers stays small whatever paths clients send', () => {
  const things = moduleRouter(
    defineRoutes({
      routes: [{ method: 'GET', path: '/things/:id', handler: 'one' }],
      load: async () => ({ one: (req: RouteRequest) => `thing ${req.params.id}` }),
    }),
  );
  const ask = async (path: string) => {
    const request = { method: 'GET', path, params: {} } as unknown as RouteRequest;
    return await things(request, path.toLowerCase())?.answer;
  };

  it('forgets what it remembered past 1,024 paths, and still answers each path with its own params', async () => {
    for (let i = 0; i < 3000; i++) expect(await ask(`/things/t${i}`)).toBe(`thing t${i}`);
    expect(things.remembered()).toBeGreaterThan(0);
    expect(things.remembered()).toBeLessThanOrEqual(1024);
    expect(await ask('/things/T1')).toBe('thing T1');
  });

  it('does not remember a long path', async () => {
    const before = things.remembered();
    const long = `/things/${'x'.repeat(5000)}`;
    expect(await ask(long)).toBe(`thing ${'x'.repeat(5000)}`);
    expect(await ask(long)).toBe(`thing ${'x'.repeat(5000)}`);
    expect(things.remembered()).toBe(before);
  });
});
