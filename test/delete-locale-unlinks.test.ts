import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  whileWriting,
  documentFiles,
  changedFiles,
  addAttributes,
  makeProject,
  startTestServer,
  type TestServer,
} from './helpers/project.js';
import { spawnFolio } from './helpers/cli.js';

/**
 * The blog model with relations to the localized article from a type without locales (the author's
 * `favourites`, whose inverse side is the article's `fans`, and a one-way `pick`) and from the article itself
 * (`related`, whose inverse side is `relatedFrom`), which links the version of its own locale.
 */
function projectWithLinks() {
  const p = makeProject();
  const edit = (name: string, attrs: Record<string, unknown>) => addAttributes(p.contentDir, name, attrs);
  const article = 'api::article.article';
  edit('author', {
    favourites: { type: 'relation', relation: 'manyToMany', target: article, inversedBy: 'fans' },
    pick: { type: 'relation', relation: 'manyToOne', target: article },
  });
  edit('article', {
    fans: { type: 'relation', relation: 'manyToMany', target: 'api::author.author', mappedBy: 'favourites' },
    related: { type: 'relation', relation: 'manyToMany', target: article, inversedBy: 'relatedFrom' },
    relatedFrom: { type: 'relation', relation: 'manyToMany', target: article, mappedBy: 'related' },
  });
  return p;
}

type Row = { title?: string; name?: string; locale?: string };
const shown = (rows: Row[] | Row | null | undefined) =>
  (Array.isArray(rows) ? rows : rows ? [rows] : []).map((r) => (r.locale ? `${r.title} [${r.locale}]` : r.name));

/** The documents the tests link, and how to read them over REST. */
async function linkedProject(s: TestServer) {
  const json = async (path: string, init?: Parameters<TestServer['api']>[1]) => {
    const r = await s.api(path, init);
    expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
    return r.body;
  };
  const article = async (title: string, fr: string) => {
    const documentId = (await json('/api/articles', { method: 'POST', body: { data: { title } } })).data.documentId;
    await json(`/api/articles/${documentId}?locale=fr`, { method: 'PUT', body: { data: { title: fr } } });
    return documentId as string;
  };
  const author = async (name: string, data: Record<string, unknown>) =>
    (await json('/api/authors', { method: 'POST', body: { data: { name, ...data } } })).data.documentId as string;
  const relate = (documentId: string, locale: string, related: string[]) =>
    json(`/api/articles/${documentId}?locale=${locale}`, { method: 'PUT', body: { data: { related } } });

  const a = await article('A en', 'A fr');
  const b = await article('B en', 'B fr');
  const c = await article('C en', 'C fr');
  const ann = await author('Ann', {
    favourites: [{ documentId: a, locale: 'fr' }, a, { documentId: b, locale: 'fr' }],
    pick: { documentId: a, locale: 'fr' },
  });
  const bob = await author('Bob', { favourites: [a, b], pick: a });
  // B links A in both locales; A links itself and B in French; C links B only.
  await relate(b, 'en', [a]);
  await relate(b, 'fr', [a, c]);
  await relate(a, 'fr', [a, b]);
  await relate(a, 'en', [a]);
  await relate(c, 'fr', [b]);

  return { a, b, c, ann, bob, json };
}

/** Populated reads of the running server: a relation of an article's version, or of an author. */
function linkedReads(server: () => TestServer) {
  const get = async (path: string) => {
    const r = await server().api(path);
    expect(r.status, JSON.stringify(r.body?.error)).toBe(200);
    return r.body.data;
  };
  return {
    related: async (documentId: string, locale: string, name: string, status = 'published') =>
      shown((await get(`/api/articles/${documentId}?locale=${locale}&status=${status}&populate=${name}`))[name]),
    ofAuthor: async (documentId: string, name: string, status = 'published') =>
      shown((await get(`/api/authors/${documentId}?status=${status}&populate=${name}`))[name]),
  };
}

