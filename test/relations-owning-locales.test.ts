import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addComponent, addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

type Row = { title: string; locale: string };
const shown = (rows: Row[] | Row | null) => (Array.isArray(rows) ? rows : rows ? [rows] : []).map(shownOne);
const shownOne = (r: Row) => `${r.title} [${r.locale}]`;

/**
 * The blog model with a type without locales (author) that owns relations to a localized one (article):
 * `favourites` (manyToMany, whose inverse side is the article's `fans`), `pick` (manyToOne, one-way) and
 * `spotlight` (oneToOne, whose inverse side is the article's `spotlightOf`); and a component (`card`) whose
 * `articles` relation links articles too.
 */
function projectWithOwningAuthor() {
  const p = makeProject();
  const edit = (name: string, attrs: Record<string, unknown>) => addAttributes(p.contentDir, name, attrs);
  edit('author', {
    favourites: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', inversedBy: 'fans' },
    pick: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' },
    spotlight: { type: 'relation', relation: 'oneToOne', target: 'api::article.article', inversedBy: 'spotlightOf' },
    card: { type: 'component', component: 'shared.card', repeatable: false },
  });
  addComponent(p.contentDir, 'card', {
    label: { type: 'string' },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
  });
  edit('article', {
    fans: { type: 'relation', relation: 'manyToMany', target: 'api::author.author', mappedBy: 'favourites' },
    spotlightOf: { type: 'relation', relation: 'oneToOne', target: 'api::author.author', mappedBy: 'spotlight' },
  });
  return p;
}

