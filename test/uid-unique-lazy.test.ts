import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer } from './helpers/project.js';
import { age, snapshot } from './helpers/snapshot.js';

/**
 * The published slugs of documents a server indexed from its start-up snapshot, before their values were
 * decoded, are held as those of documents it read whole: a write reads them first.
 */
describe('uid values of documents indexed before they were decoded', () => {
  const made = makeProject({ withExampleDocuments: true });
  beforeAll(async () => {
    age(made.contentDir);
    await snapshot(made.dir);
  });
  afterAll(() => made.cleanup());

  it('refuses a slug such a document has published, and frees it once that document is unpublished', async () => {
    const dir = join(made.contentDir, 'documents', 'articles');
    const [holder, slug] = readdirSync(dir)
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
      .filter((d) => d.locales?.en?.published?.slug)
      .map((d) => [d.documentId as string, d.locales.en.published.slug as string])[0];
    const s = await startTestServer({ dir: made.dir });
    try {
      const { index } = s.project.documents;
      expect(index.isUndecoded(index.get('api::article.article', holder)!)).toBe(true);
      const clash = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Clash', slug } } });
      expect(clash.status).toBe(400);
      expect(clash.body.error.details.errors).toEqual([
        { path: ['slug'], message: 'This attribute must be unique', name: 'ValidationError', value: slug },
      ]);
      const unpublished = await s.api(`/_folio/content/articles/${holder}/unpublish?locale=en`, { method: 'POST' });
      expect(unpublished.status, unpublished.text).toBe(200);
      const taken = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Now mine', slug } } });
      expect(taken.status, taken.text).toBe(201);
      // The first holder's draft keeps the slug, but may not publish it again.
      const again = await s.api(`/api/articles/${holder}`, { method: 'PUT', body: { data: {} } });
      expect(again.status).toBe(400);
      expect(again.body.error.message).toBe('This attribute must be unique');
    } finally {
      await s.stop();
    }
  });
});
