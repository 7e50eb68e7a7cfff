import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { articleTitles } from './helpers/titles.js';

/** The query language, table-driven over a small known data set (titles returned sorted by id). */
describe('filters, sort, pagination, fields and populate', () => {
  let s: TestServer;
  const data = [
    { title: 'Alpha', views: 10, rating: 4.5, featured: true, publishDate: '2024-01-15', description: 'first post' },
    { title: 'beta', views: 500, rating: 3.25, featured: false, publishDate: '2024-03-01', description: null },
    { title: 'Gamma ray', views: 0, rating: null, featured: false, publishDate: '2023-12-24', description: 'Science' },
    { title: 'Élan', views: 1200, rating: 5, featured: true, publishDate: '2024-06-30', description: 'ÉCOLE et café' },
    { title: 'delta', views: null, rating: 1.5, featured: false, publishDate: null, description: 'x_y%z' },
  ];
  beforeAll(async () => {
    s = await startTestServer();
    const author = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } })).body.data
      .documentId;
    for (const [i, d] of data.entries())
      await s.api('/api/articles', { method: 'POST', body: { data: { ...d, author: i % 2 ? author : null } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  const titles = articleTitles(() => s);

  const filtered: Array<[qs: string, titles: string[]]> = [
    ['filters[title][$eq]=beta', ['beta']],
    ['filters[title]=beta', ['beta']],
    ['filters[title][$eqi]=BETA', ['beta']],
    ['filters[title][$ne]=beta', ['Alpha', 'Gamma ray', 'Élan', 'delta']],
    ['filters[description][$ne]=Science', ['Alpha', 'Élan', 'delta']],
    ['filters[title][$nei]=ALPHA', ['beta', 'Gamma ray', 'Élan', 'delta']],
    ['filters[views][$lt]=500', ['Alpha', 'Gamma ray']],
    ['filters[views][$lte]=500', ['Alpha', 'beta', 'Gamma ray']],
    ['filters[views][$gt]=10', ['beta', 'Élan']],
    ['filters[views][$gte]=10', ['Alpha', 'beta', 'Élan']],
    ['filters[views][$gt]=9', ['Alpha', 'beta', 'Élan']],
    ['filters[views][$in][0]=0&filters[views][$in][1]=1200', ['Gamma ray', 'Élan']],
    ['filters[views][$in]=500', ['beta']],
    ['filters[views][$notIn][0]=0&filters[views][$notIn][1]=10', ['beta', 'Élan']],
    ['filters[title][$contains]=a', ['Alpha', 'beta', 'Gamma ray', 'Élan', 'delta']],
    ['filters[title][$contains]=A', ['Alpha']],
    ['filters[title][$containsi]=A', ['Alpha', 'beta', 'Gamma ray', 'Élan', 'delta']],
    ['filters[description][$containsi]=école', ['Élan']],
    ['filters[description][$contains]=_y%', ['delta']],
    ['filters[description][$notContains]=e', ['Alpha', 'delta']],
    ['filters[description][$notContainsi]=E', ['Alpha', 'delta']],
    ['filters[description][$notContains]=É', ['Alpha', 'Gamma ray', 'delta']],
    ['filters[title][$startsWith]=G', ['Gamma ray']],
    ['filters[title][$startsWithi]=g', ['Gamma ray']],
    ['filters[title][$endsWith]=a', ['Alpha', 'beta', 'delta']],
    ['filters[title][$endsWith]=A', []],
    ['filters[title][$endsWithi]=N', ['Élan']],
    ['filters[rating][$null]=true', ['Gamma ray']],
    ['filters[rating][$notNull]=true', ['Alpha', 'beta', 'Élan', 'delta']],
    ['filters[views][$between][0]=10&filters[views][$between][1]=500', ['Alpha', 'beta']],
    ['filters[publishDate][$between][0]=2024-01-01&filters[publishDate][$between][1]=2024-03-01', ['Alpha', 'beta']],
    ['filters[publishDate][$lt]=2024-01-01', ['Gamma ray']],
    ['filters[featured][$eq]=true', ['Alpha', 'Élan']],
    ['filters[featured]=0', ['beta', 'Gamma ray', 'delta']],
    ['filters[rating][$gt]=3.25', ['Alpha', 'Élan']],
    ['filters[title][$contains][0]=Al&filters[title][$contains][1]=del', ['Alpha', 'delta']],
    ['filters[views][$gt]=1&filters[views][$lt]=1000', ['Alpha', 'beta']],
    ['filters[$or][0][views][$eq]=0&filters[$or][1][title][$eq]=beta', ['beta', 'Gamma ray']],
    ['filters[$and][0][featured]=true&filters[$and][1][views][$gt]=100', ['Élan']],
    ['filters[$not][featured]=true', ['beta', 'Gamma ray', 'delta']],
    ['filters[views][$not][$gt]=10', ['Alpha', 'Gamma ray']],
    // SQL's three-valued logic at the root too: NOT of a comparison with a NULL column stays unknown.
    ['filters[$not][views][$gt]=10', ['Alpha', 'Gamma ray']],
    ['filters[$not][description][$eq]=Science', ['Alpha', 'Élan', 'delta']],
    ['filters[$not][$or][0][views][$eq]=0&filters[$not][$or][1][rating][$gt]=4', ['beta']],
    [
      'filters[$not][$and][0][views][$gt]=100&filters[$not][$and][1][featured]=true',
      ['Alpha', 'beta', 'Gamma ray', 'delta'],
    ],
    ['filters[$not][views][$in][0]=10&filters[$not][views][$in][1]=0', ['beta', 'Élan']],
    ['filters[$not][rating][$null]=true', ['Alpha', 'beta', 'Élan', 'delta']],
    ['filters[$not][publishDate][$eq]', ['Alpha', 'beta', 'Gamma ray', 'Élan']],
    ['filters[$not][$not][views][$gt]=100', ['beta', 'Élan']],
    [
      'filters[$or][0][$and][0][featured]=true&filters[$or][0][$and][1][views][$lt]=100&filters[$or][1][title]=delta',
      ['Alpha', 'delta'],
    ],
    ['filters[author][name][$eq]=Ada', ['beta', 'Élan']],
    ['filters[author][$null]=true', ['Alpha', 'Gamma ray', 'delta']],
    ['filters[createdAt][$gt]=2000-01-01T00:00:00.000Z&filters[title]=beta', ['beta']],
    ['filters[locale][$eq]=en&filters[title]=beta', ['beta']],
    // Null operands are IS NULL / IS NOT NULL; other comparisons never match a null value.
    ['filters[publishDate][$eq]', ['delta']],
    ['filters[publishDate][$ne]', ['Alpha', 'beta', 'Gamma ray', 'Élan']],
    ['filters[description][$eqi]', ['beta']],
    ['filters[description][$nei]', ['Alpha', 'Gamma ray', 'Élan', 'delta']],
    ['filters[description][$eqi]=science', ['Gamma ray']],
    ['filters[description][$nei]=SCIENCE', ['Alpha', 'Élan', 'delta']],
    // As SQL's LOWER(column) = LOWER(value): a number compares as its text.
    ['filters[views][$eqi]=10', ['Alpha']],
    ['filters[views][$nei]=10', ['beta', 'Gamma ray', 'Élan']],
    ['filters[rating][$lte]=3.25', ['beta', 'delta']],
    ['filters[rating][$gte]=4.5', ['Alpha', 'Élan']],
    ['filters[rating][$lt]=4.5', ['beta', 'delta']],
    ['filters[views][$lt]=10', ['Gamma ray']],
    ['filters[views][$between][0]=0&filters[views][$between][1]=10', ['Alpha', 'Gamma ray']],
    ['filters[description][$containsi]=E', ['Gamma ray', 'Élan']],
    ['filters[description][$startsWithi]=s', ['Gamma ray']],
    ['filters[description][$startsWithi]=CAF', []],
    ['filters[description][$endsWithi]=CAFÉ', ['Élan']],
    ['filters[description][$endsWithi]=S', []],
    ['filters[description][$startsWith]=S', ['Gamma ray']],
    ['filters[description][$startsWith]=c', []],
    ['filters[description][$endsWith]=z', ['delta']],
    ['filters[description][$notContains]=x', ['Alpha', 'Gamma ray', 'Élan']],
    ['filters[title][$lt]=b', ['Alpha', 'Gamma ray']],
    ['filters[title][$gt]=beta', ['Élan', 'delta']],
    ['filters[publishDate][$gte]=2024-03-01', ['beta', 'Élan']],
    ['filters[featured][$lt]=true', ['beta', 'Gamma ray', 'delta']],
    ['filters[views][$notIn]=500', ['Alpha', 'Gamma ray', 'Élan']],
    ['filters[views][$in][0]=10&filters[views][$in][1]', ['Alpha']],
  ];

  // Each condition also as the one branch of an `$or`: read by a scan of its values, not from a sorted index.
  const insideOr = (qs: string) => qs.replaceAll('filters[', 'filters[$or][0][');
  it.each(filtered.flatMap(([qs, expected]) => [[qs, expected] as const, [insideOr(qs), expected] as const]))(
    '%s',
    async (qs, expected) => {
      expect(await titles(qs)).toEqual(expected);
    },
  );

  it.each([
    ['sort=views', ['delta', 'Gamma ray', 'Alpha', 'beta', 'Élan']],
    ['sort=views:desc', ['Élan', 'beta', 'Alpha', 'Gamma ray', 'delta']],
    ['sort[0]=featured:desc&sort[1]=title', ['Alpha', 'Élan', 'Gamma ray', 'beta', 'delta']],
    ['sort=featured:desc,title:asc', ['Alpha', 'Élan', 'Gamma ray', 'beta', 'delta']],
    ['sort[0][rating]=asc', ['Gamma ray', 'delta', 'beta', 'Alpha', 'Élan']],
    ['sort=title', ['Alpha', 'Gamma ray', 'beta', 'delta', 'Élan']],
    ['sort=author.name:desc,title', ['beta', 'Élan', 'Alpha', 'Gamma ray', 'delta']],
  ])('%s', async (qs, expected) => {
    expect(await titles(qs)).toEqual(expected);
  });

  it.each([
    [
      'pagination[page]=2&pagination[pageSize]=2',
      ['Gamma ray', 'Élan'],
      { page: 2, pageSize: 2, pageCount: 3, total: 5 },
    ],
    ['pagination[start]=4&pagination[limit]=10', ['delta'], { start: 4, limit: 10, total: 5 }],
    ['pagination[pageSize]=2&pagination[withCount]=false', ['Alpha', 'beta'], { page: 1, pageSize: 2 }],
    ['pagination[page]=9&pagination[pageSize]=2', [], { page: 9, pageSize: 2, pageCount: 3, total: 5 }],
    [
      'pagination[pageSize]=1000',
      ['Alpha', 'beta', 'Gamma ray', 'Élan', 'delta'],
      { page: 1, pageSize: 100, pageCount: 1, total: 5 },
    ],
    ['pagination[limit]=-1', ['Alpha'], { start: 0, limit: 1, total: 5 }],
  ])('%s', async (qs, expected, meta) => {
    const res = await s.api(`/api/articles?${qs}`);
    expect(res.body.data.map((a: { title: string }) => a.title)).toEqual(expected);
    expect(res.body.meta.pagination).toEqual(meta);
  });

  it.each([
    ['filters[nope]=1', 'Invalid key nope'],
    ['filters[views][$foo]=1', 'Invalid key $foo at views'],
    ['filters[secretNote][$eq]=x', 'Invalid key secretNote'],
    ['filters[blocks][title]=x', 'Invalid key blocks'],
    ['filters[views][$gt]=abc', 'Invalid filters[views][$gt]: "abc" is not a number'],
    ['filters[views][$in]=', 'Invalid filters[views][$in]: "" is not a number'],
    ['filters[views][$between]=1', 'Invalid filters[views][$between]: expected exactly two values'],
    ['filters[$or][title]=x', 'Invalid filters[$or]: $or expects an array of filters'],
    ['filters=abc', 'The filters parameter must be an object or an array'],
    ['sort=title:sideways', 'Invalid order. order can only be one of asc|desc|ASC|DESC'],
    ['sort=nope', 'Invalid key nope'],
    ['fields=author', 'Invalid key author'],
    ['populate=title', 'Invalid key title'],
    ['populate[0]=*', 'Invalid key *'],
    ['pagination[page]=1&pagination[start]=0', 'Cannot use both page & offset pagination in the same query'],
    ['pagination[withCount]=maybe', 'Invalid withCount parameter. Expected "t","1","true","false","0","f"'],
    ['status=archived', "Invalid parameter at 'status'. Expected 'published' or 'draft', received: archived"],
    ['unknown=1', 'Invalid key unknown'],
  ])('refuses %s with a 400', async (qs, message) => {
    const res = await s.api(`/api/articles?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
  });

  it('returns only the asked fields plus id and documentId, and populates with nested options', async () => {
    const res = await s.api('/api/articles?fields[0]=title&populate[author][fields][0]=name&filters[title]=beta');
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      title: 'beta',
      author: { id: expect.any(Number), documentId: expect.any(String), name: 'Ada' },
    });
    const author = await s.api(
      '/api/authors?populate[articles][sort]=title:desc&populate[articles][fields][0]=title' +
        '&populate[articles][filters][views][$gt]=100',
    );
    expect(author.body.data[0].articles.map((a: { title: string }) => a.title)).toEqual(['Élan', 'beta']);
    const count = await s.api('/api/authors?populate[articles][count]=true');
    expect(count.body.data[0].articles).toEqual({ count: 2 });
  });

  it('on fragments pick components of a dynamic zone', async () => {
    const id = (
      await s.api('/api/articles', {
        method: 'POST',
        body: {
          data: {
            title: 'Zone',
            blocks: [
              { __component: 'shared.quote', title: 'q', body: 'b' },
              { __component: 'shared.rich-text', body: 'r' },
            ],
          },
        },
      })
    ).body.data.documentId;
    const res = await s.api(`/api/articles/${id}?populate[blocks][on][shared.quote][fields][0]=title`);
    expect(res.body.data.blocks).toEqual([{ title: 'q', __component: 'shared.quote' }]);
    const bad = await s.api(`/api/articles/${id}?populate[blocks]=*`);
    expect(bad.status).toBe(400);
  });

  it('searches with _q across text fields', async () => {
    expect(await titles('_q=science')).toEqual(['Gamma ray']);
  });
});
