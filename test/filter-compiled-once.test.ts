import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { compileFilters } from '../src/query/filters.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { Reader } from '../src/query/reader.js';
import { documentScope } from '../src/query/scope.js';
import type { ReadContext } from '../src/query/context.js';
import { makeProject } from './helpers/project.js';
import { readBase, scanned } from './helpers/indexed-reads.js';

/**
 * A list query's filter on the type's own fields is compiled once, over the indexes' columns, when it is parsed
 * (src/query/plan.ts `columnParts`); the compile over versions waits for a row read without the indexes. Each
 * filter must still be refused with the very 400 the compile over versions gives, and answer the rows a plain
 * reading gives, on the first run of a prepared read and on the next, after a write.
 */
const VALID = [
  'filters[views][$gt]=3',
  'filters[views]=4&sort=title:asc',
  'filters[$or][0][views][$lt]=2&filters[$or][1][title][$eq]=Beta4',
  'filters[title][$containsi]=A&sort=views:desc',
  'filters[$not][views][$gt]=5',
  'filters[$and][0][views][$gte]=1&filters[$and][1][featured]=true',
  'filters[views][$between][0]=1&filters[views][$between][1]=4&sort=id:desc',
  'filters[views][$in][0]=1&filters[views][$in][1]=7',
  'filters[title][$null]=true',
  'filters[id][$lte]=5&filters[author][name][$eq]=Ada',
  'filters[author][id][$null]=true&sort=views:asc',
  'filters[$or][0][author][name]=Ada&filters[$or][1][views]=0',
  'filters[locale][$eq]=en&filters[publishedAt][$notNull]=true',
  'filters=',
  'filters',
];
const REFUSED = [
  'filters[views][$gt]=abc',
  'filters[nope][$eq]=1',
  'filters[views][$foo]=1',
  'filters[$or]=x',
  'filters[views][$between][0]=1',
  'filters[title][$eq][a]=1',
  'filters=x',
  'filters[views][$gt]=abc&filters[nope]=1',
  'filters[nope]=1&filters[views][$gt]=abc',
  'filters[views][$gt]=1&filters[featured]=maybe',
  'filters[author][name][$eq]=x&filters[views][$gt]=zz',
  'filters[$and][0][title]=x&filters[$and][1][views][$lt]=y',
];

describe('a filter compiled once over the columns', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    const ada = (await project.documents.create('authors', { name: 'Ada' })).documentId;
    for (let i = 0; i < 12; i++) {
      const data = { title: ['Beta', 'echo', 'Alpha'][i % 3] + i, views: (i * 5) % 9, featured: i % 2 === 0 };
      await project.documents.create('articles', { ...data, author: i % 4 ? ada : null });
    }
  });
  afterAll(() => made.cleanup());

  const prepare = (text: string) =>
    new Reader(project).prepare(project.schemas.find('articles')!, parseQueryString(text), 'find');
  const answerOf = (read: ReturnType<typeof prepare>) => {
    const body = read.find() as { data: Array<{ id: number }>; meta: { pagination: { total: number } } };
    return { total: body.meta.pagination.total, ids: body.data.map((d) => d.id) };
  };
  /** The 400 a compile of the filter over versions gives, as the parse made it before it checked over columns. */
  const refusal = (text: string) => {
    const ctx = { ...readBase(project), status: 'published' } as ReadContext;
    const ct = project.schemas.find('articles')!;
    return errorOf(() => compileFilters(documentScope(ctx, ct), parseQueryString(text).filters));
  };

  it.each(REFUSED)('%s is refused as the compile over versions refuses it', (text) => {
    const expected = refusal(text);
    expect(expected).toMatchObject({ status: 400 });
    expect(errorOf(() => prepare(text))).toEqual(expected);
  });

  it('answers as a plain reading, on the first run and on the next after a write', async () => {
    for (const text of VALID) {
      const read = prepare(text);
      expect(answerOf(read), text).toEqual(scanned(project, 'articles', text));
      expect(answerOf(read), text).toEqual(answerOf(read));
    }
    const reads = VALID.map((text) => prepare(text));
    for (const read of reads) answerOf(read);
    await project.documents.create('articles', { title: 'Alpha99', views: 2, featured: true });
    await project.documents.create('articles', { title: 'Beta98', views: 8, featured: false });
    VALID.forEach((text, i) => expect(answerOf(reads[i]), text).toEqual(scanned(project, 'articles', text)));
  });
});

function errorOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    const e = err as { status?: number; message: string; details?: unknown };
    return { status: e.status, message: e.message, details: e.details };
  }
  return undefined;
}
