import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * One read's work is bounded (populate depth, rows read and shaped, answer size): past a bound the answer is
 * a quick 400 and the server keeps answering others; the deep-ish populates real sites use still work.
 */
describe('bounds on the work of one read', () => {
  let s: TestServer;
  const ARTICLES = 16;
  beforeAll(async () => {
    s = await startTestServer();
    const author = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } })).body.data
      .documentId;
    const category = (await s.api('/api/categories', { method: 'POST', body: { data: { name: 'News' } } })).body.data
      .documentId;
    for (let i = 0; i < ARTICLES; i++)
      await s.api('/api/articles', {
        method: 'POST',
        body: {
          data: {
            title: `Article ${i}`,
            author,
            category,
            seo: { metaTitle: `Meta ${i}`, metaDescription: 'A description long enough for the SEO component.' },
          },
        },
      });
  });
  afterAll(async () => {
    await s.stop();
  });

  /** `author.articles.author.articles...`: `levels` populate levels below the article. */
  const chain = (levels: number) =>
    Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? 'author' : 'articles')).join('.');
  /** The same chain in the bracket form: populate[author][populate][articles][populate]... */
  const brackets = (levels: number) => {
    let out = 'populate';
    for (let i = 0; i < levels; i++)
      out += `[${i % 2 === 0 ? 'author' : 'articles'}]${i < levels - 1 ? '[populate]' : ''}`;
    return `${out}=true`;
  };
  it("answers the issue's 24-level anonymous populate with a 400 naming the bound", async () => {
    const r = await s.api(`/api/articles?pagination[pageSize]=1&populate=${chain(24)}`, { anonymous: true });
    expect(r.status).toBe(400);
    expect(r.body.error.name).toBe('ValidationError');
    expect(r.body.error.message).toMatch(
      /^Invalid populate parameter: 11 levels deep \(author\.articles\.author\.articles\.\.\.\), at most 10$/,
    );
    expect(r.body.error.details).toMatchObject({ limit: 'maxPopulateDepth', max: 10, param: 'populate' });
  });

  it('bounds the bracket form and populate=* below the deepest level the same way', async () => {
    // 10 levels in the bracket form are within the depth bound but make too large an answer; 12 are too deep.
    const deep = await s.api(`/api/articles?${brackets(10)}`);
    expect(deep.status, JSON.stringify(deep.body.error)).toBe(400);
    expect(deep.body.error.details).toEqual({ limit: 'maxResponseBytes', max: 16777216 });
    const deeper = await s.api(`/api/articles?${brackets(12)}`);
    expect(deeper.status).toBe(400);
    expect(deeper.body.error.message).toBe(
      'Invalid populate parameter: 11 levels deep (author.articles.author.articles...), at most 10',
    );
    let star = 'populate';
    for (let i = 0; i < 10; i++) star += `[${i % 2 === 0 ? 'author' : 'articles'}][populate]`;
    const starred = await s.api(`/api/articles?${star}=*`);
    expect(starred.status).toBe(400);
    expect(starred.body.error.message).toBe(
      'Invalid populate parameter: 11 levels deep (author.articles.author.articles...), at most 10',
    );
  });

  it('stops a populate within the depth bound whose answer is too large, and answers others meanwhile', async () => {
    // 10 levels over one author with 16 articles: 16^5 articles to shape, far over 16 MB.
    // How long they take is the bench's to measure; here, what they answer.
    const deep = s.api(`/api/articles?pagination[pageSize]=1&populate=${chain(10)}`, { anonymous: true });
    const other = s.api('/api/authors?fields[0]=name', { anonymous: true });
    const [d, o] = await Promise.all([deep, other]);
    expect(d.status).toBe(400);
    expect(d.body.error.message).toBe(
      "This request's answer is too large: more than 16777216 bytes. " +
        'Populate fewer levels, select fewer fields or ask for a smaller page.',
    );
    expect(d.body.error.details).toEqual({ limit: 'maxResponseBytes', max: 16777216 });
    expect(o.status).toBe(200);
    expect(o.body.data.map((a: { name: string }) => a.name)).toEqual(['Ada']);
    // Three such requests at once do not make the server unavailable.
    const burst = await Promise.all(
      [1, 2, 3].map(() => s.api(`/api/articles?pagination[pageSize]=1&populate=${chain(10)}`)),
    );
    expect(burst.map((x) => x.status)).toEqual([400, 400, 400]);
    const after = await s.api('/api/authors');
    expect(after.status).toBe(200);
  });

  it('bounds filters through deep relation paths by the rows they read', async () => {
    const hops = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? '[author]' : '[articles]')).join('');
    const r = await s.api(`/api/articles?filters${hops}[title][$eq]=none`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(
      'This request reads too much: more than 1000000 rows through populate, filters and sorts. ' +
        'Populate fewer levels or ask for a smaller page.',
    );
    expect(r.body.error.details).toEqual({ limit: 'maxRows', max: 1000000 });
  });

  it('bounds the depth of filter and sort paths as that of populate', async () => {
    const hops = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? '[author]' : '[articles]')).join('');
    const filtered = await s.api(`/api/articles?filters${hops}[title][$eq]=none`);
    expect(filtered.status).toBe(400);
    expect(filtered.body.error.message).toBe(
      'Invalid filters parameter: 11 levels deep (author.articles.author.articles...), at most 10',
    );
    const sorted = await s.api(`/api/articles?sort=${chain(24)}.name`);
    expect(sorted.status).toBe(400);
    expect(sorted.body.error.message).toBe(
      'Invalid sort parameter: 11 levels deep (author.articles.author.articles...), at most 10',
    );
    expect((await s.api(`/api/articles?sort=${chain(3)}.name&filters[author][articles][title]=x`)).status).toBe(200);
  });

  it('refuses a $in list over 100 values', async () => {
    const list = Array.from({ length: 150 }, (_, i) => `filters[id][$in][${i}]=${i}`).join('&');
    const r = await s.api(`/api/articles?${list}`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/at most 100 values/);
  });

  it('still answers the 3 to 5 level populates real sites use', async () => {
    const five = await s.api(`/api/articles?populate=${chain(5)}&pagination[pageSize]=2`);
    expect(five.status, JSON.stringify(five.body.error)).toBe(200);
    expect(five.body.data[0].author.articles).toHaveLength(ARTICLES);
    expect(five.body.data[0].author.articles[0].author.articles[0].author.name).toBe('Ada');
    const mixed = await s.api(
      '/api/articles?populate[author][populate][articles][populate][category][populate]=*' +
        '&populate[seo]=true&populate[category]=true',
    );
    expect(mixed.status, JSON.stringify(mixed.body.error)).toBe(200);
    expect(mixed.body.data).toHaveLength(ARTICLES);
    expect(mixed.body.data[0].author.articles[0].category.articles).toHaveLength(ARTICLES);
    expect(mixed.body.data[0].seo.metaTitle).toMatch(/^Meta /);
  });

  it('takes its bounds from folio.json', async () => {
    const small = await startTestServer({
      config: { read: { maxPopulateDepth: 4, maxRows: 50, maxResponseBytes: 4000 } },
    });
    try {
      const a = (await small.api('/api/authors', { method: 'POST', body: { data: { name: 'Bo' } } })).body.data
        .documentId;
      for (let i = 0; i < 6; i++)
        await small.api('/api/articles', {
          method: 'POST',
          body: { data: { title: `T${i}`, description: 'x'.repeat(250), author: a } },
        });
      const depth = await small.api('/api/articles?populate=author.articles.author.articles.author');
      expect(depth.body.error.message).toBe(
        'Invalid populate parameter: 5 levels deep (author.articles.author.articles...), at most 4',
      );
      expect((await small.api('/api/articles?populate=author.articles&pagination[pageSize]=1')).status).toBe(200);
      const big = await small.api('/api/articles?populate=author.articles');
      expect(big.status).toBe(400);
      expect(big.body.error.message).toBe(
        "This request's answer is too large: more than 4000 bytes. " +
          'Populate fewer levels, select fewer fields or ask for a smaller page.',
      );
      const narrow = await small.api(
        '/api/articles?fields[0]=title&populate[author][fields][0]=name' +
          '&populate[author][populate][articles][fields][0]=title&pagination[pageSize]=2',
      );
      expect(narrow.status, JSON.stringify(narrow.body.error)).toBe(200);
      const rows = await small.api('/api/articles?filters[author][articles][author][articles][title]=none');
      expect(rows.status).toBe(400);
      expect(rows.body.error.details).toEqual({ limit: 'maxRows', max: 50 });
      expect((await small.api('/api/articles?filters[author][articles][title]=T1')).body.data).toHaveLength(6);
    } finally {
      await small.stop();
    }
  });
});
