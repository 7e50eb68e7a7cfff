import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';

/** CRUD over HTTP with the document files on disk checked after every write. */
describe('CRUD over HTTP and the files on disk', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const fileOf = (plural: string, id: string) => join(s.contentDir, 'documents', plural, `${id}.json`);
  const readDoc = (plural: string, id: string) => JSON.parse(readFileSync(fileOf(plural, id), 'utf8'));

  it('creates a document file with deterministic formatting and answers 201 without an id', async () => {
    const res = await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Tech', slug: 'tech' } } });
    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({});
    const data = res.body.data;
    expect(data.id).toBeUndefined();
    expect(data.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(data.publishedAt).toBeTruthy(); // types without draft & publish are always published
    const text = readFileSync(fileOf('categories', data.documentId), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(JSON.parse(text)).toMatchObject({
      documentId: data.documentId,
      published: { name: 'Tech', slug: 'tech', description: null },
    });
  });

  it('updates only the given attributes and rewrites the file; the same data gives the same bytes', async () => {
    const { body } = await s.api('/api/categories', {
      method: 'POST',
      body: { data: { name: 'News', description: 'Old' } },
    });
    const id = body.data.documentId;
    const upd = await s.api(`/api/categories/${id}`, { method: 'PUT', body: { data: { description: 'New' } } });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ documentId: id, name: 'News', description: 'New' });
    expect(typeof upd.body.data.id).toBe('number');
    expect(readDoc('categories', id).published.description).toBe('New');
    const before = readFileSync(fileOf('categories', id), 'utf8');
    const doc = readDoc('categories', id);
    // Re-serialising the file's own content is byte-identical: output is deterministic.
    expect(`${JSON.stringify(doc, null, 2)}\n`).toBe(before);
  });

  it('keeps drafts and published versions in one file and follows the draft & publish rules', async () => {
    const draft = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Draft first' } },
    });
    expect(draft.status).toBe(201);
    const id = draft.body.data.documentId;
    expect(draft.body.data.publishedAt).toBeNull();
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);
    expect((await s.api('/api/articles')).body.data.map((a: { documentId: string }) => a.documentId)).not.toContain(id);
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft']);

    const pub = await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: {} } });
    expect(pub.status).toBe(200);
    expect(pub.body.data.publishedAt).toBeTruthy();
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft', 'published']);

    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Edited draft' } } });
    expect((await s.api(`/api/articles/${id}`)).body.data.title).toBe('Draft first');
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Edited draft');
    const file = readDoc('articles', id).locales.en;
    expect(file.draft.title).toBe('Edited draft');
    expect(file.published.title).toBe('Draft first');
  });

  it("deletes the file and answers 204 with no body, then 404 with Strapi's body", async () => {
    const { body } = await s.api('/api/tags', { method: 'POST', body: { data: { name: 'gone' } } });
    const id = body.data.documentId;
    const del = await s.api(`/api/tags/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(existsSync(fileOf('tags', id))).toBe(false);
    const again = await s.api(`/api/tags/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
    expect((await s.api(`/api/tags/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('removes a deleted document from the relations that pointed at it, on disk too', async () => {
    const tag = (await s.api('/api/tags', { method: 'POST', body: { data: { name: 'linked' } } })).body.data.documentId;
    const art = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Tagged', tags: [tag] } } }))
      .body.data.documentId;
    expect(readDoc('articles', art).locales.en.published.tags).toEqual([tag]);
    await s.api(`/api/tags/${tag}`, { method: 'DELETE' });
    const en = readDoc('articles', art).locales.en;
    expect(en.published.tags).toEqual([]);
    expect(en.draft.tags).toEqual([]);
  });

  it('single types: PUT creates (200), GET reads, DELETE removes', async () => {
    expect((await s.api('/api/global')).status).toBe(404);
    const put = await s.api('/api/global', { method: 'PUT', body: { data: { siteName: 'Site' } } });
    expect(put.status).toBe(200);
    expect(put.body.data.siteName).toBe('Site');
    expect((await s.api('/api/global')).body.data.siteName).toBe('Site');
    expect(readdirSync(join(s.contentDir, 'documents', 'globals'))).toHaveLength(1);
    expect((await s.api('/api/global', { method: 'DELETE' })).status).toBe(204);
    expect((await s.api('/api/global')).status).toBe(404);
    expect((await s.api('/api/global', { method: 'POST', body: { data: {} } })).status).toBe(405);
  });

  it.each([
    ['malformed JSON', { rawBody: '{"data":', headers: { 'content-type': 'application/json' } }, 400, 'SyntaxError'],
    ['a top-level string', { rawBody: '"x"', headers: { 'content-type': 'application/json' } }, 400, 'SyntaxError'],
    ['no data', { body: { nope: 1 } }, 400, 'ValidationError'],
    ['data as an array', { body: { data: [] } }, 400, 'ValidationError'],
    ['an unknown attribute', { body: { data: { name: 'x', nope: 1 } } }, 400, 'ValidationError'],
    ['an id', { body: { data: { name: 'x', id: 3 } } }, 400, 'ValidationError'],
    [
      'a prototype key',
      {
        rawBody: '{"data":{"name":"x","__proto__":{"polluted":true}}}',
        headers: { 'content-type': 'application/json' },
      },
      400,
      'ValidationError',
    ],
    ['a body over 1 MB', { body: { data: { name: 'x'.repeat(1_100_000) } } }, 413, 'PayloadTooLargeError'],
  ])('refuses %s with a clear error and writes nothing', async (_label, init, status, name) => {
    const before = existsSync(join(s.contentDir, 'documents', 'authors'))
      ? readdirSync(join(s.contentDir, 'documents', 'authors')).length
      : 0;
    const res = await s.api('/api/authors', { method: 'POST', ...(init as object) });
    expect(res.status).toBe(status);
    expect(res.body.data).toBeNull();
    expect(res.body.error).toMatchObject({ status, name });
    const after = existsSync(join(s.contentDir, 'documents', 'authors'))
      ? readdirSync(join(s.contentDir, 'documents', 'authors')).length
      : 0;
    expect(after).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives malformed JSON Strapi's SyntaxError shape without details", async () => {
    const res = await s.api('/api/authors', {
      method: 'POST',
      rawBody: '{"data":',
      headers: { 'content-type': 'application/json' },
    });
    expect(Object.keys(res.body.error).sort()).toEqual(['message', 'name', 'status']);
  });

  it.each(['..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'ABC', '..', 'a.json'])(
    'answers 404 for the path-like documentId %s',
    async (id) => {
      const res = await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: { title: 'x' } } });
      expect(res.status).toBe(404);
      expect(res.body.error.name).toBe('NotFoundError');
    },
  );

  it('answers HEAD like GET without a body, with the same ETag', async () => {
    const get = await fetch(`${s.url}/api/categories`, { headers: s.auth });
    await get.text();
    const head = await fetch(`${s.url}/api/categories`, { method: 'HEAD', headers: s.auth });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-type')).toContain('application/json');
  });

  it('answers unknown routes with a Strapi 404 and wrong methods with a 405 in the envelope', async () => {
    const unknown = await s.api('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Not Found');
    const wrong = await s.api('/api/articles', { method: 'PATCH', body: { data: {} } });
    expect(wrong.status).toBe(405);
    expect(wrong.body.error).toMatchObject({ status: 405, message: 'Method Not Allowed' });
    expect(wrong.headers.get('allow')).toBe('HEAD, GET, POST');
  });
});
