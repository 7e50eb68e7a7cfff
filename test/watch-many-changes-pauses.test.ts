import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { eventually } from './helpers/eventually.js';
import { POST, postId, writeWritersAndPosts } from './helpers/writers-posts.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';

/**
 * After many files of a type changed by hand at once (a git switch), the watcher compares the type's folder with
 * the index, in case the kernel dropped events: over a large type that is as many names as documents, compared a
 * slice at a time, so a simple GET sent as it starts is answered before it is done.
 */
describe('many document files changed by hand in a large type', () => {
  const POSTS = 24_000;
  const EDITED = 80;
  const made = makeProject();
  let s: TestServer;
  let watcher: Watcher;

  beforeAll(async () => {
    writeWritersAndPosts(made.contentDir, 4, POSTS);
    s = await startTestServer({ dir: made.dir });
    await s.project.documents.index.whenPrepared();
    watcher = await watchProject(s.project);
    await watcher.ready;
  }, 120_000);
  afterAll(async () => {
    await watcher?.close();
    await s?.stop();
    made.cleanup();
  });

  it('serves every edit and the removal, a simple GET answered while the folder is compared', async () => {
    const index = s.project.documents.index;
    const order: string[] = [];
    let simple: Promise<unknown> | undefined;
    const { documents } = index;
    // The comparison lists the posts from the index: the simple GET is sent as it starts.
    index.documents = function* (uid: string) {
      if (uid === POST) simple ??= s.api('/api/categories?pagination[pageSize]=1').then(() => order.push('simple'));
      yield* documents.call(index, uid);
      if (uid === POST) order.push('compared');
    };
    const fileOf = (p: number) => join(made.contentDir, 'documents', 'posts', `${postId(p)}.json`);
    for (let p = 0; p < EDITED; p++) {
      const text = readFileSync(fileOf(p), 'utf8');
      writeFileSync(fileOf(p), text.replace(`"Post ${p}"`, `"Edited ${p}"`));
    }
    rmSync(fileOf(POSTS - 1));
    try {
      await eventually(() => order.includes('compared'), 'the folder compared with the index');
    } finally {
      index.documents = documents;
    }
    await simple;
    expect(order).toEqual(['simple', 'compared']);
    await eventually(async () => {
      const edited = await s.api(`/api/posts?filters[title][$startsWith]=Edited&pagination[pageSize]=1`);
      return edited.body.meta.pagination.total === EDITED;
    }, 'every edit served');
    expect((await s.api(`/api/posts/${postId(POSTS - 1)}`)).status).toBe(404);
    expect((await s.api(`/api/posts/${postId(EDITED)}`)).body.data.title).toBe(`Post ${EDITED}`);
  });
});
