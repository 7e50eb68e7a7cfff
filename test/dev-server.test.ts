import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { WebhookDispatcher } from '../src/webhooks/webhooks.js';
import { eventually } from './helpers/eventually.js';

const authorFile = (id: string, name: string, n = 1) =>
  `${JSON.stringify(
    {
      documentId: id,
      published: {
        id: n,
        name,
        email: null,
        avatar: null,
        bio: null,
        createdAt: '2024-01-01T00:00:00.000Z',
        updatedAt: '2024-01-01T00:00:00.000Z',
        publishedAt: '2024-01-01T00:00:00.000Z',
      },
    },
    null,
    2,
  )}\n`;

describe('hot reload', () => {
  let s: TestServer;
  let watcher: Watcher;
  const problems: string[] = [];
  beforeAll(async () => {
    s = await startTestServer();
    mkdirSync(join(s.contentDir, 'documents', 'authors'), { recursive: true });
    watcher = await watchProject(s.project, {
      onChange: (c) => {
        if (c.problem) problems.push(`${c.file}: ${c.problem}`);
      },
    });
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const names = async () =>
    ((await s.api('/api/authors')).body.data as Array<{ name: string }>).map((a) => a.name).sort();

  it('picks up a document file added, edited and deleted by hand', async () => {
    const file = join(s.contentDir, 'documents', 'authors', 'handmadeauthor0000000001.json');
    writeFileSync(file, authorFile('handmadeauthor0000000001', 'Hand Made'));
    await eventually(async () => (await names()).includes('Hand Made'), 'the file added by hand');
    writeFileSync(file, authorFile('handmadeauthor0000000001', 'Hand Edited'));
    await eventually(async () => (await names()).includes('Hand Edited'), 'the edit by hand');
    rmSync(file);
    await eventually(async () => !(await names()).includes('Hand Edited'), 'the file deleted by hand');
  });

  it('keeps serving the last good version of a broken file and recovers when it is fixed', async () => {
    const file = join(s.contentDir, 'documents', 'authors', 'brokenauthor000000000001.json');
    writeFileSync(file, authorFile('brokenauthor000000000001', 'Good One'));
    await eventually(async () => (await names()).includes('Good One'), 'the good version');
    writeFileSync(file, '{ "documentId": "brokenauthor000000000001", "published": { "na');
    await eventually(() => problems.some((p) => p.includes('brokenauthor000000000001')), 'the broken file reported');
    expect(await names()).toContain('Good One');
    writeFileSync(file, authorFile('brokenauthor000000000001', 'Fixed One'));
    await eventually(async () => (await names()).includes('Fixed One'), 'the fixed version');
  });

  it('does not reload its own writes, and its writes are served at once', async () => {
    const res = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Via API' } } });
    expect(res.status).toBe(201);
    expect(await names()).toContain('Via API');
  });

  it('settles into the new tree after many files change at once (a branch switch)', async () => {
    const dir = join(s.contentDir, 'documents', 'authors');
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    for (let i = 0; i < 150; i++) {
      const id = `branchauthor${String(i).padStart(12, '0')}`;
      writeFileSync(join(dir, `${id}.json`), authorFile(id, `Branch ${i}`, 1000 + i));
    }
    await eventually(
      async () => (await s.api('/api/authors?pagination[pageSize]=1')).body.meta.pagination.total === 150,
      'the 150 files of the new tree',
    );
    expect((await names()).every((n) => n.startsWith('Branch'))).toBe(true);
  });

  it('follows a collection folder created after start, and one removed with its files', async () => {
    // No category was ever written: its folder does not exist yet.
    const dir = join(s.contentDir, 'documents', 'categories');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const category = (id: string, name: string) =>
      `${JSON.stringify(
        {
          documentId: id,
          published: {
            id: 2,
            name,
            slug: null,
            description: null,
            createdAt: '2024-01-01T00:00:00.000Z',
            updatedAt: '2024-01-01T00:00:00.000Z',
            publishedAt: '2024-01-01T00:00:00.000Z',
          },
        },
        null,
        2,
      )}\n`;
    const categories = async () =>
      ((await s.api('/api/categories')).body.data as Array<{ name: string }>).map((c) => c.name).sort();
    writeFileSync(join(dir, 'newfoldercategory0000001.json'), category('newfoldercategory0000001', 'In New Folder'));
    await eventually(async () => (await categories()).includes('In New Folder'), 'the category in the new folder');
    // A later file in that folder is seen through the folder's own watcher.
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(join(dir, 'newfoldercategory0000002.json'), category('newfoldercategory0000002', 'Second In Folder'));
    await eventually(
      async () => (await categories()).includes('Second In Folder'),
      'the second category in the folder',
    );
    rmSync(dir, { recursive: true });
    await eventually(async () => (await categories()).length === 0, 'no category once the folder is gone');
  });

  it('reloads schemas: a new content-type gets its routes, a deleted one loses them', async () => {
    expect((await s.api('/api/notes')).status).toBe(404);
    const schema = {
      kind: 'collectionType',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: {},
      attributes: { text: { type: 'string' } },
    };
    writeFileSync(join(s.contentDir, 'types', 'note.json'), JSON.stringify(schema));
    await eventually(async () => (await s.api('/api/notes')).status === 200, 'the new type routed');
    rmSync(join(s.contentDir, 'types', 'note.json'));
    await eventually(async () => (await s.api('/api/notes')).status === 404, 'the deleted type unrouted');
  });
});

describe('hot reload in a project that has no documents/ folder yet', () => {
  it('notices the folder, its collection folders and their files as they are created', async () => {
    const s = await startTestServer();
    rmSync(join(s.contentDir, 'documents'), { recursive: true, force: true });
    const watcher = await watchProject(s.project);
    await watcher.ready;
    try {
      mkdirSync(join(s.contentDir, 'documents', 'authors'), { recursive: true });
      writeFileSync(
        join(s.contentDir, 'documents', 'authors', 'firstauthorever000000001.json'),
        authorFile('firstauthorever000000001', 'First Ever'),
      );
      const names = async () => ((await s.api('/api/authors')).body.data as Array<{ name: string }>).map((a) => a.name);
      await eventually(async () => (await names()).includes('First Ever'), 'the first author');
      await new Promise((r) => setTimeout(r, 100));
      writeFileSync(
        join(s.contentDir, 'documents', 'authors', 'secondauthorever00000002.json'),
        authorFile('secondauthorever00000002', 'Second Ever', 2),
      );
      await eventually(async () => (await names()).includes('Second Ever'), 'the second author');
    } finally {
      await watcher.close();
      await s.stop();
    }
  });
});

describe('live events and webhooks', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('streams entry events over SSE at /_folio/events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/_folio/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const created = await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Live' } } });
    let text = '';
    // Reads until the event comes (the test's timeout fails it if it never does) or the stream ends.
    while (!text.includes('entry.create')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('event: entry.create');
    expect(text).toContain(created.body.data.documentId);
  });

  it('tells a caller only about the types it may find', async () => {
    const read = async (headers: Record<string, string>) => {
      const controller = new AbortController();
      const res = await fetch(`${s.url}/_folio/events`, { signal: controller.signal, headers });
      const reader = res.body!.getReader();
      // Tags are private in the fixture permissions, categories public.
      const tag = (await s.api('/api/tags', { method: 'POST', body: { data: { name: `secret ${Math.random()}` } } }))
        .body.data.documentId as string;
      const category = (
        await s.api('/api/categories', { method: 'POST', body: { data: { name: `open ${Math.random()}` } } })
      ).body.data.documentId as string;
      let text = '';
      while (!text.includes(category)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      controller.abort();
      return { text, tag, category };
    };
    const anonymous = await read({});
    expect(anonymous.text).toContain(anonymous.category);
    expect(anonymous.text).not.toContain(anonymous.tag);
    expect(anonymous.text).not.toContain('api::tag.tag');
    const full = await read(s.auth);
    expect(full.text).toContain(full.tag);
    expect(full.text).toContain(full.category);
    const bad = await fetch(`${s.url}/_folio/events`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
  });

  it('posts Strapi-shaped webhook payloads, retrying a failed delivery', async () => {
    const received: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
    let failFirst = true;
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (failFirst) {
          failFirst = false;
          res.statusCode = 503;
          res.end();
          return;
        }
        received.push({ headers: req.headers, body: JSON.parse(body) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    const port = (hook.address() as AddressInfo).port;
    s.project.config.webhooks = [
      {
        name: 'site',
        url: `http://127.0.0.1:${port}/hook`,
        headers: { 'x-secret': 's3' },
        events: ['entry.create', 'entry.publish'],
        enabled: true,
      },
    ];
    const dispatcher = new WebhookDispatcher(s.project);
    const stop = dispatcher.start();
    const author = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Hooked' } } });
    expect(author.status).toBe(201);
    await eventually(() => received.length >= 1, 'the webhook received');
    await dispatcher.idle();
    stop();
    hook.close();
    const first = received[0];
    expect(first.headers['x-strapi-event']).toBe('entry.create');
    expect(first.headers['x-secret']).toBe('s3');
    expect(first.body).toMatchObject({
      event: 'entry.create',
      model: 'author',
      uid: 'api::author.author',
      entry: { documentId: author.body.data.documentId, name: 'Hooked' },
    });
    expect(typeof first.body.createdAt).toBe('string');
  });
});

describe('server basics', () => {
  let s: TestServer;
  let articleId: string;
  beforeAll(async () => {
    s = await startTestServer();
    const author = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } });
    const art = await s.api('/api/articles', {
      method: 'POST',
      body: {
        data: { title: 'V4', author: author.body.data.documentId, seo: { metaTitle: 'M', metaDescription: 'D' } },
      },
    });
    articleId = art.body.data.documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('answers the v4 format when asked with Strapi-Response-Format: v4', async () => {
    const one = await s.api(`/api/articles/${articleId}?populate[0]=author&populate[1]=seo&populate[2]=cover`, {
      headers: { 'Strapi-Response-Format': 'v4' },
    });
    expect(one.status).toBe(200);
    const d = one.body.data;
    expect(Object.keys(d)).toEqual(['id', 'documentId', 'attributes']);
    expect(d.attributes.title).toBe('V4');
    expect(d.attributes.author.data.attributes.name).toBe('Ann');
    expect(d.attributes.seo).toEqual({ metaTitle: 'M', metaDescription: 'D' });
    expect(d.attributes.cover).toEqual({ data: null });
    const list = await s.api('/api/articles', { headers: { 'strapi-response-format': 'v4' } });
    expect(list.body.data[0].attributes.title).toBe('V4');
    expect(list.body.meta.pagination.total).toBe(1);
  });

  it('sends CORS headers echoing the Origin and answers preflights with 204', async () => {
    const res = await s.api('/api/articles', { headers: { origin: 'http://site.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://site.test');
    // Credentials only for origins server.cors names (see security-sessions.test.ts).
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const pre = await fetch(`${s.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: 'http://site.test', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('answers 304 to a GET with a matching ETag', async () => {
    const first = await fetch(`${s.url}/api/articles`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${s.url}/api/articles`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('compresses large JSON answers for clients that accept gzip', async () => {
    for (let i = 0; i < 10; i++)
      await s.api('/api/categories', {
        method: 'POST',
        body: { data: { name: `Category number ${i}`, description: 'x'.repeat(200) } },
      });
    const { request } = await import('node:http');
    const encoding = await new Promise<string | undefined>((resolve, reject) => {
      request(`${s.url}/api/categories`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.resume();
        resolve(res.headers['content-encoding']);
      })
        .on('error', reject)
        .end();
    });
    expect(encoding).toBe('gzip');
  });

  it('refuses writes in read-only mode and still serves reads', async () => {
    const ro = await startTestServer({ app: { readOnly: true } });
    try {
      const w = await ro.api('/api/authors', { method: 'POST', body: { data: { name: 'No' } } });
      expect(w.status).toBe(403);
      expect(w.body.error.name).toBe('ForbiddenError');
      expect((await ro.api('/api/authors')).status).toBe(200);
      expect(() => readdirSync(join(ro.contentDir, 'documents', 'authors'))).toThrow();
    } finally {
      await ro.stop();
    }
  });
});

void readFileSync;
