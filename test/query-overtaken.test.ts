import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { type FoundPage, findPage } from '../src/query/find.js';
import { Reader } from '../src/query/reader.js';
import { prepared as preparedQuery } from './helpers/indexed-reads.js';
import { makeProject } from './helpers/project.js';

/**
 * A list query the server runs in slices (see findLater) pauses between them, and writes land in the pauses:
 * its answer must hold only versions that exist, and what it keeps for the next pages must be the files' state.
 * The query's work is stepped here by hand, with a write made at its first pause.
 */
describe('a query overtaken by a write while it pauses', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const ids: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (let i = 0; i < 300; i++) {
      const data = { title: `a-${String(i).padStart(3, '0')}`, views: i };
      ids.push((await project.documents.create('articles', data, { status: 'draft' })).documentId);
    }
  }, 60_000);
  afterAll(() => made.cleanup());

  const ct = () => project.schemas.find('articles')!;
  const prepared = (query: string) => preparedQuery(project, 'articles', query);
  /** Runs the query's work to its first pause, then `write`, then to its end. */
  async function pausedBy(query: string, write: () => Promise<unknown>): Promise<FoundPage> {
    const { query: q, context } = prepared(query);
    const work = findPage(context, ct(), q);
    expect(work.next().done).toBe(false);
    await write();
    for (;;) {
      const r = work.next();
      if (r.done) return r.value;
    }
  }
  const titles = (page: FoundPage) => page.page.map((v) => v?.data.title);
  const found = async (query: string) =>
    (await new Reader(project).prepare(ct(), parseQueryString(query), 'find').findLater()) as {
      data: Array<{ title: string }>;
      meta: { pagination: { total: number } };
    };

  it('answers from the indexes with the documents as they are once it ends', async () => {
    const query = 'status=draft&filters[views][$gte]=0&filters[title][$ne]=none&sort=title:asc&pagination[pageSize]=3';
    expect((await found(query)).data.map((d) => d.title)).toEqual(['a-000', 'a-001', 'a-002']);
    const page = await pausedBy(query, () => project.documents.delete('articles', ids[0], { locale: '*' }));
    expect(titles(page)).toEqual(['a-001', 'a-002', 'a-003']);
    expect(page.meta.total).toBe(299);
  });

  it('keeps no scan for the next pages that a write made in its pauses has overtaken', async () => {
    // `_q` is answered by reading every row, and the row list is kept for the next pages (see result-cache.ts).
    const query = 'status=draft&_q=a-1&sort=title:asc&pagination[pageSize]=2';
    await pausedBy(query, () => project.documents.update('articles', ids[100], { title: 'gone' }, { status: 'draft' }));
    const again = await found(query);
    expect(again.data.map((d) => d.title)).toEqual(['a-101', 'a-102']);
    expect(again.meta.pagination.total).toBe(99);
  });
});
