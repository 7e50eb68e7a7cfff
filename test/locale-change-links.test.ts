import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addComponent, addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

type Row = { title: string; locale: string };
const shown = (rows: Row[] | Row | null) =>
  (Array.isArray(rows) ? rows : rows ? [rows] : []).map((r) => `${r.title} [${r.locale}]`);

/**
 * The blog model with a type without locales (author) owning relations to a localized one (article):
 * `favourites` (manyToMany) and `pick` (manyToOne); and a component (`card`, on authors and on articles) whose
 * `articles` relation links articles too. Locales en (default), fr and de.
 */
function project() {
  const p = makeProject({
    config: {
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
        { code: 'de', name: 'German (de)' },
      ],
    },
  });
  addComponent(p.contentDir, 'card', {
    label: { type: 'string' },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
  });
  addAttributes(p.contentDir, 'author', {
    favourites: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
    pick: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' },
    card: { type: 'component', component: 'shared.card', repeatable: false },
  });
  addAttributes(p.contentDir, 'article', { card: { type: 'component', component: 'shared.card', repeatable: false } });
  return p;
}

let s: TestServer | undefined;
let p: ReturnType<typeof project> | undefined;
afterEach(async () => {
  await s?.stop();
  p?.cleanup();
  s = p = undefined;
});

const json = async (path: string, init?: Parameters<TestServer['api']>[1]) => {
  const r = await s!.api(path, init);
  expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
  return r.body;
};
const file = (plural: string, documentId: string) => join(p!.contentDir, 'documents', plural, `${documentId}.json`);
const stored = (plural: string, documentId: string) => JSON.parse(readFileSync(file(plural, documentId), 'utf8'));
const restart = async () => {
  await s!.stop();
  s = await startTestServer({ dir: p!.dir });
};
const article = async (title: string, locale: string) =>
  (await json(`/api/articles?locale=${locale}`, { method: 'POST', body: { data: { title } } })).data.documentId;
const translate = (documentId: string, title: string, locale: string) =>
  json(`/api/articles/${documentId}?locale=${locale}`, { method: 'PUT', body: { data: { title } } });
const authorWith = async (data: Record<string, unknown>) =>
  (await json('/api/authors', { method: 'POST', body: { data: { name: 'Ann', ...data } } })).data.documentId;
const linksOf = async (ann: string) => {
  const got = (
    await json(`/api/authors/${ann}?populate[favourites]=true&populate[pick]=true&populate[card][populate]=articles`)
  ).data;
  return { favourites: shown(got.favourites), pick: shown(got.pick), card: shown(got.card?.articles ?? null) };
};

describe('folio locales default', () => {
  it('rewrites the links from types without locales so each keeps naming the same version', async () => {
    p = project();
    s = await startTestServer({ dir: p.dir });
    const both = await article('En one', 'en');
    await translate(both, 'Fr one', 'fr');
    const frOnly = await article('Fr only', 'fr');
    const ann = await authorWith({
      favourites: { connect: [both, { documentId: both, locale: 'fr' }, { documentId: frOnly, locale: 'fr' }] },
      pick: both,
      card: { label: 'c', articles: { connect: [{ documentId: both, locale: 'fr' }, both] } },
    });
    const before = await linksOf(ann);
    expect(before).toEqual({
      favourites: ['En one [en]', 'Fr one [fr]', 'Fr only [fr]'],
      pick: ['En one [en]'],
      card: ['Fr one [fr]', 'En one [en]'],
    });
    const other = await authorWith({ name: 'Bob' });

    const r = await runFolio(['locales', 'default', 'fr', '--json', '--dir', p.dir]);
    expect(r.code, r.stderr).toBe(0);
    await restart();
    expect(s.project.report.problems).toEqual([]);
    expect(await linksOf(ann)).toEqual(before);
    const v = stored('authors', ann).published;
    expect(v.favourites).toEqual([`${both}@en`, both, frOnly]);
    expect(v.pick).toBe(`${both}@en`);
    expect(v.card.articles).toEqual([both, `${both}@en`]);
    expect(stored('authors', other).published.favourites).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ defaultLocale: 'fr', relinked: 1 });
    // Nothing left to rewrite: the output says no more than before.
    const text = await runFolio(['locales', 'default', 'fr', '--dir', p.dir]);
    expect(text.stdout).toBe('fr is now the default locale\n');

    // And back: the text output names how many documents were rewritten.
    const back = await runFolio(['locales', 'default', 'en', '--dir', p.dir]);
    expect(back.stdout).toBe(
      'en is now the default locale\nrewrote the links of 1 document so they name the same versions\n',
    );
    expect(stored('authors', ann).published.favourites).toEqual([both, `${both}@fr`, `${frOnly}@fr`]);
    await restart();
    expect(await linksOf(ann)).toEqual(before);
  });
});

describe('folio locales add --default', () => {
  it('rewrites the links the new default would re-point', async () => {
    p = project();
    s = await startTestServer({ dir: p.dir });
    const both = await article('En one', 'en');
    await translate(both, 'Fr one', 'fr');
    const ann = await authorWith({ favourites: { connect: [both, { documentId: both, locale: 'fr' }] } });
    const r = await runFolio(['locales', 'add', 'it', '--default', '--dir', p.dir]);
    expect(r.code, r.stderr).toBe(0);
    await restart();
    expect((await linksOf(ann)).favourites).toEqual(['En one [en]', 'Fr one [fr]']);
    expect(stored('authors', ann).published.favourites).toEqual([`${both}@en`, `${both}@fr`]);
    expect(r.stdout).toBe(
      'added locale it (default)\nrewrote the links of 1 document so they name the same versions\n',
    );
  });
});