/** Issue 24 §2: deleting one locale of a document unlinks that locale's versions, as Strapi drops their join rows. */
describe('deleting one locale of a document removes the links to its versions', () => {
  const project = projectWithLinks();
  let s: TestServer;
  let d: Awaited<ReturnType<typeof linkedProject>>;
  const { related, ofAuthor } = linkedReads(() => s);
  const stored = (plural: string, documentId: string) =>
    JSON.parse(readFileSync(join(project.contentDir, 'documents', plural, `${documentId}.json`), 'utf8'));

  beforeAll(async () => {
    s = await startTestServer({ dir: project.dir });
    d = await linkedProject(s);
  });
  afterAll(async () => {
    await s?.stop();
    project.cleanup();
  });

  it('a delete one of whose files cannot be written writes none of them', async () => {
    const { a, ann } = d;
    await s.project.documents.idle();
    const before = documentFiles(project.contentDir);
    // The author's file is written after the articles' ones, which must then be put back.
    const refuseAuthors = (plural: string) => {
      if (plural === 'authors') throw Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
    };
    const res = await whileWriting(s.project.documents.store, refuseAuthors, () =>
      s.api(`/api/articles/${a}?locale=fr`, { method: 'DELETE' }),
    );
    expect(res.status).toBe(507);
    expect(changedFiles(before, documentFiles(project.contentDir))).toEqual([]);
    expect(await ofAuthor(ann, 'favourites')).toEqual(['A fr [fr]', 'A en [en]', 'B fr [fr]']);
    expect(await related(a, 'fr', 'related')).toEqual(['A fr [fr]', 'B fr [fr]']);
  });

  it('DELETE ?locale=fr rewrites the linked document and the documents linking its French version only', async () => {
    const { a, b, ann, bob } = d;
    await s.project.documents.idle();
    const before = documentFiles(project.contentDir);
    expect((await s.api(`/api/articles/${a}?locale=fr`, { method: 'DELETE' })).status).toBe(204);
    await s.project.documents.idle();
    const after = documentFiles(project.contentDir);
    // Bob links the English version only, C links B: their files are untouched.
    expect(changedFiles(before, after)).toEqual(
      [`articles/${a}.json`, `articles/${b}.json`, `authors/${ann}.json`].sort(),
    );
    expect(stored('authors', ann).published.favourites).toEqual([a, `${b}@fr`]);
    expect(stored('authors', ann).published.pick).toBeNull();
    expect(stored('authors', bob).published.favourites).toEqual([a, b]);
    const bFile = stored('articles', b);
    expect(bFile.locales.fr.draft.related).toEqual([d.c]);
    expect(bFile.locales.fr.published.related).toEqual([d.c]);
    expect(bFile.locales.en.draft.related).toEqual([a]);
    expect(bFile.locales.en.published.related).toEqual([a]);
    const aFile = stored('articles', a);
    expect(Object.keys(aFile.locales)).toEqual(['en']);
    expect(aFile.locales.en.published.related).toEqual([a]);
  });

  it('REST reads from both sides show the links to the other locales only', async () => {
    const { a, b, ann, bob } = d;
    for (const status of ['published', 'draft']) {
      expect(await ofAuthor(ann, 'favourites', status)).toEqual(['A en [en]', 'B fr [fr]']);
      expect(await ofAuthor(ann, 'pick', status)).toEqual([]);
      expect((await related(a, 'en', 'fans', status)).sort()).toEqual(['Ann', 'Bob']);
      expect(await related(b, 'fr', 'related', status)).toEqual(['C fr [fr]']);
      expect(await related(b, 'en', 'related', status)).toEqual(['A en [en]']);
      expect((await related(a, 'en', 'relatedFrom', status)).sort()).toEqual(['A en [en]', 'B en [en]']);
    }
    expect(await ofAuthor(bob, 'favourites')).toEqual(['A en [en]', 'B en [en]']);
  });

  it('a French version created again starts unlinked', async () => {
    const { a, ann, json } = d;
    await json(`/api/articles/${a}?locale=fr`, { method: 'PUT', body: { data: { title: 'A fr again' } } });
    expect((await related(a, 'fr', 'fans')).sort()).toEqual([]);
    expect((await related(a, 'fr', 'relatedFrom')).sort()).toEqual([]);
    expect(await related(a, 'fr', 'related')).toEqual([]);
    expect(await ofAuthor(ann, 'favourites')).toEqual(['A en [en]', 'B fr [fr]']);
    expect(await ofAuthor(ann, 'pick')).toEqual([]);
  });

  it('a restart reads the same links', async () => {
    const { a, b, ann } = d;
    await s.stop();
    s = await startTestServer({ dir: project.dir });
    expect(await ofAuthor(ann, 'favourites')).toEqual(['A en [en]', 'B fr [fr]']);
    expect(await ofAuthor(ann, 'pick')).toEqual([]);
    expect((await related(a, 'fr', 'fans')).sort()).toEqual([]);
    expect((await related(a, 'fr', 'relatedFrom')).sort()).toEqual([]);
    expect((await related(a, 'en', 'fans')).sort()).toEqual(['Ann', 'Bob']);
    expect(await related(b, 'fr', 'related')).toEqual(['C fr [fr]']);
  });

  it("deleting the default locale removes the bare links of types without locales and the locale's own", async () => {
    const { b, c, ann, bob } = d;
    await s.project.documents.idle();
    const before = documentFiles(project.contentDir);
    expect((await s.api(`/api/articles/${b}`, { method: 'DELETE' })).status).toBe(204);
    await s.project.documents.idle();
    // Ann links B's French version only; A links B in French; C's English version links nothing.
    expect(changedFiles(before, documentFiles(project.contentDir))).toEqual(
      [`articles/${b}.json`, `authors/${bob}.json`].sort(),
    );
    expect(stored('authors', bob).published.favourites).toEqual([d.a]);
    expect(stored('authors', ann).published.favourites).toEqual([d.a, `${b}@fr`]);
    expect(await ofAuthor(ann, 'favourites')).toEqual(['A en [en]', 'B fr [fr]']);
    expect((await related(b, 'fr', 'relatedFrom')).sort()).toEqual(['C fr [fr]']);
    expect(await related(c, 'fr', 'related')).toEqual(['B fr [fr]']);
  });
});

