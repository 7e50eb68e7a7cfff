import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { explained, fromIndexes, scanned } from './helpers/indexed-reads.js';

/**
 * Filters that join several conditions, answered from the query indexes: each row the answer lists once, in the
 * order asked, and only those that pass every condition (the first, the last, one in the middle), whichever
 * condition the rows are started from: a range, a text match, or the rows linked to matching targets (a row
 * linked to several of them included).
 */

const COUNT = 60;
const TAGS = ['news', 'tech', 'life', 'art'];
const WORDS = ['Node', 'deploy', 'Cache', 'layout'];

/** Article `i`: values that tie and nulls, most with two or three tags, a few with none. */
function article(i: number, tags: string[], authors: string[]) {
  return {
    title: `${WORDS[i % WORDS.length]} ${i % 7}`,
    views: i % 11 === 3 ? null : (i * 7) % 13,
    rating: i % 5 === 0 ? null : [1.5, 2, 3.25][i % 3],
    featured: i % 4 === 1 ? null : i % 2 === 0,
    author: i % 6 === 5 ? null : authors[i % authors.length],
    tags: i % 9 === 4 ? [] : [tags[i % 4], tags[(i + 1) % 4], ...(i % 3 ? [tags[(i + 2) % 4]] : [])],
  };
}

const CASES: Array<[name: string, filters: Record<string, unknown>]> = [
  ['a list relation whose rows link to several matches', { tags: { name: { $containsi: 'e' } } }],
  ['a list relation, one match', { tags: { name: 'art' } }],
  ['a list relation and a relation', { tags: { name: { $ne: 'news' } }, author: { name: { $in: ['Ada', 'Bob'] } } }],
  ['a list relation and a range', { tags: { name: { $in: ['tech', 'art'] } }, views: { $lte: 6 } }],
  ['a list relation and a narrow range', { tags: { name: { $startsWithi: 'l' } }, views: 4 }],
  ['a list relation and two tests', { tags: { name: { $containsi: 'e' } }, featured: true, rating: { $ne: 2 } }],
  ['a range and two tests', { views: { $gte: 3 }, featured: false, rating: 3.25 }],
  [
    'a narrow range and three tests',
    { views: { $between: [5, 8] }, featured: { $ne: false }, rating: { $gt: 1 }, title: { $ne: 'x' } },
  ],
  ['two ranges and a test', { views: { $between: [2, 9] }, rating: { $lt: 3 }, featured: true }],
  ['a text match and two tests', { title: { $containsi: 'o' }, views: { $ne: 0 }, featured: { $null: true } }],
  ['two text matches and a range', { title: { $startsWithi: 'n', $containsi: 'de' }, views: { $gt: 1 } }],
  ['a text match, a relation and a range', { title: { $endsWithi: '3' }, author: { name: 'Cy' }, views: { $lt: 12 } }],
  ['a range whose bounds cross', { views: { $gt: 8, $lt: 3 }, featured: true }],
];
const SORTS = [[], ['views:asc'], ['views:desc', 'title:asc'], ['rating:asc', 'id:desc'], ['title:desc']];
const ROWS = [{}, { status: 'draft' }, { locale: 'fr' }];
const PAGES = [
  { start: 0, limit: 100 },
  { page: 2, pageSize: 4 },
];

describe('list queries joining several conditions, from the query indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    const authors: string[] = [];
    for (const name of ['Ada', 'Bob', 'Cy'])
      authors.push((await project.documents.create('authors', { name })).documentId);
    const tags: string[] = [];
    for (const name of TAGS) tags.push((await project.documents.create('tags', { name })).documentId);
    for (let i = 0; i < COUNT; i++) {
      const { documentId } = await project.documents.create('articles', article(i, tags, authors), {
        locale: i % 5 === 2 ? 'fr' : 'en',
        status: i % 4 === 3 ? 'draft' : undefined,
      });
      // Some drafts differ from what is published, and link to other tags.
      if (i % 7 === 1) await project.documents.update('articles', documentId, article(i + 2, tags, authors), {});
    }
  }, 60_000);
  afterAll(() => made.cleanup());

  it.each(CASES)('%s', (_name, filters) => {
    for (const rows of ROWS)
      for (const sort of SORTS)
        for (const pagination of PAGES) {
          const query = { ...rows, filters, sort, pagination };
          expect(fromIndexes(project, 'articles', query), JSON.stringify(query)).toEqual(
            scanned(project, 'articles', query),
          );
        }
  });

  // A filter of one condition the indexes answer whole: its rows are read off a range, a set of texts or of links.
  const WHOLE: Array<[name: string, filters: Record<string, unknown>]> = [
    ['a range', { views: { $between: [2, 9] } }],
    ['a value', { rating: 2 }],
    ['a text match', { title: { $startsWithi: 'node' } }],
    ['a relation', { author: { name: 'Bob' } }],
    ['a list relation', { tags: { name: { $containsi: 'e' } } }],
  ];

  it.each(WHOLE)('answers %s without testing a row one by one', (_name, filters) => {
    for (const rows of ROWS) {
      const query = { ...rows, filters, pagination: { limit: 100 } };
      const run = explained(project, 'articles', query)!;
      expect(run.answer, JSON.stringify(query)).toEqual(scanned(project, 'articles', query));
      expect(run.answer!.total).toBeGreaterThan(0);
      expect(run.tested, JSON.stringify(query)).toBe(0);
    }
  });

  it('finds some documents and not all for each filter but one', () => {
    const all = scanned(project, 'articles', { status: 'draft', pagination: { limit: 100 } }).total;
    const totals = CASES.map(
      ([name, filters]) =>
        [name, scanned(project, 'articles', { filters, status: 'draft', pagination: { limit: 100 } }).total] as const,
    );
    expect(totals.filter(([, n]) => n === 0 || n === all).map(([name]) => name)).toEqual([
      'a range whose bounds cross',
    ]);
  });
});
