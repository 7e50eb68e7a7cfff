import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { age, snapshot } from './helpers/snapshot.js';
import { POST, firstAnswered, postId, writeWritersAndPosts, writerId } from './helpers/writers-posts.js';

/**
 * Right after a restart over the snapshot the posts are indexed but not prepared (made, decoded, linked): a read
 * through the writers' inverse relation, and a delete that unlinks a writer's posts, wait for that preparation in
 * slices. Each answers as the files say, and a simple GET sent behind it is answered first.
 */
describe('an inverse relation reached before the warm-up prepared its owners', () => {
  const WRITERS = 4;
  const POSTS = 12_000;
  const made = makeProject();
  let s: TestServer | undefined;

  beforeAll(async () => {
    writeWritersAndPosts(made.contentDir, WRITERS, POSTS);
    age(made.contentDir);
    expect(await snapshot(made.dir)).toBe(WRITERS + POSTS);
  }, 120_000);
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });
  afterAll(() => made.cleanup());

  const restart = async () => {
    s = await startTestServer({ dir: made.dir });
    expect(s.project.documents.index.prepared(POST)).toBe(false);
    return s;
  };

  it('populates a writer with its posts', async () => {
    const server = await restart();
    const q = `populate[posts][fields][0]=title&populate[posts][sort]=id:asc&fields[0]=name`;
    const { first, answer } = await firstAnswered(server, () => server.api(`/api/writers/${writerId(1)}?${q}`));
    expect(answer.status).toBe(200);
    expect(answer.body.data.posts).toHaveLength(POSTS / WRITERS);
    expect(answer.body.data.posts[0]).toMatchObject({ documentId: postId(1), title: 'Post 1' });
    expect(first).toBe('simple');
  });

  it('filters writers through their posts', async () => {
    const server = await restart();
    const q = `filters[posts][title][$eq]=${encodeURIComponent('Post 4002')}&fields[0]=name`;
    const { first, answer } = await firstAnswered(server, () => server.api(`/api/writers?${q}`));
    expect(answer.body.data.map((w: { documentId: string }) => w.documentId)).toEqual([writerId(2)]);
    expect(first).toBe('simple');
  });

  it('deletes a writer, unlinking its posts', async () => {
    const server = await restart();
    const { first, answer } = await firstAnswered(server, () =>
      server.api(`/api/writers/${writerId(3)}`, { method: 'DELETE' }),
    );
    expect(answer.status).toBe(204);
    expect(first).toBe('simple');
    const post = await server.api(`/api/posts/${postId(7)}?populate=writer`);
    expect(post.body.data.writer).toBeNull();
    const left = await server.api(`/api/posts?filters[writer][documentId][$null]=true&pagination[pageSize]=1`);
    expect(left.body.meta.pagination.total).toBe(POSTS / WRITERS);
  });
});
