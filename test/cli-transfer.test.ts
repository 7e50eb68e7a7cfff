import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, makeProject, startTestServer } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';

/** The CLI, run in this process by its main(argv) (see helpers/cli.ts). */
const folio = (args: string[]) => runFolio(args);
/** The CLI as a user runs it, in a process of its own: the end-to-end test of init. */
const spawned = (args: string[]) => spawnFolio(args);

describe('folio init, export and import', () => {
  const initTitle =
    'init makes a project that serves nothing publicly, with a .gitignore for local state; refuses to overwrite';
  it(initTitle, async () => {
    const root = mkdtempSync(join(tmpdir(), 'folio-init-'));
    try {
      const r = await spawned(['init', join(root, 'site')]);
      expect(r.code).toBe(0);
      expect(readdirSync(join(root, 'site', 'content')).sort()).toEqual([
        'components',
        'folio.json',
        'permissions.json',
        'types',
      ]);
      expect(readFileSync(join(root, 'site', '.gitignore'), 'utf8')).toContain('.folio/');
      // The rest in this process: the refusal and the example's content are checked, not the process.
      const again = await folio(['init', join(root, 'site')]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('--force');
      const blog = await folio(['init', join(root, 'blog'), '--example', 'blog']);
      expect(blog.code).toBe(0);
      const s = await startTestServer({ dir: join(root, 'blog') });
      try {
        expect((await s.api('/api/articles', { anonymous: true })).body.data.length).toBeGreaterThan(0);
        expect((await s.api('/api/tags', { anonymous: true })).status).toBe(403);
      } finally {
        await s.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('export writes the list pages, every document and single types as the API answers them', async () => {
    const p = makeProject({ withExampleDocuments: true });
    const out = join(p.dir, 'public');
    try {
      const r = await folio(['export', '--out', out, '--dir', p.dir]);
      expect(r.code).toBe(0);
      const read = (f: string) => JSON.parse(readFileSync(join(out, 'api', f), 'utf8'));
      const index = read('articles/index.json');
      expect(index.meta.pagination).toMatchObject({ page: 1, pageSize: 25 });
      const s = await startTestServer({ dir: p.dir });
      try {
        const live = await s.api('/api/articles?populate=*');
        expect(index).toEqual(live.body);
        const first = index.data[0];
        expect(read(`articles/${first.documentId}.json`)).toEqual(
          (await s.api(`/api/articles/${first.documentId}?populate=*`)).body,
        );
        expect(read('global.json').data.siteName).toBe('Folio Blog');
        expect(existsSync(join(out, 'api', 'articles', 'fr', 'index.json'))).toBe(true);
        expect(JSON.stringify(read('articles/index.json'))).not.toContain('secretNote');
      } finally {
        await s.stop();
      }
    } finally {
      p.cleanup();
    }
  });

  it("import strapi copies a Strapi project's schemas as they are", async () => {
    const strapi = mkdtempSync(join(tmpdir(), 'strapi-'));
    const p = makeProject();
    try {
      for (const f of readdirSync(join(FIXTURES, 'types'))) {
        const name = f.replace('.json', '');
        mkdirSync(join(strapi, 'src', 'api', name, 'content-types', name), { recursive: true });
        cpSync(join(FIXTURES, 'types', f), join(strapi, 'src', 'api', name, 'content-types', name, 'schema.json'));
      }
      cpSync(join(FIXTURES, 'components'), join(strapi, 'src', 'components'), { recursive: true });
      rmSync(join(p.contentDir, 'types'), { recursive: true });
      rmSync(join(p.contentDir, 'components'), { recursive: true });
      const r = await folio(['import', 'strapi', strapi, '--dir', p.dir]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('imported 6 content-type(s) and 6 component(s)');
      expect(readFileSync(join(p.contentDir, 'types', 'article.json'), 'utf8')).toBe(
        readFileSync(join(FIXTURES, 'types', 'article.json'), 'utf8'),
      );
      const again = await folio(['import', 'strapi', strapi, '--dir', p.dir]);
      expect(again.stdout).toContain('skipped 12 existing schema(s)');
    } finally {
      rmSync(strapi, { recursive: true, force: true });
      p.cleanup();
    }
  });
});
