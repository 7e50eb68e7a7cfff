import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import type { PlannedWrite, Store } from '../src/store/store.js';

/**
 * Writes of different documents run side by side, and a write on the inverse side of a relation rewrites
 * the owning document's file: several of them may rewrite one file at once, each from the file as the one
 * before left it.
 */
describe('writes of different documents that rewrite one other document', () => {
  let s: TestServer;
  let article: string;
  const linkedOnDisk = () =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${article}.json`), 'utf8')).locales.en
      .published.tags as string[];
  const newTags = async (n: number, prefix: string) => {
    const made = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        s.api('/api/tags', { method: 'POST', body: { data: { name: `${prefix}-${i}` } } }),
      ),
    );
    return made.map((r) => r.body.data.documentId as string);
  };
  const link = (tag: string) =>
    s.api(`/api/tags/${tag}`, { method: 'PUT', body: { data: { articles: { connect: [article] } } } });

  beforeAll(async () => {
    s = await startTestServer();
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'shared' } } });
    article = created.body.data.documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('starts from the file a write left even when that write has not finished yet', async () => {
    const [a, b, c] = await newTags(3, 'held');
    const store: Store = s.project.documents.store;
    const { writing, exclusive } = store;
    // The race is inside one process, whose writes run side by side under the shared write lock anyway;
    // without it, holding writes below cannot make the lock queue later ones behind them.
    store.exclusive = (fn) => fn();
    // Each write that rewrites the article's file is held once its files are on disk, before it is done with
    // (an operation holds its files' queues until all of them are written, so the hold comes after that).
    const held: Array<() => void> = [];
    let landed: (() => void) | undefined;
    const writes = async (n: number) => {
      while (held.length < n) await new Promise<void>((r) => (landed = r));
    };
    store.writing = async <T>(...args: [PlannedWrite[], () => Promise<T>]) => {
      const result = (await writing!.apply(store, args)) as T;
      if (args[0].some((p) => p.pluralName === 'articles' && p.documentId === article))
        await new Promise<void>((release) => {
          held.push(release);
          landed?.();
        });
      return result;
    };
    try {
      const first = link(a);
      await writes(1);
      // Started while the first is still writing: reads the first's file.
      const second = link(b);
      await writes(2);
      held[0]();
      expect((await first).status).toBe(200);
      // Started once the first is done, while the second's file is on disk but the second is not done.
      const third = link(c);
      await writes(3);
      held[1]();
      held[2]();
      expect([(await second).status, (await third).status]).toEqual([200, 200]);
    } finally {
      store.writing = writing;
      store.exclusive = exclusive;
    }
    expect([...linkedOnDisk()].sort()).toEqual([a, b, c].sort());
    const served = await s.api(`/api/articles/${article}?populate=tags`);
    expect(served.body.data.tags.map((t: { documentId: string }) => t.documentId).sort()).toEqual([a, b, c].sort());
  });

  it('keeps every link when many such writes run at once, round after round', async () => {
    const expected = [...linkedOnDisk()];
    for (let round = 0; round < 3; round++) {
      const tags = await newTags(30, `round${round}`);
      const results = await Promise.all(tags.map(link));
      expect(results.map((r) => r.status)).toEqual(tags.map(() => 200));
      expected.push(...tags);
      expect([...linkedOnDisk()].sort()).toEqual([...expected].sort());
    }
  }, 60_000);
});
