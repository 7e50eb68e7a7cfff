import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePermissions } from './helpers/auth.js';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

const READ = ['api::article.article.find', 'api::article.article.findOne', 'api::global.global.find'];

/**
 * `GET /_folio/studio/document/…`: what the Studio's editor learns before reading a document (its versions by
 * locale, and whether its private fields hold a value, never the values), without a 404 for a missing one.
 */
describe('the Studio’s document state route', () => {
  let s: TestServer;
  let id: string;
  beforeAll(async () => {
    const made = makeProject();
    writePermissions(made.contentDir, {
      public: [],
      other: ['plugin::users-permissions.user.me'],
      reader: READ,
      writer: [...READ, 'api::article.article.update', 'api::global.global.update'],
    });
    s = await startTestServer({ dir: made.dir });
    const created = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'State', secretNote: 'kept on disk' } },
    });
    id = created.body.data.documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('answers the versions by locale, and which private fields are set to a role that may change them', async () => {
    const writer = await s.api(`/_folio/studio/document/articles/${id}`, { as: { user: 'writer', role: 'writer' } });
    expect(writer.status).toBe(200);
    const { data } = writer.body;
    expect(data.exists).toBe(true);
    expect(Object.keys(data.locales)).toEqual(['en']);
    expect(data.locales.en.published).toBeNull();
    expect(typeof data.locales.en.draft).toBe('string');
    expect(data.private).toEqual({ secretNote: true });
    expect(writer.text).not.toContain('kept on disk');
    // A role that may only read learns the versions, not the private fields.
    const reader = await s.api(`/_folio/studio/document/articles/${id}`, { as: { user: 'reader', role: 'reader' } });
    expect(reader.body.data.private).toBeNull();
    // Cleared, the field is not set; a locale the document lacks is asked about without a 404.
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { secretNote: null } } });
    const fr = await s.api(`/_folio/studio/document/articles/${id}?locale=fr`, {
      as: { user: 'writer', role: 'writer' },
    });
    expect(fr.status).toBe(200);
    expect(fr.body.data.private).toEqual({ secretNote: false });
  });

  it('answers a missing document or single type without a 404; refuses a role that may not read', async () => {
    const missing = await s.api('/_folio/studio/document/articles/nosuchdocumentid000000000');
    expect(missing.status).toBe(200);
    expect(missing.body.data).toEqual({ exists: false, locales: {}, private: { secretNote: false } });
    const global = await s.api('/_folio/studio/document/global');
    expect(global.status).toBe(200);
    expect(global.body.data.exists).toBe(false);
    const other = { as: { user: 'other', role: 'other' } } as const;
    expect((await s.api(`/_folio/studio/document/articles/${id}`, other)).status).toBe(403);
    expect((await s.api('/_folio/studio/document/nosuchtype/x')).status).toBe(404);
    expect((await s.api('/_folio/studio/document/global/extra')).status).toBe(404);
    expect((await s.api(`/_folio/studio/document/articles/${id}`, { method: 'POST' })).status).toBe(405);
  });
});
