import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  whileWriting,
  addComponent,
  documentFiles,
  changedFiles,
  addAttributes,
  makeProject,
  startTestServer,
  type TestServer,
} from './helpers/project.js';
import { spawnFolio } from './helpers/cli.js';

/**
 * The blog model where a component (`pointer`) links articles (`related`, to-many, and `main`, to-one): alone,
 * repeatable (`pointers`), nested in another component (`shelf`) and in a zone (`blocks`), in the localized
 * article and in the author (a type without locales, whose links name the article's locale).
 */
function projectWithPointers() {
  const p = makeProject();
  const component = (name: string, attributes: Record<string, unknown>) => addComponent(p.contentDir, name, attributes);
  component('pointer', {
    label: { type: 'string' },
    related: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
    main: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
  });
  component('shelf', {
    name: { type: 'string' },
    pointer: { type: 'component', component: 'shared.pointer', repeatable: false },
  });
  const localized = { pluginOptions: { i18n: { localized: true } } };
  addAttributes(p.contentDir, 'article', {
    pointer: { type: 'component', component: 'shared.pointer', repeatable: false, ...localized },
    pointers: { type: 'component', component: 'shared.pointer', repeatable: true, ...localized },
    shelf: { type: 'component', component: 'shared.shelf', repeatable: false, ...localized },
    blocks: { type: 'dynamiczone', components: ['shared.rich-text', 'shared.pointer'], ...localized },
  });
  addAttributes(p.contentDir, 'author', {
    shelf: { type: 'component', component: 'shared.shelf', repeatable: false },
    blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.pointer'] },
  });
  return p;
}

type Row = { title: string; locale: string };
const shown = (rows: Row[] | Row | null | undefined) =>
  (Array.isArray(rows) ? rows : rows ? [rows] : []).map((r) => `${r.title} [${r.locale}]`);

/** A `pointer` value linking `related` (a list) and `main` (one link), as a body gives it. */
const pointer = (label: string, related: unknown[], main: unknown) => ({ label, related, main });

/** The links every component place of an article or author holds, as stored: path -> links. */
function storedLinks(version: Record<string, unknown>): Record<string, unknown> {
  const v = version as {
    pointer?: { related: string[]; main: string | null };
    pointers?: Array<{ related: string[] }>;
    shelf?: { pointer: { related: string[]; main: string | null } };
    blocks?: Array<{ __component: string; related?: string[]; main?: string | null }>;
  };
  const out: Record<string, unknown> = {};
  if (v.pointer) out.pointer = [v.pointer.related, v.pointer.main];
  if (v.pointers) out.pointers = v.pointers.map((p) => p.related);
  if (v.shelf) out.shelf = [v.shelf.pointer.related, v.shelf.pointer.main];
  if (v.blocks) out.blocks = v.blocks.filter((b) => b.related).map((b) => [b.related, b.main]);
  return out;
}

/** The documents the tests link, and how to read them over REST. */
async function linkedProject(s: TestServer) {
  const json = async (path: string, init?: Parameters<TestServer['api']>[1]) => {
    const r = await s.api(path, init);
    expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
    return r.body;
  };
  const article = async (title: string, fr: string, data: Record<string, unknown> = {}, frData = data) => {
    const documentId = (await json('/api/articles', { method: 'POST', body: { data: { title, ...data } } })).data
      .documentId as string;
    await json(`/api/articles/${documentId}?locale=fr`, { method: 'PUT', body: { data: { title: fr, ...frData } } });
    return documentId;
  };
  const a = await article('A en', 'A fr');
  const b = await article('B en', 'B fr');
  // S links A and B from every component place, in both locales; T links B only.
  const everywhere = (related: string[], main: string) => ({
    pointer: pointer('one', related, main),
    pointers: [pointer('first', related, main), pointer('second', [b], b)],
    shelf: { name: 'shelf', pointer: pointer('nested', related, main) },
    blocks: [
      { __component: 'shared.rich-text', body: 'text' },
      { __component: 'shared.pointer', ...pointer('zone', related, main) },
    ],
  });
  const sDoc = await article('S en', 'S fr', everywhere([a, b], a));
  // A links itself and B from its English version.
  await json(`/api/articles/${a}`, { method: 'PUT', body: { data: { pointer: pointer('self', [a, b], a) } } });
  const t = await article('T en', 'T fr', everywhere([b], b));
  const author = async (name: string, related: unknown[], main: unknown) =>
    (
      await json('/api/authors', {
        method: 'POST',
        body: {
          data: {
            name,
            shelf: { name: 'favourites', pointer: pointer('nested', related, main) },
            blocks: [{ __component: 'shared.pointer', ...pointer('zone', related, main) }],
          },
        },
      })
    ).data.documentId as string;
  // Ann links A's French and English versions and B's French one; Bob links A's English version only.
  const fr = (documentId: string) => ({ documentId, locale: 'fr' });
  const ann = await author('Ann', [fr(a), a, fr(b)], fr(a));
  const bob = await author('Bob', [a], a);
  return { a, b, s: sDoc, t, ann, bob, json };
}

