import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { decodeDocument, encodeDocument } from '../src/documents/file-format.js';

/**
 * CRUD over a real HTTP server, as a Strapi v5 client sees it (strapi-v5-rest.md §2, §3, §5, §9, §16, Appendix B;
 * folio-decisions.md), with the document files under content/documents checked after every write.
 */

const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

/** Every file below `dir`, relative, with its bytes: to prove that a refused request wrote nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A raw HTTP request whose path is sent exactly as written (fetch would normalise `%2e%2e` away). */
function rawRequest(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP CRUD on collection types', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const fileOf = (plural: string, id: string) => join(s.contentDir, 'documents', plural, `${id}.json`);
  const textOf = (plural: string, id: string) => readFileSync(fileOf(plural, id), 'utf8');
  const readDoc = (plural: string, id: string) => JSON.parse(textOf(plural, id));
  const post = (plural: string, data: unknown, query = '') =>
    s.api(`/api/${plural}${query}`, { method: 'POST', body: { data } });
  const put = (path: string, data: unknown) => s.api(path, { method: 'PUT', body: { data } });

  it('POST answers 201 with the document, no id, a cuid-like documentId, ISO timestamps and meta {}', async () => {
    const res = await post('categories', { name: 'Tech', slug: 'tech' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(res.body)).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({});
    const d = res.body.data;
    expect(d).not.toHaveProperty('id');
    expect(d.documentId).toMatch(DOCUMENT_ID);
    // Attributes in schema order, then the timestamps; unset scalars are null; relations are absent; no locale on
    // a type that is not localized.
    expect(Object.keys(d)).toEqual([
      'documentId',
      'name',
      'slug',
      'description',
      'createdAt',
      'updatedAt',
      'publishedAt',
    ]);
    expect(d).toMatchObject({ name: 'Tech', slug: 'tech', description: null });
    for (const k of ['createdAt', 'updatedAt', 'publishedAt']) expect(d[k]).toMatch(ISO_MS);
    expect(Math.abs(Date.parse(d.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('POST on a localized type answers with the locale and the schema defaults', async () => {
    const res = await post('articles', { title: 'Hello', views: 3 });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).not.toHaveProperty('id');
    expect(d.documentId).toMatch(DOCUMENT_ID);
    expect(d).toMatchObject({ title: 'Hello', views: 3, featured: false, slug: null, locale: 'en' });
    expect(Object.keys(d).slice(-4)).toEqual(['createdAt', 'updatedAt', 'publishedAt', 'locale']);
    expect(d).not.toHaveProperty('secretNote');
    for (const k of ['author', 'category', 'tags', 'cover', 'blocks', 'seo', 'links']) expect(d).not.toHaveProperty(k);
  });

  it('gives every created document its own documentId and its own file', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await post('tags', { name: `distinct-${i}` })).body.data.documentId);
    expect(ids.size).toBe(5);
    for (const id of ids) {
      expect(id).toMatch(DOCUMENT_ID);
      expect(readDoc('tags', id).documentId).toBe(id);
    }
  });

  const formattingTitle =
    'writes the document file with deterministic formatting: 2-space indent, one trailing newline, stable bytes';
  it(formattingTitle, async () => {
    const res = await post('categories', { name: 'Format', description: 'Line one\nline "two" — ünïcode' });
    const id = res.body.data.documentId;
    const text = textOf('categories', id);
    const parsed = JSON.parse(text);
    expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text.split('\n')[1]).toMatch(/^ {2}"documentId": /);
    expect(parsed).toEqual({
      documentId: id,
      published: {
        id: expect.any(Number),
        name: 'Format',
        slug: null,
        description: 'Line one\nline "two" — ünïcode',
        createdAt: res.body.data.createdAt,
        updatedAt: res.body.data.updatedAt,
        publishedAt: res.body.data.publishedAt,
      },
    });
    // Reading the file back and writing the same data again gives identical bytes.
    const ct = s.project.schemas.find('category')!;
    const again = `${JSON.stringify(encodeDocument(ct, decodeDocument(ct, id, parsed)), null, 2)}\n`;
    expect(again).toBe(text);
    // A write to another document leaves this file's bytes alone.
    await post('categories', { name: 'Unrelated' });
    expect(textOf('categories', id)).toBe(text);
  });

  it('round-trips a localized draft & publish file through decode and encode byte for byte', async () => {
    const id = (await post('articles', { title: 'Round trip', description: 'd', views: 1, publishDate: '2024-05-06' }))
      .body.data.documentId;
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Round trip (draft)' } } });
    const text = textOf('articles', id);
    const ct = s.project.schemas.find('article')!;
    expect(`${JSON.stringify(encodeDocument(ct, decodeDocument(ct, id, JSON.parse(text))), null, 2)}\n`).toBe(text);
  });

  it('GET list answers the envelope with page-based pagination defaults', async () => {
    const res = await s.api('/api/categories');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'meta']);
    expect(Array.isArray(res.body.data)).toBe(true);
    const total = res.body.data.length;
    expect(total).toBeGreaterThan(0);
    expect(res.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total } });
    for (const d of res.body.data) {
      expect(Object.keys(d).slice(0, 2)).toEqual(['id', 'documentId']);
      expect(typeof d.id).toBe('number');
    }
  });

  it('GET one answers the document with its id and meta {}', async () => {
    const created = (await post('categories', { name: 'Read me', description: 'body' })).body.data;
    const res = await s.api(`/api/categories/${created.documentId}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({});
    expect(Object.keys(res.body.data)).toEqual([
      'id',
      'documentId',
      'name',
      'slug',
      'description',
      'createdAt',
      'updatedAt',
      'publishedAt',
    ]);
    expect(res.body.data).toEqual({ id: expect.any(Number), ...created });
    expect(res.body.data.id).toBe(readDoc('categories', created.documentId).published.id);
  });

  it("GET one of an unknown or numeric id answers Strapi's exact 404 body", async () => {
    for (const path of ['/api/categories/abcdefghijklmnopqrstuvwx', '/api/categories/1']) {
      const res = await s.api(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual(NOT_FOUND);
    }
  });

  it('PUT updates only the given scalars, keeps createdAt, moves updatedAt, and rewrites the file', async () => {
    const created = (await post('categories', { name: 'Partial', slug: 'partial', description: 'Old' })).body.data;
    const id = created.documentId;
    const before = readDoc('categories', id);
    await new Promise((r) => setTimeout(r, 5));
    const res = await put(`/api/categories/${id}`, { description: 'New' });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({});
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      documentId: id,
      name: 'Partial',
      slug: 'partial',
      description: 'New',
      createdAt: created.createdAt,
    });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    // Types without draft & publish get publishedAt refreshed on every update (§2).
    expect(res.body.data.publishedAt).toMatch(ISO_MS);
    expect(Date.parse(res.body.data.publishedAt)).toBeGreaterThan(Date.parse(created.publishedAt));
    const after = readDoc('categories', id);
    expect(after.published).toMatchObject({
      name: 'Partial',
      slug: 'partial',
      description: 'New',
      createdAt: created.createdAt,
      updatedAt: res.body.data.updatedAt,
    });
    expect(after.published.updatedAt).not.toBe(before.published.updatedAt);
    expect((await s.api(`/api/categories/${id}`)).body.data).toEqual(res.body.data);

    // null clears a value; omitted values stay.
    const cleared = await put(`/api/categories/${id}`, { description: null });
    expect(cleared.body.data).toMatchObject({ name: 'Partial', slug: 'partial', description: null });
    expect(readDoc('categories', id).published.description).toBeNull();
  });

  it('PUT on an unknown documentId answers 404 and creates no file', async () => {
    const ghost = 'zzzzzzzzzzzzzzzzzzzzzzzz';
    const res = await put(`/api/categories/${ghost}`, { name: 'ghost' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect(existsSync(fileOf('categories', ghost))).toBe(false);
  });

  const deleteTitle =
    'DELETE answers 204 with an empty body, removes the file, then GET/PUT answer 404 and DELETE stays 204';
  it(deleteTitle, async () => {
    const id = (await post('tags', { name: 'doomed' })).body.data.documentId;
    expect(existsSync(fileOf('tags', id))).toBe(true);
    const del = await s.api(`/api/tags/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(existsSync(fileOf('tags', id))).toBe(false);
    const get = await s.api(`/api/tags/${id}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual(NOT_FOUND);
    expect((await put(`/api/tags/${id}`, { name: 'back?' })).status).toBe(404);
    expect(existsSync(fileOf('tags', id))).toBe(false);
    const list = await s.api('/api/tags');
    expect(list.body.data.map((t: { documentId: string }) => t.documentId)).not.toContain(id);
    const again = await s.api(`/api/tags/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
  });

  it('DELETE on a draft & publish type removes the draft and the published version together', async () => {
    const id = (await post('articles', { title: 'Both versions' })).body.data.documentId;
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft', 'published']);
    expect((await s.api(`/api/articles/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(existsSync(fileOf('articles', id))).toBe(false);
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);
    expect((await s.api(`/api/articles/${id}?status=draft`)).status).toBe(404);
  });

  it("answers unknown routes with Strapi's exact 404 body", async () => {
    // `/api` itself lists the types and their routes (landing.ts): every path below it keeps the 404.
    for (const path of ['/api/nothing-here', '/api/nothing-here/abc', '/api/articles/a/b']) {
      const res = await s.api(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual(NOT_FOUND);
    }
    const post404 = await s.api('/api/nothing-here', { method: 'POST', body: { data: {} } });
    expect(post404.status).toBe(404);
    expect(post404.body).toEqual(NOT_FOUND);
  });

  it.each([
    ['PATCH', '/api/articles', 'HEAD, GET, POST'],
    ['DELETE', '/api/articles', 'HEAD, GET, POST'],
    ['PUT', '/api/articles', 'HEAD, GET, POST'],
    ['POST', '/api/articles/abcdefghijklmnopqrstuvwx', 'HEAD, GET, PUT, DELETE'],
    ['PATCH', '/api/articles/abcdefghijklmnopqrstuvwx', 'HEAD, GET, PUT, DELETE'],
    ['POST', '/api/global', 'HEAD, GET, PUT, DELETE'],
  ])('answers %s %s with a 405 in the JSON envelope and Allow: %s', async (method, path, allow) => {
    const res = await s.api(path, { method, body: { data: { title: 'x' } } });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.error).toMatchObject({ status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed' });
    expect(res.headers.get('allow')).toBe(allow);
  });

  it('a 405 writes nothing', async () => {
    const before = snapshot(s.contentDir);
    await s.api('/api/global', { method: 'POST', body: { data: { siteName: 'never' } } });
    await s.api('/api/articles', { method: 'PATCH', body: { data: { title: 'never' } } });
    expect(snapshot(s.contentDir)).toEqual(before);
  });
});

describe('HTTP pagination defaults', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('an empty collection has total 0 and pageCount 0', async () => {
    const res = await s.api('/api/tags');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('pages of 25 by default, with pageCount = ceil(total / 25)', async () => {
    for (let i = 0; i < 27; i++) {
      expect(
        (await s.api('/api/tags', { method: 'POST', body: { data: { name: `t${String(i).padStart(2, '0')}` } } }))
          .status,
      ).toBe(201);
    }
    const first = await s.api('/api/tags');
    expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 2, total: 27 });
    expect(first.body.data).toHaveLength(25);
    const second = await s.api('/api/tags?pagination[page]=2');
    expect(second.body.meta.pagination).toEqual({ page: 2, pageSize: 25, pageCount: 2, total: 27 });
    expect(second.body.data).toHaveLength(2);
    const all = [...first.body.data, ...second.body.data].map((t: { documentId: string }) => t.documentId);
    expect(new Set(all).size).toBe(27);
  });
});

describe('HTTP CRUD on single types', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const files = (plural: string) => {
    const dir = join(s.contentDir, 'documents', plural);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  };

  it('GET answers 404 before any content, PUT creates it (200), a second PUT updates the same document', async () => {
    const empty = await s.api('/api/global');
    expect(empty.status).toBe(404);
    expect(empty.body).toEqual(NOT_FOUND);
    expect(files('globals')).toEqual([]);

    const created = await s.api('/api/global', {
      method: 'PUT',
      body: { data: { siteName: 'My site', siteDescription: 'About it' } },
    });
    expect(created.status).toBe(200);
    expect(created.body.meta).toEqual({});
    const d = created.body.data;
    expect(d.documentId).toMatch(DOCUMENT_ID);
    expect(d).toMatchObject({ siteName: 'My site', siteDescription: 'About it' });
    expect(d.publishedAt).toMatch(ISO_MS);
    expect(files('globals')).toEqual([`${d.documentId}.json`]);

    const got = await s.api('/api/global');
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ documentId: d.documentId, siteName: 'My site', siteDescription: 'About it' });
    expect(typeof got.body.data.id).toBe('number');

    const updated = await s.api('/api/global', { method: 'PUT', body: { data: { siteName: 'Renamed' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      documentId: d.documentId,
      siteName: 'Renamed',
      siteDescription: 'About it',
      createdAt: d.createdAt,
    });
    expect(files('globals')).toEqual([`${d.documentId}.json`]);
    const onDisk = JSON.parse(readFileSync(join(s.contentDir, 'documents', 'globals', `${d.documentId}.json`), 'utf8'));
    expect(onDisk.published).toMatchObject({ siteName: 'Renamed', siteDescription: 'About it' });
  });

  const deleteAgainTitle =
    'DELETE answers 204 with no body and removes the file; GET answers 404 again; DELETE of nothing is 204';
  it(deleteAgainTitle, async () => {
    const del = await s.api('/api/global', { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(files('globals')).toEqual([]);
    expect((await s.api('/api/global')).body).toEqual(NOT_FOUND);
    expect((await s.api('/api/global', { method: 'DELETE' })).status).toBe(204);
  });

  it('a single type with draft & publish: PUT ?status=draft creates a draft invisible to published reads', async () => {
    const draft = await s.api('/api/about?status=draft', { method: 'PUT', body: { data: { title: 'About (draft)' } } });
    expect(draft.status).toBe(200);
    expect(draft.body.data).toMatchObject({ title: 'About (draft)', publishedAt: null, locale: 'en' });
    expect((await s.api('/api/about')).status).toBe(404);
    expect((await s.api('/api/about?status=draft')).body.data.title).toBe('About (draft)');
    const published = await s.api('/api/about', { method: 'PUT', body: { data: {} } });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({
      documentId: draft.body.data.documentId,
      title: 'About (draft)',
      publishedAt: expect.stringMatching(ISO_MS),
    });
    expect((await s.api('/api/about')).body.data.title).toBe('About (draft)');
    expect(files('abouts')).toEqual([`${draft.body.data.documentId}.json`]);
  });
});

describe('draft & publish over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const readDoc = (plural: string, id: string) =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', plural, `${id}.json`), 'utf8'));
  const ids = async (path: string) =>
    (await s.api(path)).body.data.map((d: { documentId: string }) => d.documentId) as string[];

  it('POST without status publishes: a draft and a published version, both readable', async () => {
    const res = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Live' } } });
    expect(res.status).toBe(201);
    const id = res.body.data.documentId;
    expect(res.body.data.publishedAt).toMatch(ISO_MS);
    const pub = await s.api(`/api/articles/${id}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({ title: 'Live', publishedAt: res.body.data.publishedAt });
    // A draft read always shows publishedAt null (§2).
    const draft = await s.api(`/api/articles/${id}?status=draft`);
    expect(draft.status).toBe(200);
    expect(draft.body.data).toMatchObject({ title: 'Live', publishedAt: null });
    expect(await ids('/api/articles')).toContain(id);
    const file = readDoc('articles', id).locales.en;
    expect(Object.keys(file)).toEqual(['draft', 'published']);
    expect(file.draft).toMatchObject({ title: 'Live', publishedAt: null });
    expect(file.published).toMatchObject({ title: 'Live', publishedAt: res.body.data.publishedAt });
  });

  it('POST ?status=draft creates a draft that published reads do not see', async () => {
    const res = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Hidden draft' } },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.documentId;
    expect(res.body.data).not.toHaveProperty('id');
    expect(res.body.data.publishedAt).toBeNull();
    const get = await s.api(`/api/articles/${id}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual(NOT_FOUND);
    expect(await ids('/api/articles')).not.toContain(id);
    expect(await ids('/api/articles?status=published')).not.toContain(id);
    expect(await ids('/api/articles?status=draft')).toContain(id);
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Hidden draft');
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft']);
  });

  it('ignores a publishedAt sent in data (drafts stay unpublished)', async () => {
    const res = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Sneaky', publishedAt: '2020-01-01T00:00:00.000Z' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.publishedAt).toBeNull();
    expect((await s.api(`/api/articles/${res.body.data.documentId}`)).status).toBe(404);
  });

  it('PUT ?status=draft changes the draft only; the published version stays as it was, on disk too', async () => {
    const created = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Original', views: 1 } } }))
      .body.data;
    const id = created.documentId;
    const publishedBefore = readDoc('articles', id).locales.en.published;
    const res = await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Edited' } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ documentId: id, title: 'Edited', views: 1, publishedAt: null });
    const pub = await s.api(`/api/articles/${id}`);
    expect(pub.body.data).toMatchObject({
      title: 'Original',
      publishedAt: created.publishedAt,
      updatedAt: created.updatedAt,
    });
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Edited');
    const file = readDoc('articles', id).locales.en;
    expect(file.draft.title).toBe('Edited');
    expect(file.published).toEqual(publishedBefore);
  });

  it('PUT without status applies the data to the draft and publishes it', async () => {
    const created = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'v1', views: 1 } } })).body
      .data;
    const id = created.documentId;
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'v2 (draft)' } } });
    await new Promise((r) => setTimeout(r, 5));
    const res = await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: { views: 2 } } });
    expect(res.status).toBe(200);
    // The whole draft is published: the earlier draft-only title comes along.
    expect(res.body.data).toMatchObject({
      documentId: id,
      title: 'v2 (draft)',
      views: 2,
      createdAt: created.createdAt,
    });
    expect(res.body.data.publishedAt).toMatch(ISO_MS);
    expect(Date.parse(res.body.data.publishedAt)).toBeGreaterThan(Date.parse(created.publishedAt));
    const pub = await s.api(`/api/articles/${id}`);
    expect(pub.body.data).toMatchObject({ title: 'v2 (draft)', views: 2 });
    const file = readDoc('articles', id).locales.en;
    expect(file.draft).toMatchObject({ title: 'v2 (draft)', views: 2, publishedAt: null });
    expect(file.published).toMatchObject({ title: 'v2 (draft)', views: 2, publishedAt: res.body.data.publishedAt });
  });

  it('PUT {"data":{}} publishes a draft-only document as it is', async () => {
    const id = (await s.api('/api/articles?status=draft', { method: 'POST', body: { data: { title: 'Publish me' } } }))
      .body.data.documentId;
    const res = await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: {} } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Publish me', publishedAt: expect.stringMatching(ISO_MS) });
    expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft', 'published']);
  });

  it('types without draft & publish are always published, whatever status is asked for', async () => {
    const res = await s.api('/api/categories?status=draft', { method: 'POST', body: { data: { name: 'Always on' } } });
    expect(res.status).toBe(201);
    expect(res.body.data.publishedAt).toMatch(ISO_MS);
    const id = res.body.data.documentId;
    expect((await s.api(`/api/categories/${id}`)).body.data.publishedAt).toMatch(ISO_MS);
    expect(await ids('/api/categories')).toContain(id);
    const upd = await s.api(`/api/categories/${id}?status=draft`, {
      method: 'PUT',
      body: { data: { description: 'still live' } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data.publishedAt).toMatch(ISO_MS);
    expect((await s.api(`/api/categories/${id}`)).body.data.description).toBe('still live');
    const file = readDoc('categories', id);
    expect(Object.keys(file)).toEqual(['documentId', 'published']);
    expect(file.published.publishedAt).toMatch(ISO_MS);
  });
});

describe('HTTP error shapes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  const json = { 'content-type': 'application/json' };

  /** Sends a request and checks the content folder is byte-for-byte unchanged afterwards. */
  const refused = async (path: string, init: Parameters<TestServer['api']>[1]) => {
    const before = snapshot(s.contentDir);
    const res = await s.api(path, init);
    expect(snapshot(s.contentDir)).toEqual(before);
    return res;
  };

  it('malformed JSON is a 400 SyntaxError with the parser message and no details', async () => {
    for (const raw of ['{"data":', '{x', '{"data":{"name":"a",}}']) {
      let message = '';
      try {
        JSON.parse(raw);
      } catch (err) {
        message = (err as Error).message;
      }
      const res = await refused('/api/categories', { method: 'POST', rawBody: raw, headers: json });
      expect(res.status, raw).toBe(400);
      expect(res.body, raw).toEqual({ data: null, error: { status: 400, name: 'SyntaxError', message } });
    }
  });

  it('malformed JSON is refused even on a PUT and on a route that does not exist', async () => {
    const put = await refused('/api/global', { method: 'PUT', rawBody: '{"data":', headers: json });
    expect(put.status).toBe(400);
    expect(put.body.error.name).toBe('SyntaxError');
    const nowhere = await s.api('/api/nothing-here', { method: 'POST', rawBody: '{"data":', headers: json });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error.name).toBe('SyntaxError');
  });

  it.each(['"just a string"', '42', 'true', 'null'])('a top-level JSON %s is a 400 SyntaxError', async (raw) => {
    const res = await refused('/api/categories', { method: 'POST', rawBody: raw, headers: json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' },
    });
  });

  it.each([
    ['an object without data', { body: { nope: { name: 'x' } } }],
    ['data: null', { body: { data: null } }],
    ['an empty object', { body: {} }],
    ['an empty body', { rawBody: '', headers: { 'content-type': 'application/json' } }],
    ['no body at all', {}],
    ['a body of another content type', { rawBody: '{"data":{"name":"x"}}', headers: { 'content-type': 'text/plain' } }],
  ])('%s is a 400 Missing "data" payload', async (_label, init) => {
    const expected = {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Missing "data" payload in the request body',
        details: {},
      },
    };
    const post = await refused('/api/categories', { method: 'POST', ...(init as object) });
    expect(post.status).toBe(400);
    expect(post.body).toEqual(expected);
    const single = await refused('/api/global', { method: 'PUT', ...(init as object) });
    expect(single.body).toEqual(expected);
  });

  it('PUT without data on an existing document is refused and changes nothing', async () => {
    const id = (await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Keep' } } })).body.data
      .documentId;
    const res = await refused(`/api/categories/${id}`, { method: 'PUT', body: { name: 'Changed' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Missing "data" payload in the request body');
    expect((await s.api(`/api/categories/${id}`)).body.data.name).toBe('Keep');
  });

  it("data that is an array is a 400 with yup's object message", async () => {
    const res = await refused('/api/categories', { method: 'POST', body: { data: [] } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(
      'this must be a `object` type, but the final value was: `null` (cast from the value `[]`).',
    );
  });

  it('an unknown attribute is a 400 Invalid key with details {key, path: null, source: body}', async () => {
    const res = await refused('/api/categories', { method: 'POST', body: { data: { name: 'x', nope: 1 } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key nope',
        details: { key: 'nope', path: null, source: 'body' },
      },
    });
    const id = (await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Target' } } })).body.data
      .documentId;
    const upd = await refused(`/api/categories/${id}`, { method: 'PUT', body: { data: { nope: 1 } } });
    expect(upd.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'body' },
    });
  });

  it('id and documentId in data are refused with Invalid key, without a path', async () => {
    const id = await refused('/api/categories', { method: 'POST', body: { data: { name: 'x', id: 3 } } });
    expect(id.status).toBe(400);
    expect(id.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key id',
      details: { key: 'id', source: 'body' },
    });
    const did = await refused('/api/categories', {
      method: 'POST',
      body: { data: { name: 'x', documentId: 'abcdefghijklmnopqrstuvwx' } },
    });
    expect(did.status).toBe(400);
    expect(did.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key documentId',
      details: { key: 'documentId', source: 'body' },
    });
  });

  it('non-writable timestamps in data are refused with Invalid key and their path', async () => {
    for (const key of ['createdAt', 'updatedAt']) {
      const res = await refused('/api/categories', {
        method: 'POST',
        body: { data: { name: 'x', [key]: '2020-01-01T00:00:00.000Z' } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key}`,
        details: { key, path: key, source: 'body' },
      });
    }
  });

  it('a body over 1 MB is a 413 PayloadTooLargeError without details, and nothing is written', async () => {
    const res = await refused('/api/categories', {
      method: 'POST',
      body: { data: { name: 'x', description: 'y'.repeat(1_100_000) } },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' },
    });
  });

  it('a body just under 1 MB is accepted', async () => {
    const description = 'y'.repeat(1_000_000);
    const res = await s.api('/api/categories', {
      method: 'POST',
      body: { data: { name: 'Big but fine', description } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.description).toHaveLength(1_000_000);
  });

  it.each([
    ['GET', '/api/articles/..%2F..%2Fetc'],
    ['GET', '/api/articles/%2e%2e'],
    ['PUT', '/api/articles/..%2F..%2Fetc'],
    ['PUT', '/api/articles/%2e%2e'],
    ['PUT', '/api/articles/%2E%2E%2Fcategories%2Fx'],
    ['PUT', '/api/categories/..%2F..%2F..%2Fpackage'],
    ['DELETE', '/api/articles/..%2F..%2Fetc'],
    ['DELETE', '/api/articles/%2e%2e'],
    ['DELETE', '/api/categories/%2e%2e%2f%2e%2e%2ffolio'],
  ])('%s %s (a path-like documentId) answers 404 and writes nothing', async (method, path) => {
    const before = snapshot(s.dir);
    const res = await rawRequest(
      s.url,
      method,
      path,
      s.auth,
      method === 'PUT' ? JSON.stringify({ data: { title: 'pwned', name: 'pwned' } }) : undefined,
    );
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual(NOT_FOUND);
    expect(snapshot(s.dir)).toEqual(before);
  });

  it("a path-like documentId cannot reach another collection's file", async () => {
    const id = (await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Safe' } } })).body.data
      .documentId;
    const file = join(s.contentDir, 'documents', 'categories', `${id}.json`);
    const text = readFileSync(file, 'utf8');
    for (const method of ['DELETE', 'PUT', 'GET']) {
      const res = await rawRequest(
        s.url,
        method,
        `/api/articles/..%2Fcategories%2F${id}`,
        s.auth,
        method === 'PUT' ? JSON.stringify({ data: { name: 'pwned' } }) : undefined,
      );
      expect(res.status, method).toBe(404);
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect((await s.api(`/api/categories/${id}`)).body.data.name).toBe('Safe');
  });
});
