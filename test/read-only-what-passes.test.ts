import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { treeListing } from './helpers/serve.js';

/**
 * What a `--read-only` server still answers as usual: reads (GET, HEAD, OPTIONS), paths outside the API, and the
 * sign-in, renewal and sign-out POSTs, each answered by its own route (a refused write is a 403 whose message
 * says the server is read-only). Every answer leaves content/ as it was.
 */
describe('a read-only server lets through', () => {
  let s: TestServer;
  let tree: string[] = [];
  const READ_ONLY = 'This server is read-only: writes are refused';
  beforeAll(async () => {
    s = await startTestServer({ app: { readOnly: true }, config: { users: { ratelimit: { enabled: false } } } });
    tree = treeListing(s.contentDir);
  });
  afterAll(async () => {
    expect(treeListing(s.contentDir)).toEqual(tree);
    await s.stop();
  });

  it('refuses a write with 403 ForbiddenError in the envelope', async () => {
    const r = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'New' } } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: READ_ONLY, details: {} },
    });
  });

  it('answers HEAD and OPTIONS as a writable server does', async () => {
    const head = await fetch(`${s.url}/api/articles`, { method: 'HEAD', headers: s.auth });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^W\/"/);
    // OPTIONS without a preflight's headers is no method of the content API: 405, not the read-only 403.
    const options = await s.api('/api/articles', { method: 'OPTIONS' });
    expect([options.status, options.body.error.name]).toEqual([405, 'MethodNotAllowedError']);
  });

  it.each([
    ['/nothing', 404, 'NotFoundError'],
    ['/x/api/articles', 404, 'NotFoundError'],
    ['/_folioish', 404, 'NotFoundError'],
    // The Studio's pages take only GET.
    ['/admin/api', 405, 'MethodNotAllowedError'],
  ])(
    'answers a write to %s, outside /api and /_folio/, as its path does (%i), not as refused',
    async (path, status, name) => {
      const r = await s.api(path, { method: 'POST', body: { data: {} } });
      expect([r.status, r.body.error.name]).toEqual([status, name]);
    },
  );

  it('answers sign-in, renewal and sign-out POSTs with their own routes, in any case and with a query', async () => {
    const wrong = { identifier: 'nobody@example.com', password: 'wrong-password' };
    for (const path of ['/api/auth/local?from=studio', '/API/Auth/Local']) {
      const r = await s.api(path, { method: 'POST', anonymous: true, body: wrong });
      expect([path, r.status, r.body.error.message]).toEqual([path, 400, 'Invalid identifier or password']);
    }
    const refresh = await s.api('/api/auth/refresh', { method: 'POST', anonymous: true, body: {} });
    expect([refresh.status, refresh.body.error.message]).toEqual([400, 'Missing refresh token']);
    const studio = await s.api('/_folio/studio/sign-in', { method: 'POST', anonymous: true, body: { code: 'x' } });
    expect(studio.status).toBe(400);
    expect(studio.body.error.message).toMatch(/^This sign-in link has expired or was used already/);
  });

  it('signs a user out', async () => {
    const r = await s.api('/api/auth/logout', { method: 'POST', as: { user: 'ada' }, body: {} });
    expect(r.status).toBe(200);
  });

  it('answers a pull on a server that follows no remote with 404, as its route does', async () => {
    const r = await s.api('/_folio/git/pull', { method: 'POST' });
    expect([r.status, r.body.error.name]).toEqual([404, 'NotFoundError']);
  });

  it('tells the Studio the server is read-only: no write action is offered', async () => {
    const r = await s.api('/_folio/studio/permissions');
    expect(r.status).toBe(200);
    expect(r.body.meta.readOnly).toBe(true);
    expect(r.body.data).toContain('api::article.article.find');
    expect(r.body.data).not.toContain('api::article.article.create');
  });
});

describe('a writable server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('tells the Studio it takes writes', async () => {
    const r = await s.api('/_folio/studio/permissions');
    expect(r.body.meta.readOnly).toBe(false);
    expect(r.body.data).toContain('api::article.article.create');
  });
});
