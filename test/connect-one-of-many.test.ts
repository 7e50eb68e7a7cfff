import { describe, expect, it } from 'vitest';
import { whileWriting, type TestServer } from './helpers/project.js';
import { postId, writerId, serveWritersAndPosts } from './helpers/writers-posts.js';

/**
 * A write on the inverse side of a relation whose owners hold one link each (a writer's posts, each post with one
 * writer) rewrites only the owners whose link changes: connecting one post to a writer with thousands leaves the
 * others' files alone, instead of reading and writing each of them again unchanged.
 */
describe('connecting one post to a writer that has many', () => {
  const WRITERS = 2;
  const POSTS = 3000;
  let s: TestServer;
  serveWritersAndPosts(WRITERS, POSTS, (server) => (s = server), false);

  it('writes the writer and the post that moves, and no other post', async () => {
    const written: string[] = [];
    // Post 1 belongs to writer 1: it moves to writer 0.
    const res = await whileWriting(
      s.project.documents.store,
      (plural) => written.push(plural),
      () =>
        s.api(`/api/writers/${writerId(0)}`, { method: 'PUT', body: { data: { posts: { connect: [postId(1)] } } } }),
    );
    expect(res.status).toBe(200);
    expect(written.sort()).toEqual(['posts', 'writers']);
    const moved = await s.api(`/api/posts/${postId(1)}?populate=writer`);
    expect(moved.body.data.writer.documentId).toBe(writerId(0));
    const count = async (w: number) =>
      (await s.api(`/api/posts?filters[writer][documentId][$eq]=${writerId(w)}&pagination[pageSize]=1`)).body.meta
        .pagination.total;
    expect(await count(0)).toBe(POSTS / WRITERS + 1);
    expect(await count(1)).toBe(POSTS / WRITERS - 1);
  });

  it('disconnects one post, writing only it among the posts', async () => {
    const written: string[] = [];
    const res = await whileWriting(
      s.project.documents.store,
      (plural) => written.push(plural),
      () =>
        s.api(`/api/writers/${writerId(0)}`, {
          method: 'PUT',
          body: { data: { posts: { disconnect: [postId(2)] } } },
        }),
    );
    expect(res.status).toBe(200);
    expect(written.filter((p) => p === 'posts')).toHaveLength(1);
    expect((await s.api(`/api/posts/${postId(2)}?populate=writer`)).body.data.writer).toBeNull();
    expect((await s.api(`/api/posts/${postId(4)}?populate=writer`)).body.data.writer.documentId).toBe(writerId(0));
  });
});
