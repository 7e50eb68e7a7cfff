import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * A discarded draft is the published version again: as in Strapi (whose timestamps only fill a missing
 * `updatedAt`), it keeps that version's `updatedAt`, so it reads as unmodified.
 */
describe('discard draft and the modified status', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('reads a discarded draft as unmodified', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Kept' } } });
    const id = created.body.data.documentId;
    await s.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Changed' } } });
    const ids = async (filter: string) =>
      (await s.api(`/api/articles?status=draft&publicationFilter=${filter}`)).body.data.map(
        (d: { documentId: string }) => d.documentId,
      );
    expect(await ids('modified')).toContain(id);
    await s.project.documents.discardDraft('api::article.article', id);
    expect(await ids('modified')).not.toContain(id);
    expect(await ids('unmodified')).toContain(id);
    const draft = (await s.api(`/api/articles/${id}?status=draft`)).body.data;
    const published = (await s.api(`/api/articles/${id}`)).body.data;
    expect(draft.updatedAt).toBe(published.updatedAt);
  });
});
