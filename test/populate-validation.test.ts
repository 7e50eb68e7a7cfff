import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG, form } from './helpers/media.js';

/**
 * `populate` checked as Strapi 5.54 checks it (`@strapi/utils`: its query validator, then its converter). Each
 * expected answer below is what Strapi's own code answers for the query on this model (the blog fixture):
 * message, the offending `key`, and `path`, the attribute path the key is under (null where Strapi places it
 * nowhere: a nested `fields`, `filters` or `sort` key), always with `param: "populate"`.
 */
const ZONE =
  'Invalid nested populate for article.blocks (api::article.article). Expected a fragment ("on") or "count" but found';
const REFUSED: Array<[query: string, message: string, key?: string, path?: string | null]> = [
  ['populate[author][populate][nope]=true', 'Invalid key nope at author', 'nope', 'author'],
  [
    'populate[author][populate][articles][populate][nope]=true',
    'Invalid key nope at author.articles',
    'nope',
    'author.articles',
  ],
  ['populate[author][nope]=1', 'Invalid key nope at author', 'nope', 'author'],
  ['populate[tags]=nope', 'Invalid key nope at tags', 'nope', 'tags'],
  ['populate[author][fields][0]=nope', 'Invalid key nope', 'nope', null],
  ['populate[author][fields][0]=articles', 'Invalid key articles', 'articles', 'articles'],
  ['populate[cover][fields][0]=folderPath', 'Invalid key folderPath', 'folderPath', 'folderPath'],
  ['populate[author][filters][nope]=1', 'Invalid key nope', 'nope', null],
  ['populate[author][sort]=nope', 'Invalid key nope', 'nope', null],
  ['populate[tags][limit]=1', 'Invalid key limit at tags', 'limit', 'tags'],
  ['populate[tags][start]=1', 'Invalid key start at tags', 'start', 'tags'],
  ['populate[tags][pagination][page]=1', 'Invalid key pagination at tags', 'pagination', 'tags'],
  ['populate[tags][pageSize]=2', 'Invalid key pageSize at tags', 'pageSize', 'tags'],
  ['populate[author][ordering]=desc', 'Invalid key ordering at author', 'ordering', 'author'],
  ['populate[tags][count]=nope', 'Invalid key count at tags', 'count', 'tags'],
  ['populate[author][populate]=nope', 'Invalid key nope', 'nope', 'nope'],
  ['populate[*]=true', 'Invalid key *', '*', null],
  ['populate[author][populate][*]=true', 'Invalid key * at author', '*', 'author'],
  ['populate[blocks][fields][0]=x', `${ZONE} {"fields":["x"]}`],
  ['populate[blocks]=*', `${ZONE} "*"`],
  ['populate[blocks][populate][x]=1', 'Invalid key populate at blocks', 'populate', 'blocks'],
  ['populate[blocks][on][nope.x]=true', 'Invalid key nope.x at blocks.on.nope.x', 'nope.x', 'blocks.on.nope.x'],
  ['populate[blocks][on][shared.media][populate][nope]=true', 'Invalid key nope at blocks', 'nope', 'blocks'],
  [
    'populate[seo][on][shared.seo]=true',
    'Using fragments is not permitted to populate "seo" in "api::article.article"',
  ],
  [
    'populate[author][on][api::tag.tag]=true',
    'Using fragments is not permitted to populate "author" in "api::article.article"',
  ],
  ['populate=author.nope', 'Invalid key nope at author.nope', 'nope', 'author.nope'],
  ['populate=blocks.nope', 'Invalid key nope at blocks.nope', 'nope', 'blocks.nope'],
  ['populate[createdBy]=true', 'Invalid key createdBy', 'createdBy', 'createdBy'],
  ['populate[0][author]=true', 'Invalid populate parameter. Expected a string, an array of strings, a populate object'],
  [
    'populate=*&populate[tags]=true',
    'Invalid populate parameter. Expected a string, an array of strings, a populate object',
  ],
];

