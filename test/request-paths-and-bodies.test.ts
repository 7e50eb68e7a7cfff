import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { Agent, request } from 'node:http';
import { treeListing } from './helpers/serve.js';
import { RED_PNG, form } from './helpers/media.js';

/**
 * How every request is taken before its route answers: the path (a trailing slash, the root), the health check,
 * which methods have their body read, and when the connection ends with the answer.
 */
describe('requests as the server takes them', () => {
  let s: TestServer;
  let id = '';
  beforeAll(async () => {
    s = await startTestServer();
    // Made through the service: a request here would run the request rules outside every test (see docs/testing.md).
    id = (await s.project.documents.create('article', { title: 'Standing' })).documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('answers a path with one trailing slash as without it, and one with two as a 404', async () => {
    const one = await s.api('/api/articles/');
    expect(one.status).toBe(200);
    expect(one.body.data.map((a: { title: string }) => a.title)).toEqual(['Standing']);
    expect((await s.api(`/api/articles/${id}/`)).body.data.title).toBe('Standing');
    const two = await s.api('/api/articles//');
    expect([two.status, two.body.error.name]).toEqual([404, 'NotFoundError']);
  });

  it('redirects the root to the Studio, and answers the configured locales', async () => {
    const root = await fetch(`${s.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/admin']);
    const locales = await s.api('/api/i18n/locales');
    expect(locales.status).toBe(200);
    expect(locales.body.map((l: { code: string }) => l.code)).toEqual(['en', 'fr']);
  });

  it('answers the health check with 204 and Strapi’s header, whatever the method and case', async () => {
    for (const [method, path] of [
      ['GET', '/_health'],
      ['HEAD', '/_HEALTH'],
      ['POST', '/_health/'],
    ]) {
      const r = await fetch(`${s.url}${path}`, { method });
      expect([method, path, r.status, r.headers.get('strapi')]).toEqual([method, path, 204, 'You are so French!']);
    }
  });

  it('reads no body of a DELETE: a malformed one does not stop it', async () => {
    const doomed = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Doomed' } } });
    const r = await s.api(`/api/articles/${doomed.body.data.documentId}`, {
      method: 'DELETE',
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(204);
    expect((await s.api(`/api/articles/${doomed.body.data.documentId}`)).status).toBe(404);
  });

  it('reads the body of POST, PUT and PATCH: a malformed one is a 400 even where no route is', async () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const r = await s.api('/api/nothing-here', {
        method,
        rawBody: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      expect([method, r.status, r.body.error.name]).toEqual([method, 400, 'SyntaxError']);
    }
  });

  it('ends the connection after refusing a body before its end, and keeps it after a body read whole', async () => {
    const tree = treeListing(s.contentDir);
    // A client that would keep the connection (rawRequest's asks to close it).
    const agent = new Agent({ keepAlive: true });
    const big = await new Promise<{ status?: number; connection?: string }>((resolve, reject) => {
      const req = request(
        `${s.url}/api/articles`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024), ...s.auth },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode, connection: res.headers.connection });
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('{"data":{"title":"');
    });
    agent.destroy();
    expect(big).toEqual({ status: 413, connection: 'close' });
    expect(treeListing(s.contentDir)).toEqual(tree);
    // fetch keeps its connections alive; the server keeps them too after a whole body, even a refused one.
    for (const body of ['{"data":{"title":"Kept alive"}}', '{"data":']) {
      const r = await fetch(`${s.url}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...s.auth },
        body,
      });
      await r.arrayBuffer();
      expect([body, r.headers.get('connection')]).toEqual([body, 'keep-alive']);
    }
  });
});

describe('answers that populate media', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('show a file’s new alternative text at once, after a read of the same URL', async () => {
    const up = await fetch(`${s.url}/api/upload`, {
      method: 'POST',
      headers: s.auth,
      body: form([{ name: 'cover.png', type: 'image/png', data: RED_PNG }], { fileInfo: { alternativeText: 'old' } }),
    });
    const [file] = (await up.json()) as Array<{ id: number }>;
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'C', cover: file.id } } });
    const url = `/api/articles/${created.body.data.documentId}?populate=cover&status=draft`;
    expect((await s.api(url)).body.data.cover.alternativeText).toBe('old');
    const changed = await s.api(`/api/upload?id=${file.id}`, {
      method: 'POST',
      body: { fileInfo: { alternativeText: 'new' } },
    });
    expect(changed.status).toBe(200);
    expect((await s.api(url)).body.data.cover.alternativeText).toBe('new');
  });
});
