import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

type Row = { title: string; locale: string };
const shown = (rows: Row[]) => rows.map((r) => `${r.title} [${r.locale}]`);

/** Issue 24 §2: a type without locales (author) related to a localized one (article) sees every locale. */
describe('relations across locales', () => {
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
  beforeAll(async () => {
    s = await startTestServer();
    ann = (await json('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } })).data.documentId;
    bob = (await json('/api/authors', { method: 'POST', body: { data: { name: 'Bob' } } })).data.documentId;
    enFr = (await json('/api/articles', { method: 'POST', body: { data: { title: 'En one', author: ann } } })).data
      .documentId;
    await json(`/api/articles/${enFr}?locale=fr`, { method: 'PUT', body: { data: { title: 'Fr one', author: ann } } });
    frOnly = (
      await json('/api/articles?locale=fr', { method: 'POST', body: { data: { title: 'Fr only', author: ann } } })
    ).data.documentId;
    await json('/api/articles?locale=fr&status=draft', {
      method: 'POST',
      body: { data: { title: 'Fr draft', author: ann } },
    });
  });
  afterAll(async () => {
    await s.stop();
  });

  const annArticles = async (qs: string) => {
    const body = await json(`/api/authors?filters[name]=Ann&${qs}`);
    return shown(body.data[0].articles);
  };

  it("lists every locale's published version with populate=articles, populate=* and a locale parameter", async () => {
    const all = ['En one [en]', 'Fr one [fr]', 'Fr only [fr]'];
    expect(await annArticles('populate=articles')).toEqual(all);
    expect(await annArticles('populate=*')).toEqual(all);
    expect(await annArticles('populate=articles&locale=fr')).toEqual(all);
    expect(await annArticles('populate[articles][fields][0]=title&populate[articles][fields][1]=locale')).toEqual(all);
  });

  it('lists the drafts of every locale with status=draft', async () => {
    expect(await annArticles('populate=articles&status=draft')).toEqual([
      'En one [en]',
      'Fr one [fr]',
      'Fr only [fr]',
      'Fr draft [fr]',
    ]);
  });

  it('lists every locale nested (article -> author -> articles) and in counts', async () => {
    const body = await json(`/api/articles/${enFr}?populate[author][populate][articles]=true`);
    expect(shown(body.data.author.articles)).toEqual(['En one [en]', 'Fr one [fr]', 'Fr only [fr]']);
    const counted = await json('/api/authors?filters[name]=Ann&populate[articles][count]=true');
    expect(counted.data[0].articles).toEqual({ count: 3 });
  });

  it('filters through the inverse side see every locale', async () => {
    const byFr = await json(`/api/authors?filters[articles][title][$eq]=${encodeURIComponent('Fr only')}`);
    expect(byFr.data.map((a: { name: string }) => a.name)).toEqual(['Ann']);
    const byFrLocale = await json('/api/authors?filters[articles][locale][$eq]=fr');
    expect(byFrLocale.data.map((a: { name: string }) => a.name)).toEqual(['Ann']);
  });

  const authorOf = async (documentId: string, locale: string, status = 'published') =>
    (await json(`/api/articles/${documentId}?locale=${locale}&status=${status}&populate=author`)).data.author?.name ??
    null;

  it('connect and disconnect entries with a locale (un)link that locale version from the author side', async () => {
    await json(`/api/authors/${bob}`, {
      method: 'PUT',
      body: { data: { articles: { connect: [{ documentId: frOnly, locale: 'fr' }] } } },
    });
    expect(await authorOf(frOnly, 'fr')).toBe('Bob');
    expect(await authorOf(frOnly, 'fr', 'draft')).toBe('Bob');
    expect(await annArticles('populate=articles')).toEqual(['En one [en]', 'Fr one [fr]']);

    await json(`/api/authors/${ann}`, {
      method: 'PUT',
      body: { data: { articles: { disconnect: [{ documentId: enFr, locale: 'fr' }] } } },
    });
    expect(await authorOf(enFr, 'fr')).toBeNull();
    expect(await authorOf(enFr, 'en')).toBe('Ann');

    // Without a locale, the default locale's version.
    await json(`/api/authors/${bob}`, {
      method: 'PUT',
      body: { data: { articles: { connect: [enFr] } } },
    });
    expect(await authorOf(enFr, 'en')).toBe('Bob');
    expect(await authorOf(enFr, 'fr')).toBeNull();
  });

  it('set with locales replaces the links of every locale', async () => {
    await json(`/api/authors/${bob}`, {
      method: 'PUT',
      body: { data: { articles: { set: [{ documentId: enFr, locale: 'fr' }] } } },
    });
    const body = await json(`/api/authors/${bob}?populate=articles`);
    expect(shown(body.data.articles)).toEqual(['Fr one [fr]']);
    expect(await authorOf(enFr, 'en')).toBeNull();
    expect(await authorOf(frOnly, 'fr')).toBeNull();
  });

  it('a status in a connect entry links that version only (author has no draft & publish)', async () => {
    await json(`/api/authors/${ann}`, {
      method: 'PUT',
      body: { data: { articles: { connect: [{ documentId: frOnly, locale: 'fr', status: 'draft' }] } } },
    });
    expect(await authorOf(frOnly, 'fr', 'draft')).toBe('Ann');
    expect(await authorOf(frOnly, 'fr')).toBeNull();
  });

  it('a connect entry naming a locale the target lacks is a 400', async () => {
    const r = await s.api(`/api/authors/${ann}`, {
      method: 'PUT',
      body: { data: { articles: { connect: [{ documentId: frOnly, locale: 'en' }] } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(`Document with id "${frOnly}", locale "en" not found`);
  });
});

/** Issue 24 §3: `$null` through a relation is a left join; `$null` values are cast as Strapi casts them. */
describe('filters: $null through relations and $null values', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const ann = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } })).body.data.documentId;
    const rows = [
      { title: 'With author', description: 'd', author: ann },
      { title: 'No author', description: null },
      { title: 'No description', author: ann },
    ];
    for (const data of rows) await s.api('/api/articles', { method: 'POST', body: { data } });
  });
  afterAll(async () => {
    await s.stop();
  });

  const titles = async (qs: string) => {
    const r = await s.api(`/api/articles?fields[0]=title&sort=title&${qs}`);
    expect(r.status, JSON.stringify(r.body?.error)).toBe(200);
    return r.body.data.map((a: { title: string }) => a.title);
  };

  it('filters[author][id][$null]=true matches the articles without an author', async () => {
    expect(await titles('filters[author][id][$null]=true')).toEqual(['No author']);
    expect(await titles('filters[author][name][$null]=true')).toEqual(['No author']);
    expect(await titles('filters[author][id][$notNull]=true')).toEqual(['No description', 'With author']);
    expect(await titles('filters[author][$null]=true')).toEqual(['No author']);
    // A comparison with the missing author is unknown, so negating it still leaves that article out.
    expect(await titles('filters[$not][author][name][$eq]=Ann')).toEqual([]);
  });

  it.each([
    ['maybe', ['No author', 'No description']],
    ['true', ['No author', 'No description']],
    ['t', ['No author', 'No description']],
    ['1', ['No author', 'No description']],
    ['TRUE', ['No author', 'No description']],
    ['FALSE', ['No author', 'No description']],
    ['false', ['With author']],
    ['f', ['With author']],
    ['0', ['With author']],
  ])('filters[description][$null]=%s is cast as Strapi casts it', async (value, expected) => {
    expect(await titles(`filters[description][$null]=${value}`)).toEqual(expected);
  });

  it('casts $notNull the same way', async () => {
    expect(await titles('filters[description][$notNull]=maybe')).toEqual(['With author']);
    expect(await titles('filters[description][$notNull]=0')).toEqual(['No author', 'No description']);
  });
});
