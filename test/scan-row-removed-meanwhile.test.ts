import { describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/project.js';
import { WRITER, writerId, serveWritersAndPosts } from './helpers/writers-posts.js';

/**
 * Found in review (warmrefs be570c4): a scan of writers filtered through their posts now pauses after so many posts
 * read, even among a handful of writers. A writer removed during such a pause (its file deleted by hand and seen
 * by the watcher, or a DELETE) must not break the list being read: it answers, with or without that writer.
 */
describe('a writer removed while a scan through posts pauses', () => {
  const WRITERS = 16;
  const POSTS = 8000;
  let s: TestServer;
  serveWritersAndPosts(WRITERS, POSTS, (server) => (s = server));

  it('answers the writers still there', async () => {
    const index = s.project.documents.index;
    const { byId } = index;
    let removing = false;
    // As the scan reads its first writer, the last writer is removed on the next turn of the event loop.
    index.byId = function (uid: string, id: number) {
      if (uid === WRITER && !removing) {
        removing = true;
        setImmediate(() => index.remove(WRITER, writerId(WRITERS - 1)));
      }
      return byId.call(index, uid, id);
    };
    try {
      // A search (`_q`) is answered by a scan, not from the indexes.
      const q = '_q=Writer&filters[posts][title][$containsi]=POST&fields[0]=name&pagination[pageSize]=100';
      const res = await s.api(`/api/writers?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThanOrEqual(WRITERS - 1);
    } finally {
      index.byId = byId;
    }
  });
});
