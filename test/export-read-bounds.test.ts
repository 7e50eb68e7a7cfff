import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

describe('folio export and the read bounds', () => {
  it('bounds each exported answer on its own, as the API does, not the sum of every document of a type', async () => {
    // One populated document of any type fits in these bounds; all the articles together do not.
    const p = makeProject({
      withExampleDocuments: true,
      config: { rest: { defaultLimit: 1 }, read: { maxResponseBytes: 12000 } },
    });
    try {
      const s = await startTestServer({ dir: p.dir });
      const published: string[] = [];
      try {
        let total = 0;
        for (const file of readdirSync(join(p.contentDir, 'documents', 'articles'))) {
          const id = file.replace(/\.json$/, '');
          const one = await s.api(`/api/articles/${id}?populate=*`);
          // Drafts that were never published are a 404 here, and left out of the export.
          expect([200, 404]).toContain(one.status);
          if (one.status !== 200) continue;
          published.push(id);
          total += one.text.length;
        }
        expect(published.length).toBeGreaterThan(2);
        expect(total).toBeGreaterThan(12000);
      } finally {
        await s.stop();
      }
      const out = join(p.dir, 'public');
      const r = await runFolio(['export', '--out', out, '--dir', p.dir]);
      expect(r.stderr).not.toContain('too large');
      expect(r.code).toBe(0);
      const written = readdirSync(join(out, 'api', 'articles')).filter((f) => f.endsWith('.json'));
      expect(written.sort()).toEqual([...published.map((id) => `${id}.json`), 'index.json'].sort());
    } finally {
      p.cleanup();
    }
  });
});