describe('populate validation, as Strapi reports it', () => {
  let s: TestServer;
  let article = '';
  let file = 0;
  beforeAll(async () => {
    s = await startTestServer();
    const tag = (await s.api('/api/tags', { method: 'POST', body: { data: { name: 'git' } } })).body.data.documentId;
    const uploaded = await fetch(`${s.url}/api/upload`, {
      method: 'POST',
      headers: s.auth,
      body: form([{ name: 'red.png', type: 'image/png', data: RED_PNG }]),
    });
    file = ((await uploaded.json()) as Array<{ id: number }>)[0].id;
    const created = await s.api('/api/articles', {
      method: 'POST',
      body: {
        data: {
          title: 'Populated',
          tags: [tag],
          cover: file,
          seo: { metaTitle: 'Meta', metaDescription: 'Described' },
          links: [{ label: 'Home', url: 'https://example.com' }],
          blocks: [
            { __component: 'shared.quote', title: 'Q', body: 'Said' },
            { __component: 'shared.media', file },
          ],
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    article = created.body.data.documentId;
  });
  afterAll(() => s.stop());

  const one = (query: string) => s.api(`/api/articles/${article}?${query}`);

  it.each(REFUSED)('refuses %s', async (query, message, key, path) => {
    const res = await s.api(`/api/articles?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message });
    expect(res.body.error.details).toEqual(key === undefined ? {} : { key, path, source: 'query', param: 'populate' });
  });

  it('takes a populate list with numeric keys beside nested objects (numbered entries populate nothing)', async () => {
    const res = await one('populate[0]=author&populate[tags][fields][0]=name');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.tags).toEqual([{ id: expect.any(Number), documentId: expect.any(String), name: 'git' }]);
    expect(res.body.data).not.toHaveProperty('author');
  });

  it('takes fields given both as fields=a and fields[1]=b', async () => {
    const res = await one('fields=title&fields[1]=slug');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['documentId', 'id', 'slug', 'title']);
  });

  it('ignores populate[tags]=0 and =false, and populates with =1', async () => {
    for (const q of ['populate[tags]=0', 'populate[tags]=false', 'populate[tags]=f'])
      expect((await one(q)).body.data, q).not.toHaveProperty('tags');
    expect((await one('populate[tags]=1')).body.data.tags).toHaveLength(1);
  });

  it('ignores count on a component or a zone (the data comes back whole), counts a relation', async () => {
    const seo = await one('populate[seo][count]=true');
    expect(seo.body.data.seo).toEqual({ metaTitle: 'Meta', metaDescription: 'Described' });
    expect((await one('populate[links][count]=true')).body.data.links).toEqual([
      { label: 'Home', url: 'https://example.com' },
    ]);
    expect((await one('populate[blocks][count]=true')).body.data.blocks).toHaveLength(2);
    expect((await one('populate[tags][count]=true')).body.data.tags).toEqual({ count: 1 });
  });

  it('populates media asked with count whole, alternativeText: null kept', async () => {
    const res = await one('populate[cover][count]=true');
    expect(res.body.data.cover).toMatchObject({ id: file, alternativeText: null, mime: 'image/png' });
    expect(res.body.data.cover).toHaveProperty('alternativeText', null);
  });

  it('reads a dot path through a zone (blocks.file): the components that have the field populate it', async () => {
    const res = await one('populate=blocks.file');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.blocks[0]).toEqual({ __component: 'shared.quote', title: 'Q', body: 'Said' });
    expect(res.body.data.blocks[1].file).toMatchObject({ id: file, mime: 'image/png' });
  });

  it('selects a file object key of a populated media (formats, focalPoint)', async () => {
    const res = await one('populate[cover][fields][0]=formats');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data.cover).sort()).toEqual(['documentId', 'formats', 'id']);
  });

  it.each([
    ['filters[author][nope]=1', 'author', 'filters'],
    ['filters[author][articles][nope]=1', 'author.articles', 'filters'],
    ['filters[seo][nope]=1', 'seo', 'filters'],
    ['filters[cover][nope]=1', 'cover', 'filters'],
    ['sort=author.nope', 'author', 'sort'],
    ['populate[tags][filters][articles][nope]=1', 'articles', 'populate'],
  ])('places an unknown key of %s at the path leading to it, as Strapi does', async (query, path, param) => {
    const res = await s.api(`/api/articles?${query}`);
    expect(res.body.error).toMatchObject({ status: 400, message: `Invalid key nope at ${path}` });
    expect(res.body.error.details).toEqual({ key: 'nope', path, source: 'query', param });
  });
});
