import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, type TestServer } from './helpers/project.js';
import { serveForTests } from './helpers/writers-posts.js';

/**
 * Found in review (warmrefs 64266df): a DELETE of a writer that many posts link reads and edits those posts a few
 * at a time between turns of the event loop, one relation after the other. A post linked to the writer, by another
 * write, through a relation already gone through must not be left pointing at the deleted writer (`folio validate`
 * then reports "points at writer …, which does not exist").
 */
const WRITER = 'api::writer.writer';
const at = '2025-01-01T00:00:00.000Z';
const w = (n: number) => `writer${String(n).padStart(18, '0')}`;
const p = (n: number) => `post${String(n).padStart(20, '0')}`;
const POSTS = 3000;

function writeContent(contentDir: string) {
  const type = (singular: string, plural: string, attributes: Record<string, unknown>) => ({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes,
  });
  const types = join(contentDir, 'types');
  writeFileSync(join(types, 'writer.json'), JSON.stringify(type('writer', 'writers', { name: { type: 'string' } })));
  const post = type('post', 'posts', {
    title: { type: 'string' },
    writer: { type: 'relation', relation: 'manyToOne', target: WRITER },
    editor: { type: 'relation', relation: 'manyToOne', target: WRITER },
  });
  writeFileSync(join(types, 'post.json'), JSON.stringify(post));
  for (const plural of ['writers', 'posts']) mkdirSync(join(contentDir, 'documents', plural), { recursive: true });
  const file = (plural: string, documentId: string, published: Record<string, unknown>) => {
    const stamps = { createdAt: at, updatedAt: at, publishedAt: at };
    const text = `${JSON.stringify({ documentId, published: { ...published, ...stamps } })}\n`;
    writeFileSync(join(contentDir, 'documents', plural, `${documentId}.json`), text);
  };
  file('writers', w(0), { id: 1, name: 'Writer 0' });
  file('writers', w(1), { id: 2, name: 'Writer 1' });
  // Every post but post 0 is edited by writer 0; none is written by anybody yet.
  for (let n = 0; n < POSTS; n++)
    file('posts', p(n), { id: n + 1, title: `Post ${n}`, writer: null, editor: w(n === 0 ? 1 : 0) });
}

describe('a post linked to a writer while the writer is being deleted', () => {
  const made = makeProject();
  let s: TestServer;
  serveForTests(
    made,
    (dir) => writeContent(dir),
    (server) => (s = server),
  );

  it('is unlinked by the delete, or refused', async () => {
    const store = s.project.documents.store;
    const { readCurrent } = store;
    let put: ReturnType<TestServer['api']> | undefined;
    // Once the DELETE reads the posts its editors link (the writers' relation gone through), post 0 gets writer 0.
    store.readCurrent = (plural, documentId) => {
      if (plural === 'posts' && documentId !== p(0))
        put ??= s.api(`/api/posts/${p(0)}`, { method: 'PUT', body: { data: { writer: w(0) } } });
      return readCurrent!.call(store, plural, documentId);
    };
    const removed = await s.api(`/api/writers/${w(0)}`, { method: 'DELETE' });
    store.readCurrent = readCurrent;
    const linked = await put!;
    console.log('PUT', linked.status, JSON.stringify(linked.body).slice(0, 300));
    expect(removed.status).toBe(204);
    const file = JSON.parse(readFileSync(join(made.contentDir, 'documents', 'posts', `${p(0)}.json`), 'utf8'));
    // Whichever came first, no file is left pointing at the writer that is gone.
    if (linked.status === 200) expect(file.published.writer).toBeNull();
    expect(file.published.editor).toBe(w(1));
    expect([...s.project.documents.index.referrers('api::post.post', 'writer', w(0))]).toEqual([]);
  });
});
