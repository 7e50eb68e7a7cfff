import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * sort.ts `documentSortGetters`: sort getters are shared per type and sort text only when
 * every key is a field of the document itself; a key through a relation checks the caller's access to the
 * related type on every read (and parts-memo.ts shares no filter through a relation). Nothing else pins that guard:
 * a caller who may not read authors must be refused a sort or filter through the author however often a caller who
 * may has asked the same.
 */
describe('a sort through a relation is checked for each caller', () => {
  let s: TestServer;
  const articlesOnly = { custom: ['api::article.article.find'] };

  beforeAll(async () => {
    s = await startTestServer();
    const author = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } })).body.data;
    await s.api('/api/articles', { method: 'POST', body: { data: { title: 'One', author: author.documentId } } });
  });
  afterAll(() => s.stop());

  it.each(['sort=author.name:asc', 'sort=author.name', 'filters[author][name][$eq]=Ada'])('%s', async (query) => {
    const path = `/api/articles?${query}`;
    const refused = await s.api(path, { as: articlesOnly });
    expect(refused.status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await s.api(path)).status).toBe(200);
    expect((await s.api(path, { as: articlesOnly })).status).toBe(400);
    expect((await s.api(`${path}&pagination[page]=1`, { as: articlesOnly })).status).toBe(400);
  });
});
