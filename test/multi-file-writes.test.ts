import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { whileWriting, startTestServer, type TestServer } from './helpers/project.js';
import type { PlannedWrite, Store } from '../src/store/store.js';

/**
 * A write on the inverse side of a relation rewrites the owning documents' files as well as its own: the
 * files of one operation are all written, or none of them is.
 */
describe('writes of several files', () => {
  let s: TestServer;
  /** The article the test in progress links its tags to (each test has its own). */
  let article: string;
  const dirOf = (plural: string) => join(s.contentDir, 'documents', plural);
  const articleFile = () => join(dirOf('articles'), `${article}.json`);
  const linkedOnDisk = () => JSON.parse(readFileSync(articleFile(), 'utf8')).locales.en.published.tags as string[];
  const tagFiles = () => readdirSync(dirOf('tags')).sort();
  const createTag = (name: string) =>
    s.api('/api/tags', { method: 'POST', body: { data: { name, articles: { connect: [article] } } } });

  const tagsOf = async (a: string) => {
    const served = await s.api(`/api/articles/${a}?populate=tags&pagination[pageSize]=100`);
    return served.body.data.tags.map((t: { documentId: string }) => t.documentId).sort();
  };

  beforeAll(async () => {
    s = await startTestServer();
  });
  beforeEach(async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'shared' } } });
    article = created.body.data.documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('creates 40 documents at once that all link one article, and the article links all of them', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => createTag(`race-${i}`)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const ids = results.map((r) => r.body.data.documentId as string).sort();
    expect([...linkedOnDisk()].sort()).toEqual(ids);
    expect(tagFiles()).toEqual(ids.map((id) => `${id}.json`));
    expect(await tagsOf(article)).toEqual(ids);
    for (const r of results) await s.api(`/api/tags/${r.body.data.documentId}`, { method: 'DELETE' });
  }, 60_000);

  it('deletes 40 documents at once that one article links, and the article links none of them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await createTag(`doomed-${i}`)).body.data.documentId);
    expect([...linkedOnDisk()].sort()).toEqual([...ids].sort());
    const results = await Promise.all(ids.map((id) => s.api(`/api/tags/${id}`, { method: 'DELETE' })));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 204));
    expect(linkedOnDisk()).toEqual([]);
    expect(tagFiles().filter((f) => ids.includes(f.slice(0, -5)))).toEqual([]);
    expect(await tagsOf(article)).toEqual([]);
  }, 60_000);

  it('writes no file of a create whose linked file an editor keeps changing as it is written', async () => {
    const kept = await createTag('kept');
    expect(kept.status).toBe(201);
    const before = { tags: tagFiles(), links: linkedOnDisk() };
    let edits = 0;
    // An editor saves the article again (same text, a new file) just as the new tag's own file is written.
    const editArticle = (plural: string) => {
      if (plural !== 'tags') return;
      writeFileSync(articleFile(), readFileSync(articleFile()));
      edits++;
    };
    const res = await whileWriting(s.project.documents.store, editArticle, () => createTag('refused'));
    expect(edits).toBe(10);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/kept changing while this write was made; nothing was written/);
    expect(tagFiles()).toEqual(before.tags);
    expect(linkedOnDisk()).toEqual(before.links);
    expect(
      readdirSync(dirOf('tags'))
        .concat(readdirSync(dirOf('articles')))
        .filter((f) => !f.endsWith('.json')),
    ).toEqual([]);
    const listed = await s.api('/api/tags');
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['kept']);
    expect(await tagsOf(article)).toEqual([kept.body.data.documentId]);
  });

  it('writes no file of an operation whose stamps do not all hold when it starts writing', async () => {
    expect((await createTag('linked')).status).toBe(201);
    const before = { tags: tagFiles(), links: linkedOnDisk() };
    const store: Store = s.project.documents.store;
    const { writing } = store;
    expect(writing).toBeTypeOf('function');
    let checks = 0;
    store.writing = <T>(...args: [PlannedWrite[], () => Promise<T>]) => {
      writeFileSync(articleFile(), readFileSync(articleFile()));
      checks++;
      return writing!.apply(store, args) as Promise<T>;
    };
    let res;
    try {
      res = await createTag('never');
    } finally {
      store.writing = writing;
    }
    expect(checks).toBe(10);
    expect(res.status).toBe(409);
    expect(tagFiles()).toEqual(before.tags);
    expect(linkedOnDisk()).toEqual(before.links);
  });

  it('puts the rewritten article back when the removal of a deleted document fails', async () => {
    const tag = (await createTag('stays')).body.data.documentId as string;
    const text = readFileSync(articleFile(), 'utf8');
    const store: Store = s.project.documents.store;
    const { remove } = store;
    store.remove = async () => {
      throw Object.assign(new Error('EACCES: permission denied, unlink'), { code: 'EACCES' });
    };
    let res;
    try {
      res = await s.api(`/api/tags/${tag}`, { method: 'DELETE' });
    } finally {
      store.remove = remove;
    }
    expect(res.status).toBe(507);
    expect(readFileSync(articleFile(), 'utf8')).toBe(text);
    expect(tagFiles()).toContain(`${tag}.json`);
    expect(await tagsOf(article)).toEqual([tag]);
    expect(readdirSync(dirOf('articles')).filter((f) => !f.endsWith('.json'))).toEqual([]);
  });
});
