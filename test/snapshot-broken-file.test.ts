import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer } from './helpers/project.js';
import { age, snapshot } from './helpers/snapshot.js';

/**
 * A file broken while the server was down, whose stamp still matches the start-up snapshot (so the restart
 * indexes it from the snapshot without reading it): once first read it is taken out and reported, as a file
 * found broken at start is, not kept with empty values.
 */
describe('a document file broken behind the start-up snapshot', () => {
  const made = makeProject({ withExampleDocuments: true });
  const articles = join(made.contentDir, 'documents', 'articles');
  beforeAll(async () => {
    age(made.contentDir);
    await snapshot(made.dir);
  });
  afterAll(() => made.cleanup());

  it('answers 404 for it, lists it as a problem, and serves the other documents', async () => {
    const [name, other] = readdirSync(articles);
    const file = join(articles, name);
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    // Same size, old mtime: the stamp the snapshot recorded. The text is no longer JSON.
    writeFileSync(file, `{${'x'.repeat(text.length - 1)}`);
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);

    const s = await startTestServer({ dir: made.dir });
    try {
      expect(s.project.report.fromSnapshot).toBeGreaterThan(0);
      const id = name.slice(0, -'.json'.length);
      // The request that first reads it finds it broken; from then on it is not served.
      await s.api(`/api/articles/${id}?status=draft`);
      await expect.poll(async () => (await s.api(`/api/articles/${id}?status=draft`)).status).toBe(404);
      const list = await s.api('/api/articles?status=draft&pagination[pageSize]=100');
      expect(list.body.data.map((d: { documentId: string }) => d.documentId)).not.toContain(id);
      expect(list.body.data.every((d: { title?: string }) => typeof d.title === 'string' && d.title)).toBe(true);
      const fine = await s.api(`/api/articles/${other.slice(0, -'.json'.length)}?status=draft`);
      expect(fine.status).toBe(200);
      expect(s.project.report.problems.map((p) => p.file)).toContain(file);
    } finally {
      await s.stop();
    }
  });
});