/** Populated reads of the running server: every component place of an article version, or of an author. */
function linkedReads(server: () => TestServer) {
  const get = async (path: string) => {
    const r = await server().api(path);
    expect(r.status, JSON.stringify(r.body?.error)).toBe(200);
    return r.body.data;
  };
  const pointerOf = (p: { related: Row[]; main: Row | null } | null) =>
    p ? { related: shown(p.related), main: shown(p.main) } : null;
  const zone = (blocks: Array<{ __component: string; related: Row[]; main: Row | null }>) =>
    blocks.filter((x) => x.__component === 'shared.pointer').map(pointerOf);
  const pointerPopulate = (path: string) =>
    `populate[${path}][populate][related]=true&populate[${path}][populate][main]=true`;
  return {
    article: async (documentId: string, locale: string, status = 'published') => {
      const query = [
        pointerPopulate('pointer'),
        pointerPopulate('pointers'),
        'populate[shelf][populate][pointer][populate]=*',
        'populate[blocks][on][shared.pointer][populate]=*',
      ].join('&');
      const d = await get(`/api/articles/${documentId}?locale=${locale}&status=${status}&${query}`);
      return {
        pointer: pointerOf(d.pointer),
        pointers: d.pointers.map(pointerOf),
        shelf: pointerOf(d.shelf.pointer),
        blocks: zone(d.blocks),
      };
    },
    author: async (documentId: string) => {
      const query = 'populate[shelf][populate][pointer][populate]=*&populate[blocks][on][shared.pointer][populate]=*';
      const d = await get(`/api/authors/${documentId}?${query}`);
      return { shelf: pointerOf(d.shelf.pointer), blocks: zone(d.blocks) };
    },
  };
}

