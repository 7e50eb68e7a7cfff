import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/**
 * Found in review (warmrefs 2e340ec): a write on the inverse side of a relation whose owners hold one link, from a
 * type without draft & publish to one with it, links both versions of each post it names (Strapi links both). A
 * post whose draft already links the writer but whose published version links another is one of those named: its
 * published version must move too, not be skipped as an owner "linked before and after".
 */
const WRITER = 'api::writer.writer';
const POST = 'api::post.post';
const at = '2025-01-01T00:00:00.000Z';
const w = (n: number) => `writer${String(n).padStart(18, '0')}`;
const p = (n: number) => `post${String(n).padStart(20, '0')}`;

function writeContent(contentDir: string) {
  const type = (singular: string, plural: string, dp: boolean, attributes: Record<string, unknown>) => ({
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: dp },
    attributes,
  });
  const types = join(contentDir, 'types');
  const writers = type('writer', 'writers', false, {
    name: { type: 'string' },
    posts: { type: 'relation', relation: 'oneToMany', target: POST, mappedBy: 'writer' },
  });
  const posts = type('post', 'posts', true, {
    title: { type: 'string' },
    writer: { type: 'relation', relation: 'manyToOne', target: WRITER, inversedBy: 'posts' },
  });
  writeFileSync(join(types, 'writer.json'), `${JSON.stringify(writers, null, 2)}\n`);
  writeFileSync(join(types, 'post.json'), `${JSON.stringify(posts, null, 2)}\n`);
  for (const plural of ['writers', 'posts']) mkdirSync(join(contentDir, 'documents', plural), { recursive: true });
  const file = (plural: string, documentId: string, body: Record<string, unknown>) => {
    const text = `${JSON.stringify({ documentId, ...body })}\n`;
    writeFileSync(join(contentDir, 'documents', plural, `${documentId}.json`), text);
  };
  const stamps = { createdAt: at, updatedAt: at };
  file('writers', w(0), { published: { id: 1, name: 'Writer 0', ...stamps, publishedAt: at } });
  file('writers', w(1), { published: { id: 2, name: 'Writer 1', ...stamps, publishedAt: at } });
  // The draft moved to writer 0; the published version still links writer 1.
  file('posts', p(0), {
    draft: { id: 1, title: 'Post 0', writer: w(0), ...stamps, publishedAt: null },
    published: { id: 2, title: 'Post 0', writer: w(1), ...stamps, publishedAt: at },
  });
  file('posts', p(1), {
    draft: { id: 3, title: 'Post 1', writer: null, ...stamps, publishedAt: null },
    published: { id: 4, title: 'Post 1', writer: null, ...stamps, publishedAt: at },
  });
}

describe('a writer (no draft & publish) setting its posts (with draft & publish)', () => {
  const made = makeProject();
  let s: TestServer;
  const onDisk = (n: number) =>
    JSON.parse(readFileSync(join(made.contentDir, 'documents', 'posts', `${p(n)}.json`), 'utf8'));

  beforeAll(async () => {
    writeContent(made.contentDir);
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s?.stop();
    made.cleanup();
  });

  it('links the published version of a post whose draft already linked the writer', async () => {
    const res = await s.api(`/api/writers/${w(0)}`, { method: 'PUT', body: { data: { posts: [p(0), p(1)] } } });
    expect(res.status).toBe(200);
    // Both versions of both posts link writer 0, as the write asked, whatever linked them before.
    expect(onDisk(1).draft.writer).toBe(w(0));
    expect(onDisk(1).published.writer).toBe(w(0));
    expect(onDisk(0).draft.writer).toBe(w(0));
    expect(onDisk(0).published.writer).toBe(w(0));
    const published = await s.api(`/api/posts/${p(0)}?populate=writer`);
    expect(published.body.data.writer?.documentId).toBe(w(0));
    const writer1 = await s.api(`/api/writers/${w(1)}?populate=posts`);
    expect(writer1.body.data.posts).toEqual([]);
  });
});

describe('a writer (no draft & publish) connecting a post (with draft & publish) whose draft already links it', () => {
  const made = makeProject();
  let s: TestServer;

  beforeAll(async () => {
    writeContent(made.contentDir);
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s?.stop();
    made.cleanup();
  });

  it('links its published version too', async () => {
    const res = await s.api(`/api/writers/${w(0)}`, { method: 'PUT', body: { data: { posts: { connect: [p(0)] } } } });
    expect(res.status).toBe(200);
    const file = JSON.parse(readFileSync(join(made.contentDir, 'documents', 'posts', `${p(0)}.json`), 'utf8'));
    expect(file.published.writer).toBe(w(0));
  });
});