/** Issue 24 §2: a type without locales owning a relation to a localized type links one locale's version. */
describe('owning relations from a type without locales to a localized type', () => {
  const project = projectWithOwningAuthor();
  let s: TestServer;
  let ann: string;
  let bob: string;
  let enFr: string;
  let frOnly: string;
  const json = async (path: string, init?: Parameters<TestServer['api']>[1]) => {
    const r = await s.api(path, init);
    expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
    return r.body;
  };
  const put = (documentId: string, data: Record<string, unknown>) =>
    json(`/api/authors/${documentId}`, { method: 'PUT', body: { data } });
  const stored = (documentId: string) =>
    JSON.parse(readFileSync(join(project.contentDir, 'documents', 'authors', `${documentId}.json`), 'utf8'));
  const favouritesOf = async (documentId: string, qs = '') =>
    shown((await json(`/api/authors/${documentId}?populate=favourites${qs}`)).data.favourites);
  const fansOf = async (documentId: string, locale: string) =>
    (await json(`/api/articles/${documentId}?locale=${locale}&populate=fans`)).data.fans.map(
      (a: { name: string }) => a.name,
    );

  beforeAll(async () => {
    s = await startTestServer({ dir: project.dir });
    ann = (await json('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } })).data.documentId;
    bob = (await json('/api/authors', { method: 'POST', body: { data: { name: 'Bob' } } })).data.documentId;
    enFr = (await json('/api/articles', { method: 'POST', body: { data: { title: 'En one' } } })).data.documentId;
    await json(`/api/articles/${enFr}?locale=fr`, { method: 'PUT', body: { data: { title: 'Fr one' } } });
    frOnly = (await json('/api/articles?locale=fr', { method: 'POST', body: { data: { title: 'Fr only' } } })).data
      .documentId;
  });
  afterAll(async () => {
    await s.stop();
    project.cleanup();
  });

  it('connect with a locale links that locale version; without one, the default locale version', async () => {
    await put(ann, { favourites: { connect: [{ documentId: enFr, locale: 'fr' }] } });
    expect(await favouritesOf(ann)).toEqual(['Fr one [fr]']);
    await put(ann, { favourites: { connect: [enFr, { documentId: frOnly, locale: 'fr' }] } });
    expect(await favouritesOf(ann)).toEqual(['Fr one [fr]', 'En one [en]', 'Fr only [fr]']);
    // The default locale's link is the bare documentId; another locale's names it.
    expect(stored(ann).published.favourites).toEqual([`${enFr}@fr`, enFr, `${frOnly}@fr`]);
  });

  it('populate lists the linked versions in the read status, in counts and nested too', async () => {
    await json(`/api/articles/${frOnly}?locale=fr&status=draft`, {
      method: 'PUT',
      body: { data: { title: 'Fr only (draft)' } },
    });
    expect(await favouritesOf(ann, '&status=draft')).toEqual(['Fr one [fr]', 'En one [en]', 'Fr only (draft) [fr]']);
    expect(await favouritesOf(ann)).toEqual(['Fr one [fr]', 'En one [en]', 'Fr only [fr]']);
    await json(`/api/articles/${frOnly}?locale=fr&status=draft`, {
      method: 'PUT',
      body: { data: { title: 'Fr only' } },
    });
    expect((await json(`/api/authors/${ann}?populate[favourites][count]=true`)).data.favourites).toEqual({
      count: 3,
    });
    const nested = await json(`/api/articles/${frOnly}?locale=fr&populate[fans][populate][favourites]=true`);
    expect(shown(nested.data.fans[0].favourites)).toEqual(['Fr one [fr]', 'En one [en]', 'Fr only [fr]']);
  });

  it("the inverse side sees the link from the linked locale's version only", async () => {
    expect(await fansOf(enFr, 'fr')).toEqual(['Ann']);
    expect(await fansOf(enFr, 'en')).toEqual(['Ann']);
    expect(await fansOf(frOnly, 'fr')).toEqual(['Ann']);
    await put(ann, { favourites: { disconnect: [enFr] } });
    expect(await fansOf(enFr, 'en')).toEqual([]);
    expect(await fansOf(enFr, 'fr')).toEqual(['Ann']);
  });

  it('filters through the owning side and through the inverse side follow the linked locale', async () => {
    const names = (body: { data: Array<{ name?: string; title?: string }> }) => body.data.map((x) => x.name ?? x.title);
    expect(names(await json(`/api/authors?filters[favourites][title][$eq]=${encodeURIComponent('Fr one')}`))).toEqual([
      'Ann',
    ]);
    expect(names(await json(`/api/authors?filters[favourites][title][$eq]=${encodeURIComponent('En one')}`))).toEqual(
      [],
    );
    expect(names(await json('/api/articles?locale=fr&filters[fans][name][$eq]=Ann&sort=title'))).toEqual([
      'Fr one',
      'Fr only',
    ]);
    expect(names(await json('/api/articles?locale=en&filters[fans][name][$eq]=Ann'))).toEqual([]);
  });

  it('disconnect and set with a locale touch that locale version only', async () => {
    await put(ann, { favourites: { connect: [enFr] } });
    await put(ann, { favourites: { disconnect: [{ documentId: enFr, locale: 'fr' }] } });
    expect(await favouritesOf(ann)).toEqual(['Fr only [fr]', 'En one [en]']);
    await put(ann, { favourites: { set: [{ documentId: enFr, locale: 'fr' }, { documentId: enFr }] } });
    expect(await favouritesOf(ann)).toEqual(['Fr one [fr]', 'En one [en]']);
    expect(stored(ann).published.favourites).toEqual([`${enFr}@fr`, enFr]);
  });

  it("a position's anchor is the version of the locale the position names (default: the default locale)", async () => {
    const connect = (position: Record<string, unknown>) =>
      put(ann, { favourites: { connect: [{ documentId: frOnly, locale: 'fr', position }] } });
    await connect({ before: enFr });
    expect(stored(ann).published.favourites).toEqual([`${enFr}@fr`, `${frOnly}@fr`, enFr]);
    await connect({ before: enFr, locale: 'fr' });
    expect(stored(ann).published.favourites).toEqual([`${frOnly}@fr`, `${enFr}@fr`, enFr]);
    await put(ann, { favourites: { disconnect: [{ documentId: frOnly, locale: 'fr' }] } });
    expect(await favouritesOf(ann)).toEqual(['Fr one [fr]', 'En one [en]']);
  });

  it('a to-one owner links the version of the locale given', async () => {
    await put(bob, { pick: { connect: [{ documentId: enFr, locale: 'fr' }] } });
    expect(shown((await json(`/api/authors/${bob}?populate=pick`)).data.pick)).toEqual(['Fr one [fr]']);
    await put(bob, { pick: { documentId: frOnly, locale: 'fr' } });
    expect(shown((await json(`/api/authors/${bob}?populate=pick`)).data.pick)).toEqual(['Fr only [fr]']);
    expect(stored(bob).published.pick).toBe(`${frOnly}@fr`);
    await put(bob, { pick: enFr });
    expect(stored(bob).published.pick).toBe(enFr);
  });

  it('a one-to-one owner holds the version it links alone, the other locales staying linked elsewhere', async () => {
    const spotlightOf = async (locale: string) =>
      (await json(`/api/articles/${enFr}?locale=${locale}&populate=spotlightOf`)).data.spotlightOf?.name ?? null;
    await put(ann, { spotlight: { documentId: enFr, locale: 'fr' } });
    await put(bob, { spotlight: enFr });
    expect([await spotlightOf('en'), await spotlightOf('fr')]).toEqual(['Bob', 'Ann']);
    await put(bob, { spotlight: { connect: [{ documentId: enFr, locale: 'fr' }] } });
    expect(stored(ann).published.spotlight).toBeNull();
    expect(stored(bob).published.spotlight).toBe(`${enFr}@fr`);
    expect([await spotlightOf('en'), await spotlightOf('fr')]).toEqual([null, 'Bob']);
    // From the inverse side of the en version: Ann links it, Bob keeps the fr one.
    await json(`/api/articles/${enFr}?locale=en`, { method: 'PUT', body: { data: { spotlightOf: ann } } });
    expect([await spotlightOf('en'), await spotlightOf('fr')]).toEqual(['Ann', 'Bob']);
    expect(stored(ann).published.spotlight).toBe(enFr);
  });

  it("a component's relation links the version of the locale given", async () => {
    await put(bob, {
      card: {
        label: 'Picks',
        articles: { connect: [{ documentId: enFr, locale: 'fr' }, { documentId: frOnly, locale: 'fr' }, enFr] },
      },
    });
    expect(stored(bob).published.card.articles).toEqual([`${enFr}@fr`, `${frOnly}@fr`, enFr]);
    const got = await json(`/api/authors/${bob}?populate[card][populate]=articles`);
    expect(shown(got.data.card.articles)).toEqual(['Fr one [fr]', 'Fr only [fr]', 'En one [en]']);
  });

  it('a locale the target lacks is a 400, as Strapi answers it', async () => {
    const r = await s.api(`/api/authors/${ann}`, {
      method: 'PUT',
      body: { data: { favourites: { connect: [{ documentId: frOnly, locale: 'en' }] } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(`Document with id "${frOnly}", locale "en" not found`);
  });

  it('a write from the inverse side of a localized version links that locale version', async () => {
    await json(`/api/articles/${frOnly}?locale=fr`, {
      method: 'PUT',
      body: { data: { fans: { connect: [bob] } } },
    });
    expect(stored(bob).published.favourites).toEqual([`${frOnly}@fr`]);
    expect(await favouritesOf(bob)).toEqual(['Fr only [fr]']);
    await json(`/api/articles/${enFr}?locale=fr`, { method: 'PUT', body: { data: { fans: { set: [bob] } } } });
    expect(await favouritesOf(bob)).toEqual(['Fr only [fr]', 'Fr one [fr]']);
    await json(`/api/articles/${frOnly}?locale=fr`, { method: 'PUT', body: { data: { fans: { disconnect: [bob] } } } });
    expect(await favouritesOf(bob)).toEqual(['Fr one [fr]']);
    // The set replaced Ann's link of that version, not her link of the en version.
    expect(await fansOf(enFr, 'fr')).toEqual(['Bob']);
    expect(await fansOf(enFr, 'en')).toEqual(['Ann']);
    expect(stored(ann).published.favourites).toEqual([enFr]);
  });

  it('the CLI reads and writes the same links', async () => {
    const cli = async (args: string[]) => {
      const r = await runFolio([...args, '--json', '--dir', project.dir]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    await s.project.documents.idle();
    const data = JSON.stringify({ favourites: { connect: [{ documentId: frOnly, locale: 'fr' }] } });
    await cli(['docs', 'update', 'authors', bob, '--data', data]);
    const got = await cli(['docs', 'get', 'authors', bob, '--populate', 'favourites']);
    expect(shown(got.data?.favourites ?? got.favourites)).toEqual(['Fr one [fr]', 'Fr only [fr]']);
    // A refused link is explained with the locale its entry names.
    const enOnly = (await json('/api/articles', { method: 'POST', body: { data: { title: 'En only' } } })).data
      .documentId;
    const refused = JSON.stringify({ favourites: { connect: [{ documentId: enOnly, locale: 'fr' }] } });
    const r = await runFolio(['docs', 'update', 'authors', bob, '--data', refused, '--dir', project.dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`favourites: article "${enOnly}" has no fr version (it has en)`);
  });

  it('deleting an article removes its links of every locale', async () => {
    await put(ann, {
      favourites: { set: [{ documentId: frOnly, locale: 'fr' }, enFr, { documentId: enFr, locale: 'fr' }] },
    });
    await json(`/api/articles/${enFr}?locale=*`, { method: 'DELETE' });
    expect(stored(ann).published.favourites).toEqual([`${frOnly}@fr`]);
  });
});

describe('document files naming the locale of a link', () => {
  it('a file written by hand in that form reads after a fresh start, and bad locales are refused', async () => {
    const project = projectWithOwningAuthor();
    let s = await startTestServer({ dir: project.dir });
    try {
      const post = async (path: string, data: Record<string, unknown>) =>
        (await s.api(path, { method: 'POST', body: { data } })).body.data.documentId as string;
      const a = await post('/api/articles', { title: 'A en' });
      await s.api(`/api/articles/${a}?locale=fr`, { method: 'PUT', body: { data: { title: 'A fr' } } });
      const b = await post('/api/articles?locale=fr', { title: 'B fr' });
      await s.stop();

      const t = '2026-01-01T00:00:00.000Z';
      const author = (id: number, documentId: string, favourites: string[], pick: string | null) => ({
        documentId,
        published: { id, name: documentId, favourites, pick, createdAt: t, updatedAt: t, publishedAt: t },
      });
      mkdirSync(join(project.contentDir, 'documents', 'authors'), { recursive: true });
      const put = (documentId: string, body: unknown) =>
        writeFileSync(
          join(project.contentDir, 'documents', 'authors', `${documentId}.json`),
          `${JSON.stringify(body, null, 2)}\n`,
        );
      put('handwritten00000000000000', author(90, 'handwritten00000000000000', [`${b}@fr`, a, `${a}@en`], `${a}@fr`));
      put('unknownlocale00000000000', author(91, 'unknownlocale00000000000', [`${a}@de`], null));

      s = await startTestServer({ dir: project.dir });
      const r = await s.api('/api/authors/handwritten00000000000000?populate=*');
      expect(r.status).toBe(200);
      // `a@en` names the default locale: the same version as the bare documentId.
      expect(shown(r.body.data.favourites)).toEqual(['B fr [fr]', 'A en [en]', 'A en [en]']);
      expect(shown(r.body.data.pick)).toEqual(['A fr [fr]']);
      const fans = await s.api(`/api/articles/${b}?locale=fr&populate=fans`);
      expect(fans.body.data.fans.map((x: { name: string }) => x.name)).toEqual(['handwritten00000000000000']);
      expect((await s.api('/api/authors/unknownlocale00000000000')).status).toBe(404);

      // A write rewrites the hand-written links in the form Folio writes.
      await s.api('/api/authors/handwritten00000000000000', {
        method: 'PUT',
        body: { data: { favourites: { disconnect: [a] } } },
      });
      await s.project.documents.idle();
      const file = JSON.parse(
        readFileSync(join(project.contentDir, 'documents', 'authors', 'handwritten00000000000000.json'), 'utf8'),
      );
      expect(file.published.favourites).toEqual([`${b}@fr`]);
    } finally {
      await s.stop();
      project.cleanup();
    }
  });

  it('folio validate checks the version a link names, and its locale', async () => {
    const project = projectWithOwningAuthor();
    const s = await startTestServer({ dir: project.dir });
    try {
      const b = (await s.api('/api/articles?locale=fr', { method: 'POST', body: { data: { title: 'B fr' } } })).body
        .data.documentId as string;
      const ann = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } })).body.data
        .documentId as string;
      await s.project.documents.idle();
      const file = join(project.contentDir, 'documents', 'authors', `${ann}.json`);
      const body = JSON.parse(readFileSync(file, 'utf8'));
      body.published.favourites = [`${b}@fr`, b, `${b}@de`];
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      // Links between localized versions are always in one locale: naming one is refused there.
      const articleFile = join(project.contentDir, 'documents', 'articles', `${b}.json`);
      const article = JSON.parse(readFileSync(articleFile, 'utf8'));
      article.locales.fr.draft.author = `${ann}@fr`;
      writeFileSync(articleFile, `${JSON.stringify(article, null, 2)}\n`);
      const r = await runFolio(['validate', '--dir', project.dir]);
      expect(r.stdout).toContain(`locales.fr.draft.author: "${ann}@fr" names a locale: only links from a type`);
      expect(r.stdout).toContain(`published.favourites: points at article ${b}, which has no en version`);
      expect(r.stdout).toContain(`"${b}@de" names locale "de", which is not configured in folio.json`);
      expect(r.stdout).not.toContain(`${b}@fr`);
    } finally {
      await s.stop();
      project.cleanup();
    }
  });

  it('folio import strapi keeps the locale of each linked version', async () => {
    const project = projectWithOwningAuthor();
    const s = await startTestServer({ dir: project.dir });
    const into = mkdtempSync(join(tmpdir(), 'folio-import-'));
    try {
      const post = async (path: string, data: Record<string, unknown>) => {
        const r = await s.api(path, { method: 'POST', body: { data } });
        expect(r.status, r.text).toBe(201);
        return r.body.data.documentId as string;
      };
      const a = await post('/api/articles', { title: 'A en' });
      await s.api(`/api/articles/${a}?locale=fr`, { method: 'PUT', body: { data: { title: 'A fr' } } });
      const ann = await post('/api/authors', {
        name: 'Ann',
        favourites: [{ documentId: a, locale: 'fr' }, a],
        pick: { documentId: a, locale: 'fr' },
      });
      expect((await runFolio(['init', into, '-q'])).code).toBe(0);
      const r = await runFolio(['import', 'strapi', '--url', s.url, '--token', s.token, '--dir', into]);
      expect(r.code, r.stderr).toBe(0);
      const file = JSON.parse(readFileSync(join(into, 'content', 'documents', 'authors', `${ann}.json`), 'utf8'));
      expect(file.published.favourites).toEqual([`${a}@fr`, a]);
      expect(file.published.pick).toBe(`${a}@fr`);
    } finally {
      await s.stop();
      project.cleanup();
      rmSync(into, { recursive: true, force: true });
    }
  });
});