/** Issue 24 §2: deleting a document or one locale of it also removes the links to it inside components and zones. */
describe('deleting a document or one locale of it unlinks it inside components and zones', () => {
  const project = projectWithPointers();
  let s: TestServer;
  let d: Awaited<ReturnType<typeof linkedProject>>;
  const reads = linkedReads(() => s);
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

  it('the links are stored where the tests expect them', () => {
    const { a, b } = d;
    expect(storedLinks(stored('articles', d.s).locales.fr.draft)).toEqual({
      pointer: [[a, b], a],
      pointers: [[a, b], [b]],
      shelf: [[a, b], a],
      blocks: [[[a, b], a]],
    });
    expect(storedLinks(stored('authors', d.ann).published)).toEqual({
      shelf: [[`${a}@fr`, a, `${b}@fr`], `${a}@fr`],
      blocks: [[[`${a}@fr`, a, `${b}@fr`], `${a}@fr`]],
    });
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
    const annSees = { related: ['A fr [fr]', 'A en [en]', 'B fr [fr]'], main: ['A fr [fr]'] };
    expect(await reads.author(ann)).toEqual({ shelf: annSees, blocks: [annSees] });
    expect((await reads.article(d.s, 'fr')).shelf).toEqual({
      related: ['A fr [fr]', 'B fr [fr]'],
      main: ['A fr [fr]'],
    });
  });

  it('DELETE ?locale=fr rewrites the documents whose French component links named it, those only', async () => {
    const { a, b, ann } = d;
    await s.project.documents.idle();
    const before = documentFiles(project.contentDir);
    expect((await s.api(`/api/articles/${a}?locale=fr`, { method: 'DELETE' })).status).toBe(204);
    await s.project.documents.idle();
    // T links B only, Bob links A's English version only: their files are untouched.
    expect(changedFiles(before, documentFiles(project.contentDir))).toEqual(
      [`articles/${a}.json`, `articles/${d.s}.json`, `authors/${ann}.json`].sort(),
    );
    const sFile = stored('articles', d.s);
    for (const status of ['draft', 'published']) {
      expect(storedLinks(sFile.locales.fr[status])).toEqual({
        pointer: [[b], null],
        pointers: [[b], [b]],
        shelf: [[b], null],
        blocks: [[[b], null]],
      });
      expect(storedLinks(sFile.locales.en[status])).toEqual({
        pointer: [[a, b], a],
        pointers: [[a, b], [b]],
        shelf: [[a, b], a],
        blocks: [[[a, b], a]],
      });
    }
    expect(storedLinks(stored('authors', ann).published)).toEqual({
      shelf: [[a, `${b}@fr`], null],
      blocks: [[[a, `${b}@fr`], null]],
    });
    // A's English version keeps its links to itself.
    expect(storedLinks(stored('articles', a).locales.en.published)).toEqual({
      pointer: [[a, b], a],
      pointers: [],
      blocks: [],
    });
    // The rest of the component values stays as it was.
    expect(sFile.locales.fr.published.shelf.name).toBe('shelf');
    expect(sFile.locales.fr.published.blocks[0]).toEqual({ __component: 'shared.rich-text', body: 'text' });
  });

  it('REST reads show the links to the other locales only', async () => {
    const { ann, bob } = d;
    for (const status of ['published', 'draft']) {
      const fr = await reads.article(d.s, 'fr', status);
      const only = { related: ['B fr [fr]'], main: [] };
      expect(fr).toEqual({
        pointer: only,
        pointers: [only, { related: ['B fr [fr]'], main: ['B fr [fr]'] }],
        shelf: only,
        blocks: [only],
      });
      const en = await reads.article(d.s, 'en', status);
      expect(en.pointer).toEqual({ related: ['A en [en]', 'B en [en]'], main: ['A en [en]'] });
      expect(en.blocks).toEqual([{ related: ['A en [en]', 'B en [en]'], main: ['A en [en]'] }]);
    }
    const annSees = { related: ['A en [en]', 'B fr [fr]'], main: [] };
    expect(await reads.author(ann)).toEqual({ shelf: annSees, blocks: [annSees] });
    const bobSees = { related: ['A en [en]'], main: ['A en [en]'] };
    expect(await reads.author(bob)).toEqual({ shelf: bobSees, blocks: [bobSees] });
  });

  it('a French version created again starts unlinked', async () => {
    const { a, ann, json } = d;
    await json(`/api/articles/${a}?locale=fr`, { method: 'PUT', body: { data: { title: 'A fr again' } } });
    const fr = await reads.article(d.s, 'fr');
    expect(fr.pointer).toEqual({ related: ['B fr [fr]'], main: [] });
    expect(fr.shelf).toEqual({ related: ['B fr [fr]'], main: [] });
    expect(fr.blocks).toEqual([{ related: ['B fr [fr]'], main: [] }]);
    const annSees = { related: ['A en [en]', 'B fr [fr]'], main: [] };
    expect(await reads.author(ann)).toEqual({ shelf: annSees, blocks: [annSees] });
  });

  it('a restart reads the same links', async () => {
    const { ann } = d;
    await s.stop();
    s = await startTestServer({ dir: project.dir });
    const fr = await reads.article(d.s, 'fr');
    expect(fr.pointer).toEqual({ related: ['B fr [fr]'], main: [] });
    expect(fr.pointers[0]).toEqual({ related: ['B fr [fr]'], main: [] });
    const en = await reads.article(d.s, 'en');
    expect(en.shelf).toEqual({ related: ['A en [en]', 'B en [en]'], main: ['A en [en]'] });
    const annSees = { related: ['A en [en]', 'B fr [fr]'], main: [] };
    expect(await reads.author(ann)).toEqual({ shelf: annSees, blocks: [annSees] });
  });

  it('deleting the whole document removes every link to it inside components, in every locale', async () => {
    const { a, b, ann, bob } = d;
    await s.project.documents.idle();
    const before = documentFiles(project.contentDir);
    expect((await s.api(`/api/articles/${a}?locale=*`, { method: 'DELETE' })).status).toBe(204);
    await s.project.documents.idle();
    const after = documentFiles(project.contentDir);
    expect(changedFiles(before, after)).toEqual(
      [`articles/${a}.json`, `articles/${d.s}.json`, `authors/${ann}.json`, `authors/${bob}.json`].sort(),
    );
    expect(after.has(`articles/${a}.json`)).toBe(false);
    for (const [path, text] of after) expect(text.includes(a), path).toBe(false);
    const sFile = stored('articles', d.s);
    for (const locale of ['en', 'fr'])
      expect(storedLinks(sFile.locales[locale].published)).toEqual({
        pointer: [[b], null],
        pointers: [[b], [b]],
        shelf: [[b], null],
        blocks: [[[b], null]],
      });
    expect(storedLinks(stored('authors', ann).published)).toEqual({
      shelf: [[`${b}@fr`], null],
      blocks: [[[`${b}@fr`], null]],
    });
    expect(storedLinks(stored('authors', bob).published)).toEqual({ shelf: [[], null], blocks: [[[], null]] });
    expect((await reads.article(d.s, 'en')).pointer).toEqual({ related: ['B en [en]'], main: [] });
    expect(await reads.author(bob)).toEqual({ shelf: { related: [], main: [] }, blocks: [{ related: [], main: [] }] });
  });
});

describe('folio docs delete unlinks inside components the same way', () => {
  const project = projectWithPointers();
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

  it('--locale fr rewrites the documents linking the French version, which later reads show unlinked', async () => {
    const { a, ann } = d;
    const before = documentFiles(project.contentDir);
    const r = await spawnFolio(['docs', 'delete', 'articles', a, '--locale', 'fr', '--dir', project.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(changedFiles(before, documentFiles(project.contentDir))).toEqual(
      [`articles/${a}.json`, `articles/${d.s}.json`, `authors/${ann}.json`].sort(),
    );
    s = await startTestServer({ dir: project.dir });
    const reads = linkedReads(() => s!);
    expect((await reads.article(d.s, 'fr')).shelf).toEqual({ related: ['B fr [fr]'], main: [] });
    expect((await reads.article(d.s, 'en')).shelf).toEqual({
      related: ['A en [en]', 'B en [en]'],
      main: ['A en [en]'],
    });
    const annSees = { related: ['A en [en]', 'B fr [fr]'], main: [] };
    expect(await reads.author(ann)).toEqual({ shelf: annSees, blocks: [annSees] });
  });
});
