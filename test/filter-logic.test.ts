import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { articleTitles } from './helpers/titles.js';

/**
 * The filter language on values of every kind, as a client sees it in the list it gets back: operands cast to the
 * attribute's kind (numbers, big integers, timestamps, dates, booleans), SQL's three-valued logic where values are
 * null (a missing value is neither equal nor unequal), conditions grouped on one field, relations and components
 * joined as SQL joins them, and the 400 each malformed filter gets. Each list is asked twice: as written, and as the
 * one branch of an `$or`, so both the indexes (a sorted range, per-field tests) and the scan over values answer it.
 */
describe('filters over values of every kind', () => {
  let s: TestServer;
  const docs = [
    {
      title: 'one',
      views: 5,
      featured: true,
      big: '90071992547409931',
      stamp: 1000,
      at: '2024-01-01T10:00:00.000Z',
      publishDate: '2024-01-01',
      description: 'Alpha',
      links: [{ label: 'home', url: '/' }],
    },
    { title: 'two', views: null, featured: true, big: '-3', stamp: -5000, at: null, publishDate: null },
    {
      title: 'three',
      views: 20,
      featured: null,
      big: '7',
      stamp: '2024-01-01T00:00:00.000Z',
      at: '2023-06-01T00:00:00.000Z',
      publishDate: '2023-06-01',
      description: 'beta',
      links: [
        { label: 'docs', url: null },
        { label: null, url: '/docs' },
      ],
    },
    { title: 'four', views: 0, featured: false, big: null, stamp: null, at: null, publishDate: null },
  ];
  beforeAll(async () => {
    const project = makeProject();
    addAttributes(project.contentDir, 'article', {
      big: { type: 'biginteger' },
      stamp: { type: 'timestamp' },
      at: { type: 'datetime' },
    });
    s = await startTestServer({ dir: project.dir });
    const tag = async (name: string) =>
      (await s.api('/api/tags', { method: 'POST', body: { data: { name } } })).body.data.documentId as string;
    const [red, blue] = [await tag('red'), await tag('blue')];
    const tags: Record<string, string[]> = { one: [red], two: [red, blue], three: [] };
    for (const d of docs) {
      const res = await s.api('/api/articles', { method: 'POST', body: { data: { ...d, tags: tags[d.title] ?? [] } } });
      expect(res.status, JSON.stringify(res.body?.error)).toBe(201);
    }
  });
  afterAll(async () => {
    await s.stop();
  });

  const titles = articleTitles(() => s);

  const rows: Array<[qs: string, titles: string[]]> = [
    // A list of conditions is their AND.
    ['filters[0][featured]=true&filters[1][views][$gt]=1', ['one']],
    ['filters[$and][0][0][featured]=true&filters[$and][0][1][views][$gt]=1', ['one']],
    // AND and OR with an unknown part: NULL AND TRUE is unknown, NULL OR FALSE too; only TRUE matches.
    ['filters[views][$gt]=1&filters[featured]=true', ['one']],
    ['filters[$not][$or][0][views][$gt]=10&filters[$not][$or][1][featured]=false', ['one']],
    ['filters[$not][$and][0][views][$lt]=10&filters[$not][$and][1][featured]=true', ['three', 'four']],
    ['filters[$or][0][views][$gt]=10&filters[$or][1][featured]=false', ['three', 'four']],
    ['filters[$not][views][$null]=true', ['one', 'three', 'four']],
    // Conditions grouped on one field.
    ['filters[views][$or][0][$lt]=1&filters[views][$or][1][$gt]=10', ['three', 'four']],
    ['filters[views][$and][0][$gt]=1&filters[views][$and][1][$lt]=10', ['one']],
    ['filters[views][$not][$or][0][$lt]=1&filters[views][$not][$or][1][$gt]=10', ['one']],
    ['filters[views][$not][$eq]', ['one', 'three', 'four']],
    ['filters[views][0]=5&filters[views][1]=20', ['one', 'three']],
    ['filters[views][$eq][0]=5&filters[views][$eq][1]=0', ['one', 'four']],
    ['filters[views][$ne][0]=5&filters[views][$ne][1]=0', ['one', 'three', 'four']],
    // Booleans as Strapi casts them.
    ['filters[featured]=t', ['one', 'two']],
    ['filters[featured]=1', ['one', 'two']],
    ['filters[featured][$eq]=f', ['four']],
    ['filters[featured][$eq]=FALSE', ['four']],
    ['filters[featured][$null]=1', ['three']],
    ['filters[featured][$notNull]=f', ['three']],
    ['filters[featured][$null]=0', ['one', 'two', 'four']],
    // Big integers compare as numbers, not as text.
    ['filters[big][$gt]=8', ['one']],
    ['filters[big][$lt]=8', ['two', 'three']],
    ['filters[big][$in][0]=7&filters[big][$in][1]=-3', ['two', 'three']],
    // Timestamps: a number is milliseconds (fractions and signs included), anything else a date.
    ['filters[stamp][$lt]=1000.5', ['one', 'two']],
    ['filters[stamp][$gt]=999.5', ['one', 'three']],
    ['filters[stamp][$lt]=-1000', ['two']],
    ['filters[stamp][$gte]=2024-01-01', ['three']],
    ['filters[stamp][$gte]=2024-01-01T00:00:00.000Z', ['three']],
    ['filters[stamp][$eq]=1000', ['one']],
    // Date-times compare as instants, whatever the zone written; dates by their day.
    ['filters[at][$gt]=2024-01-01T11:00:00%2B02:00', ['one']],
    ['filters[at][$lt]=2023-12-31', ['three']],
    ['filters[publishDate][$eq]=2024-01-01T23:59:00Z', ['one']],
    ['filters[publishDate][$lt]=2024-01-01', ['three']],
    // Text operators read a number as its digits.
    ['filters[views][$contains]=2', ['three']],
    ['filters[views][$startsWith]=0', ['four']],
    // Components and relations are joined: a document without any is tested against one row of nulls.
    ['filters[links][label][$eq]=home', ['one']],
    ['filters[links][url][$null]=true', ['two', 'three', 'four']],
    ['filters[tags][name][$eq]=blue', ['two']],
    ['filters[tags][name][$null]=true', ['three', 'four']],
    ['filters[tags][$null]=false', ['one', 'two']],
    ['filters[tags][$notNull]=true', ['one', 'two']],
    ['filters[tags][$notNull]=false', ['three', 'four']],
    ['filters[tags][id][$null]=true', ['three', 'four']],
    ['filters[$not][tags][id][$gt]=0', []],
    ['filters[$not][tags][name][$in][0]=red&filters[$not][tags][name][$in][1]=blue', []],
  ];
  const insideOr = (qs: string) => qs.replaceAll('filters[', 'filters[$or][0][');

  it.each(rows.flatMap(([qs, expected]) => [[qs, expected] as const, [insideOr(qs), expected] as const]))(
    '%s',
    async (qs, expected) => {
      expect(await titles(qs)).toEqual(expected);
    },
  );

  it.each(['filters', 'filters='])('%s filters nothing', async (qs) => {
    expect(await titles(qs)).toEqual(['one', 'two', 'three', 'four']);
  });

  it.each([
    ['filters[$foo]=1', 'Invalid key $foo'],
    ['filters[tags][$foo][name]=1', 'Invalid key $foo at tags'],
    ['filters[$and][0]=x', 'Invalid filter at filters: expected an object'],
    ['filters[tags][$and][0]=x', 'Invalid filter at tags: expected an object'],
    ['filters[$and]=x', 'Invalid filters[$and]: $and expects an array of filters'],
    ['filters[tags][$or]=x', 'Invalid filters[tags][$or]: $or expects an array of filters'],
    ['filters[views][$or]=1', 'Invalid filters[views][$or]: $or expects an array'],
    ['filters[views][$and][a]=1', 'Invalid filters[views][$and]: $and expects an array'],
    ['filters[views][$in][a]=1', 'Invalid filters[views][$in]: expected an array of at most 100 values'],
    ['filters[views][$between][0]=1', 'Invalid filters[views][$between]: expected exactly two values'],
    ['filters[views][$eq][a]=1', 'Invalid filters[views][$eq]: expected a value'],
    ['filters[views][$eq][0][a]=1', 'Invalid filters[views][$eq]: expected a value'],
    ['filters[title][$contains]', 'Invalid filters[title][$contains]: expected a text value'],
    ['filters[views][$gt]=%20', 'Invalid filters[views][$gt]: " " is not a number'],
    ['filters[big][$gt]=1e400', 'Invalid filters[big][$gt]: "1e400" is not a number'],
    ['filters[stamp][$gt]=soon', 'Invalid filters[stamp][$gt]: "soon" is not a number'],
    ['filters[featured]=maybe', 'Invalid filters[featured][$eq]: "maybe" is not a boolean'],
    ['filters[at][$gt]=soon', 'Invalid filters[at][$gt]: "soon" is not a date'],
    ['filters[publishDate][$gt]=2024', 'Invalid filters[publishDate][$gt]: "2024" is not a date (yyyy-MM-dd)'],
    [
      'filters[publishDate][$gt]=on 2024-01-01',
      'Invalid filters[publishDate][$gt]: "on 2024-01-01" is not a date (yyyy-MM-dd)',
    ],
    ['filters[tags][name][$gt][a]=1', 'Invalid filters[tags][name][$gt]: expected a value'],
  ])('refuses %s with a 400', async (qs, message) => {
    const res = await s.api(`/api/articles?${qs}`);
    expect([res.status, res.body.error.message]).toEqual([400, message]);
  });
});
