import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type ApiAnswer, type TestServer } from './helpers/project.js';
import type { Caller } from './helpers/callers.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { eventually } from './helpers/eventually.js';

/**
 * A list page is assembled from documents shaped before and its answer is kept once it is asked again (see
 * docs/performance.md): whatever changes must show in the very next answer, with a new ETag. Each case asks its
 * URL three times first, so that both the documents' bytes and the whole answer are held when the change lands.
 */
describe('cached list pages follow every change', () => {
  let s: TestServer;
  let watcher: Watcher;
  const ids: Record<string, string> = {};
  const PAGE = '/api/articles?filters[views][$gt]=0&sort=title:asc&populate=author&pagination[pageSize]=2';

  beforeAll(async () => {
    s = await startTestServer();
    watcher = await watchProject(s.project, {});
    await watcher.ready;
    const made = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } });
    ids.ada = made.body.data.documentId;
    for (const [key, title, views] of [
      ['a', 'Alpha', 10],
      ['b', 'Bravo', 20],
      ['c', 'Charlie', 30],
    ] as const) {
      const res = await s.api('/api/articles', { method: 'POST', body: { data: { title, views, author: ids.ada } } });
      expect(res.status).toBe(201);
      ids[key] = res.body.data.documentId;
    }
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  /** The URL asked three times by `as`, each answer the same: the last one. */
  async function held(path: string, as: Caller = 'full-access'): Promise<ApiAnswer> {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await s.api(path, { as }));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toBe(answers[0].text);
      expect(a.headers.get('etag')).toBe(answers[0].headers.get('etag'));
    }
    return answers[2];
  }
  const titles = (a: ApiAnswer) => (a.body.data as Array<{ title: string }>).map((d) => d.title);
  const authors = (a: ApiAnswer) =>
    (a.body.data as Array<{ author: { name: string } | null }>).map((d) => d.author?.name);

  it('an edit through the API shows in the next answer, under a new ETag', async () => {
    const before = await held(PAGE);
    expect(titles(before)).toEqual(['Alpha', 'Bravo']);
    await s.api(`/api/articles/${ids.a}`, { method: 'PUT', body: { data: { title: 'Apex' } } });
    const after = await s.api(PAGE, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(titles(after)).toEqual(['Apex', 'Bravo']);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('an edit of a populated document by hand shows in the pages that show it', async () => {
    expect(authors(await held(PAGE))).toEqual(['Ada', 'Ada']);
    const file = join(s.contentDir, 'documents', 'authors', `${ids.ada}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"Ada"', '"Ada Lovelace"'));
    await eventually(async () => authors(await s.api(PAGE))[0] === 'Ada Lovelace', 'the author edited by hand');
    expect(authors(await s.api(PAGE))).toEqual(['Ada Lovelace', 'Ada Lovelace']);
  });

  it('an edit of a listed document by hand shows in the next answer', async () => {
    await held(PAGE);
    const file = join(s.contentDir, 'documents', 'articles', `${ids.b}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"Bravo"', '"Beta"'));
    await eventually(async () => titles(await s.api(PAGE)).includes('Beta'), 'the article edited by hand');
    expect(titles(await s.api(PAGE))).toEqual(['Apex', 'Beta']);
  });

  it('a permission taken away shows in the next answer of a page held for that caller', async () => {
    expect(authors(await held(PAGE, 'anonymous'))).toEqual(['Ada Lovelace', 'Ada Lovelace']);
    const roles = (await s.api('/api/users-permissions/roles')).body.roles as Array<{ id: number; type: string }>;
    const pub = roles.find((r) => r.type === 'public')!;
    const res = await s.api(`/api/users-permissions/roles/${pub.id}`, {
      method: 'PUT',
      body: { permissions: { 'api::article': { controllers: { article: { find: { enabled: true } } } } } },
    });
    expect(res.status).toBe(200);
    const after = await s.api(PAGE, { anonymous: true });
    expect(after.status).toBe(200);
    expect(authors(after)).toEqual([undefined, undefined]);
  });

  it('a new locale and a publication change show in the next answer', async () => {
    const fr = `${PAGE}&locale=fr`;
    expect(titles(await held(fr))).toEqual([]);
    const made = await s.api(`/api/articles/${ids.c}?locale=fr`, {
      method: 'PUT',
      body: { data: { title: 'Charles', views: 5 } },
    });
    expect(made.status).toBe(200);
    expect(titles(await s.api(fr))).toEqual(['Charles']);

    const drafts = `${PAGE}&status=draft`;
    expect(titles(await held(drafts))).toEqual(['Apex', 'Beta']);
    expect(titles(await held(PAGE))).toEqual(['Apex', 'Beta']);
    await s.api(`/api/articles/${ids.a}?status=draft`, { method: 'PUT', body: { data: { title: 'Aardvark' } } });
    expect(titles(await s.api(drafts))).toEqual(['Aardvark', 'Beta']);
    expect(titles(await s.api(PAGE))).toEqual(['Apex', 'Beta']);
  });

  it('tags each page by its own bytes: equal answers agree, different pages differ, HEAD as GET', async () => {
    const one = await held(PAGE);
    const two = await held(`${PAGE}&pagination[page]=2`);
    expect(two.text).not.toBe(one.text);
    expect(two.headers.get('etag')).not.toBe(one.headers.get('etag'));
    const head = await s.api(PAGE, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(one.headers.get('etag'));
    const again = await s.api(PAGE, { headers: { 'if-none-match': one.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // Asked once only: not held, tagged as it is asked.
    const fresh = `${PAGE}&pagination[page]=3`;
    const first = await s.api(fresh);
    expect((await s.api(fresh, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
  });
});