describe('folio locales remove', () => {
  it('deletes the versions in the locale and the links naming it, after a warning counting both', async () => {
    p = project();
    s = await startTestServer({ dir: p.dir });
    const both = await article('En one', 'en');
    await translate(both, 'De one', 'de');
    const ann = await authorWith({
      favourites: { connect: [both, { documentId: both, locale: 'de' }] },
      pick: { connect: [{ documentId: both, locale: 'de' }] },
      card: { label: 'c', articles: { connect: [{ documentId: both, locale: 'de' }] } },
    });
    const deOnly = await article('De only', 'de');
    const bob = await authorWith({ name: 'Bob', favourites: { connect: [{ documentId: deOnly, locale: 'de' }] } });
    await s.stop();
    s = undefined;

    const refused = await runFolio(['locales', 'remove', 'de', '--dir', p.dir]);
    expect(refused.code).toBe(1);
    expect(stored('authors', ann).published.favourites).toEqual([both, `${both}@de`]);

    const r = await runFolio(['locales', 'remove', 'de', '--force', '--json', '--dir', p.dir]);
    expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(p.contentDir, 'folio.json'), 'utf8'));
    expect(config.locales.map((l: { code: string }) => l.code)).toEqual(['en', 'fr']);
    const v = stored('authors', ann).published;
    expect([v.favourites, v.pick, v.card.articles]).toEqual([[both], null, []]);
    expect(stored('authors', bob).published.favourites).toEqual([]);
    expect(Object.keys(stored('articles', both).locales)).toEqual(['en']);
    expect(existsSync(file('articles', deOnly))).toBe(false);

    s = await startTestServer({ dir: p.dir });
    expect(s.project.report.problems).toEqual([]);
    expect(await linksOf(ann)).toEqual({ favourites: ['En one [en]'], pick: [], card: [] });
    expect((await json('/api/authors')).data.map((a: { name: string }) => a.name).sort()).toEqual(['Ann', 'Bob']);
    expect(refused.stderr).toContain('2 documents have a de version and 2 documents link a de version');
    expect(JSON.parse(r.stdout)).toMatchObject({
      relinked: 2,
      withVersions: 2,
      versionsRemoved: 4,
      documentsRemoved: 1,
    });
  });
});

describe('links inside components', () => {
  it('name a locale only in a type without locales, and odd forms are refused and reported', async () => {
    p = project();
    s = await startTestServer({ dir: p.dir });
    const both = await article('En one', 'en');
    await translate(both, 'Fr one', 'fr');
    const host = await article('Host', 'en');
    await json(`/api/articles/${host}`, { method: 'PUT', body: { data: { card: { label: 'c', articles: [both] } } } });
    const ann = await authorWith({ card: { label: 'c', articles: { connect: [{ documentId: both, locale: 'fr' }] } } });
    const bob = await authorWith({ name: 'Bob', card: { label: 'c', articles: [both] } });
    await s.stop();
    s = undefined;

    // An en article's component naming a fr version; an author's naming no locale, or several.
    const setCard = (plural: string, documentId: string, version: string[], articles: unknown) => {
      const body = stored(plural, documentId);
      version.reduce((o, k) => o[k], body).card.articles = articles;
      writeFileSync(file(plural, documentId), JSON.stringify(body));
    };
    setCard('articles', host, ['locales', 'en', 'published'], [`${both}@fr`]);
    setCard('authors', ann, ['published'], [`${both}@`]);
    setCard('authors', bob, ['published'], `${both}@fr@en`);

    s = await startTestServer({ dir: p.dir });
    const unconfigured = 'which is not configured in folio.json';
    const problems = s.project.report.problems.map((x) => `${x.file.split('/').slice(-2).join('/')}: ${x.message}`);
    expect(problems.sort()).toEqual(
      [
        `articles/${host}.json: locales.en.published.card.articles: "${both}@fr" names a locale: ` +
          'only links from a type without locales to a localized one do',
        `authors/${ann}.json: published.card.articles: "${both}@" names locale "", ${unconfigured}`,
        `authors/${bob}.json: published.card.articles: "${both}@fr@en" names locale "fr@en", ${unconfigured}`,
      ].sort(),
    );
    expect((await s.api(`/api/articles/${host}`)).status).toBe(404);
    expect((await s.api(`/api/authors/${ann}`)).status).toBe(404);
  });

  it("are read by the rule of the document's type, even from a file served unchecked", async () => {
    p = project();
    s = await startTestServer({ dir: p.dir });
    const both = await article('En one', 'en');
    await translate(both, 'Fr one', 'fr');
    const host = await article('Host', 'en');
    await json(`/api/articles/${host}`, { method: 'PUT', body: { data: { card: { label: 'c', articles: [both] } } } });
    await s.stop();
    const body = stored('articles', host);
    body.locales.en.published.card.articles = [`${both}@fr`];
    writeFileSync(file('articles', host), JSON.stringify(body));

    // Unchecked (as `folio validate` opens a project): the en article's component does not link a fr version.
    s = await startTestServer({ dir: p.dir, load: { checkValues: false } });
    const got = await json(`/api/articles/${host}?populate[card][populate]=articles`);
    expect(got.data.card.articles).toEqual([]);
    const found = await json(`/api/articles?filters[card][articles][title][$eq]=Fr one`);
    expect(found.data).toEqual([]);
  });
});
