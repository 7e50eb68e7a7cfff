import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthService } from '../src/auth/service.js';
import { bearer } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/** Folio's unpublish and discard-draft routes (`/_folio/content/...`), which Strapi's REST API lacks. */
describe('unpublish and discard-draft over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });
  const file = (id: string) =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));

  const published = async (title: string) => {
    const res = await s.api('/api/articles', { method: 'POST', body: { data: { title } } });
    expect(res.status).toBe(201);
    return res.body.data.documentId as string;
  };

  it('unpublishes a document: the draft stays, the published version goes, and a second call is a 400', async () => {
    const id = await published('To unpublish');
    const res = await s.api(`/_folio/content/articles/${id}/unpublish`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { documentId: id, locale: 'en', status: 'draft' }, meta: {} });
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('To unpublish');
    expect(file(id).locales.en.published).toBeUndefined();
    const again = await s.api(`/_folio/content/articles/${id}/unpublish`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/Nothing to unpublish/);
  });

  it('discards a draft: it becomes the published version again', async () => {
    const id = await published('Kept');
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Changed' } } });
    const res = await s.api(`/_folio/content/articles/${id}/discard-draft`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Kept');
  });

  it('answers 404 for unknown types, documents and actions, and 405 for other methods', async () => {
    const id = await published('Here');
    expect((await s.api(`/_folio/content/nothings/${id}/unpublish`, { method: 'POST' })).status).toBe(404);
    expect((await s.api('/_folio/content/articles/nosuchdocument/unpublish', { method: 'POST' })).status).toBe(404);
    expect((await s.api(`/_folio/content/articles/${id}/explode`, { method: 'POST' })).status).toBe(404);
    expect((await s.api(`/_folio/content/articles/unpublish`, { method: 'POST' })).status).toBe(404);
    expect((await s.api(`/_folio/content/articles/${id}/unpublish`)).status).toBe(405);
    // A type without draft & publish has nothing to unpublish.
    const cat = await s.api('/api/categories', { method: 'POST', body: { data: { name: 'C' } } });
    const c = await s.api(`/_folio/content/categories/${cat.body.data.documentId}/unpublish`, { method: 'POST' });
    expect(c.status).toBe(400);
  });

  it('needs the type’s update permission', async () => {
    const id = await published('Guarded');
    expect((await s.api(`/_folio/content/articles/${id}/unpublish`, { method: 'POST', anonymous: true })).status).toBe(
      403,
    );
    const readOnly = new AuthService(s.dir).createToken({ name: 'ro', type: 'read-only' }).accessKey;
    const res = await s.api(`/_folio/content/articles/${id}/unpublish`, { method: 'POST', headers: bearer(readOnly) });
    expect(res.status).toBe(403);
    expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
  });
});

describe('unpublish on a read-only server', () => {
  it('is refused like every other write', async () => {
    const s = await startTestServer({ app: { readOnly: true }, withExampleDocuments: true });
    try {
      const id = 'ulr1tzzsoxjgbbystq4p926y';
      expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
      const res = await s.api(`/_folio/content/articles/${id}/unpublish`, { method: 'POST' });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/read-only/);
      expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
