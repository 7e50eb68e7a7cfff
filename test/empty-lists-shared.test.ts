import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * Documents read from their files hold one shared, frozen array for every empty list (no tags, no links, an empty
 * dynamic zone), to spare three objects per document of a large collection. Writes work on copies: filling the
 * lists of one document changes neither the other documents nor their files.
 */

const TS = '2025-01-01T00:00:00.000Z';
const A = 'emptyliststestaaaaaaaaaa';
const B = 'emptyliststestbbbbbbbbbb';
const file = (contentDir: string, id: string) => join(contentDir, 'documents', 'articles', `${id}.json`);

function writeArticle(contentDir: string, documentId: string, title: string, ids: [number, number]) {
  const en = {
    draft: articleVersion(ids[0], { title }, TS, false),
    published: articleVersion(ids[1], { title }, TS, true),
  };
  writeFileSync(file(contentDir, documentId), `${JSON.stringify({ documentId, locales: { en } }, null, 2)}\n`);
}

describe('empty lists read from files', () => {
  let s: TestServer;
  let contentDir: string;
  beforeAll(async () => {
    const made = makeProject();
    contentDir = made.contentDir;
    mkdirSync(join(contentDir, 'documents', 'articles'), { recursive: true });
    writeArticle(contentDir, A, 'First', [1, 2]);
    writeArticle(contentDir, B, 'Second', [3, 4]);
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
  });

  const draftOf = async (id: string) =>
    (await s.api(`/api/articles/${id}?status=draft&populate=*`)).body.data as Record<string, unknown>;

  it('are one frozen array, shared by every document', () => {
    const list = (id: string) => {
      const doc = s.project.documents.index.get('api::article.article', id)!;
      return doc.slots.get('en')!.draft!.data;
    };
    const [a, b] = [list(A), list(B)];
    expect(a.links).toEqual([]);
    expect(a.links).toBe(b.blocks);
    expect(Object.isFrozen(a.tags)).toBe(true);
  });

  it('are filled in one document by a write, the others and their files unchanged', async () => {
    const tag = await s.api('/api/tags', { method: 'POST', body: { data: { name: 'news' } } });
    expect(tag.status).toBe(201);
    const before = readFileSync(file(contentDir, B), 'utf8');
    const put = await s.api(`/api/articles/${A}`, {
      method: 'PUT',
      body: {
        data: {
          tags: [tag.body.data.documentId],
          links: [{ label: 'Home', url: 'https://example.com' }],
          blocks: [{ __component: 'shared.quote', title: 'Quoted' }],
        },
      },
    });
    expect(put.status).toBe(200);
    const a = await draftOf(A);
    expect((a.tags as Array<{ name: string }>).map((t) => t.name)).toEqual(['news']);
    expect(a.links).toMatchObject([{ label: 'Home', url: 'https://example.com' }]);
    expect(a.blocks).toMatchObject([{ __component: 'shared.quote', title: 'Quoted' }]);
    const b = await draftOf(B);
    expect([b.tags, b.links, b.blocks]).toEqual([[], [], []]);
    expect(readFileSync(file(contentDir, B), 'utf8')).toBe(before);
    const published = (await s.api(`/api/articles/${B}?populate=*`)).body.data;
    expect([published.tags, published.links, published.blocks]).toEqual([[], [], []]);
  });
});