describe('folio docs delete --locale unlinks the same way', () => {
  const project = projectWithLinks();
  let s: TestServer | undefined;
  let d: Awaited<ReturnType<typeof linkedProject>>;

  beforeAll(async () => {
    const setup = await startTestServer({ dir: project.dir });
    d = await linkedProject(setup);
    await setup.stop();
  });
  afterAll(async () => {
    await s?.stop();
    project.cleanup();
  });

  it('rewrites the documents linking the French version, which later reads show unlinked', async () => {
    const { a, b, ann } = d;
    const before = documentFiles(project.contentDir);
    const r = await spawnFolio(['docs', 'delete', 'articles', a, '--locale', 'fr', '--dir', project.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(changedFiles(before, documentFiles(project.contentDir))).toEqual(
      [`articles/${a}.json`, `articles/${b}.json`, `authors/${ann}.json`].sort(),
    );
    s = await startTestServer({ dir: project.dir });
    const api = linkedReads(() => s!);
    expect(await api.ofAuthor(ann, 'favourites')).toEqual(['A en [en]', 'B fr [fr]']);
    expect(await api.ofAuthor(ann, 'pick')).toEqual([]);
    expect(await api.related(b, 'fr', 'related')).toEqual(['C fr [fr]']);
    expect((await api.related(a, 'en', 'fans')).sort()).toEqual(['Ann', 'Bob']);
    expect((await api.related(a, 'en', 'relatedFrom')).sort()).toEqual(['A en [en]', 'B en [en]']);
  });
});
