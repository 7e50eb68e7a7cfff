import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whileWriting, type TestServer } from './helpers/project.js';
import { POST, postId, writerId, serveWritersAndPosts } from './helpers/writers-posts.js';

/**
 * Deleting a document that many others point at rewrites each of them without its link, in one write. Finding
 * and editing them (each read from its file) is done a few at a time between turns of the event loop: a simple
 * GET sent behind the DELETE is answered before the write commits its first file.
 */
describe('deleting a document many others point at', () => {
  const WRITERS = 2;
  const POSTS = 3000;
  let s: TestServer;
  const made = serveWritersAndPosts(WRITERS, POSTS, (server) => (s = server));

  it('unlinks every post of the writer, a simple GET answered before the first file is written', async () => {
    const store = s.project.documents.store;
    const order: string[] = [];
    let simple: Promise<unknown> | undefined;
    // The simple GET is sent once the DELETE reads the first post it edits, from its file.
    const { readCurrent } = store;
    store.readCurrent = (plural, documentId) => {
      simple ??= s.api('/api/categories?pagination[pageSize]=1').then(() => order.push('simple'));
      return readCurrent!.call(store, plural, documentId);
    };
    const mark = () => {
      if (!order.includes('commit')) order.push('commit');
    };
    const removed = await whileWriting(store, mark, () => s.api(`/api/writers/${writerId(0)}`, { method: 'DELETE' }));
    store.readCurrent = readCurrent;
    await simple;
    expect(removed.status).toBe(204);
    expect(order).toEqual(['simple', 'commit']);
    const onDisk = (p: number) =>
      JSON.parse(readFileSync(join(made.contentDir, 'documents', 'posts', `${postId(p)}.json`), 'utf8')).published;
    expect(onDisk(0).writer).toBeNull();
    expect(onDisk(POSTS - 2).writer).toBeNull();
    expect(onDisk(1).writer).toBe(writerId(1));
    const post = await s.api(`/api/posts/${postId(2)}?populate=writer`);
    expect(post.body.data.writer).toBeNull();
    const left = await s.api(`/api/posts?filters[writer][documentId][$eq]=${writerId(1)}&pagination[pageSize]=1`);
    expect(left.body.meta.pagination.total).toBe(POSTS / WRITERS);
    expect(s.project.documents.index.count(POST)).toBe(POSTS);
  });
});
