import { describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/project.js';
import { POST, WRITER, firstAnswered, writerId, serveWritersAndPosts } from './helpers/writers-posts.js';

/**
 * A list filtered through an inverse relation whose rows are most of another type (writers filtered by their
 * posts) reads every post of each writer it tests: the scan pauses after so many rows read through relations,
 * not only after so many writers, so a simple GET sent behind it is answered first.
 */
describe('a filter through a large inverse relation', () => {
  const WRITERS = 16;
  const POSTS = 96_000;
  let s: TestServer;
  serveWritersAndPosts(WRITERS, POSTS, (server) => (s = server));

  it('answers the writers whose posts match, a simple GET answered meanwhile', async () => {
    expect(s.project.documents.index.count(POST)).toBe(POSTS);
    // Post 95,999 is the last post of writer 95,999 % 16 = 15.
    const q = `filters[posts][title][$eq]=${encodeURIComponent(`Post ${POSTS - 1}`)}&fields[0]=name`;
    const { first, answer } = await firstAnswered(s, () => s.api(`/api/writers?${q}`));
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      expect.objectContaining({ documentId: writerId((POSTS - 1) % WRITERS), name: `Writer ${(POSTS - 1) % WRITERS}` }),
    ]);
    expect(answer.body.meta.pagination.total).toBe(1);
    expect(first).toBe('simple');
  });

  it('answers a filter every writer passes with each writer once, in order', async () => {
    const q = 'filters[posts][title][$containsi]=POST&fields[0]=name&sort=name:asc';
    const { first, answer } = await firstAnswered(s, () => s.api(`/api/writers?${q}&pagination[pageSize]=100`));
    const names = Array.from({ length: WRITERS }, (_, w) => `Writer ${w}`).sort();
    expect(answer.body.data.map((w: { name: string }) => w.name)).toEqual(names);
    expect(s.project.documents.index.count(WRITER)).toBe(WRITERS);
    expect(first).toBe('simple');
  });
});
