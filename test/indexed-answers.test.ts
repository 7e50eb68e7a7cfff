import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { addAttributes, makeProject } from './helpers/project.js';
import { type Answer, fromIndexes, scanned } from './helpers/indexed-reads.js';

/**
 * The query indexes answer a list query (which documents, in which order, how many in all) exactly as a plain
 * reading of every document does: a table of filters, each read with every sort, row set and page below.
 * A filter the planner must leave to the scan says so; every other one must be answered from the indexes.
 */

const TITLES = ['Alpha', 'alpha', 'Beta ray', 'beta', 'Gamma', 'Élan', 'delta', 'Zeta', 'beta'];
// One holds the character the folded texts put between rows: its rows are then searched one by one.
const DESCRIPTIONS = [null, 'first post', 'ÉCOLE et café', 'x_y%z', 'alpha beta', 'a\u0000b post'];
const RATINGS = [1.5, 2, 3.25, 5];
const DATES = ['2024-01-15', '2024-03-01', '2023-12-24', '2024-03-01'];
const COUNT = 40;

/** Article `i`: values that tie, nulls, two locales, drafts never published. */
function article(i: number) {
  return {
    title: TITLES[i % TITLES.length],
    description: DESCRIPTIONS[i % DESCRIPTIONS.length],
    views: i % 7 === 3 ? null : (i * 7) % 11,
    rating: i % 5 === 0 ? null : RATINGS[i % 4],
    featured: i % 3 === 0 ? null : i % 2 === 0,
    publishDate: i % 6 === 1 ? null : DATES[i % 4],
  };
}

/** A filter, or its query string (for what an object cannot say, a key without a value). */
type Filter = Record<string, unknown> | unknown[] | string;
/**
 * A filter, and whether the indexes answer it (else the planner must leave it to the scan); through a relation
 * to a localized type, only a read of one locale is.
 */
type Case = [name: string, filters: Filter | undefined, indexed?: boolean | 'one locale'];

const CASES: Case[] = [
  ['no filter', undefined],
  ['a bare value', { views: 4 }],
  ['$eq', { views: { $eq: 4 } }],
  ['$gt', { views: { $gt: 4 } }],
  ['$gte', { views: { $gte: 4 } }],
  ['$lt', { views: { $lt: 4 } }],
  ['$lte', { views: { $lte: 4 } }],
  ['$between', { views: { $between: [2, 6] } }],
  ['$between reversed', { views: { $between: [6, 2] } }],
  ['$gt and $lte', { views: { $gt: 2, $lte: 8 } }],
  ['$gte and $lt on text', { title: { $gte: 'Beta', $lt: 'beta' } }],
  ['a range of one value', { views: { $gte: 7, $lte: 7 } }],
  ['a range at the top of the order', { views: { $gte: 10 } }],
  ['a range past every value', { views: { $gte: 99 } }],
  ['a range below every value', { views: { $lt: -1 } }],
  ['a range of decimals', { rating: { $gte: 2 } }],
  ['a decimal value', { rating: 3.25 }],
  ['a boolean value', { featured: true }],
  ['a false boolean', { featured: { $eq: false } }],
  ['a date range', { publishDate: { $lt: '2024-02-01' } }],
  ['a date $between', { publishDate: { $between: ['2024-01-01', '2024-03-01'] } }],
  ['a text value', { title: 'beta' }],
  ['a text range', { title: { $gte: 'beta' } }],
  ['a text $lte', { title: { $lte: 'Gamma' } }],
  ['the id', { id: { $lte: 20 } }],
  ['a range and another range', { views: { $gte: 1 }, rating: { $lt: 3 } }],
  ['two ranges on one field', { $and: [{ views: { $gt: 1 } }, { views: { $lt: 8 } }] }],
  ['a range and a text match', { views: { $gt: 2 }, title: { $containsi: 'a' } }],
  ['a narrow range and a wide text match', { views: 5, title: { $containsi: 'a' } }],
  ['a boolean and a range', { featured: true, views: { $lt: 5 } }],
  ['$containsi', { title: { $containsi: 'al' } }],
  ['$startsWithi', { title: { $startsWithi: 'BE' } }],
  ['$endsWithi', { title: { $endsWithi: 'A' } }],
  ['$containsi, folded', { description: { $containsi: 'école' } }],
  ['$containsi over nulls', { description: { $containsi: 'a' } }],
  ['$endsWithi of a row followed by another', { description: { $endsWithi: 'st' } }],
  ['$containsi of nothing', { title: { $containsi: '' } }],
  ['$containsi across two rows', { title: { $containsi: 'a\u0000b' } }],
  ['$containsi across two rows, in a text that holds it', { description: { $containsi: 'a\u0000b' } }],
  ['$startsWithi in a text that holds the separator', { description: { $startsWithi: 'a' } }],
  ['$endsWithi in a text that holds the separator', { description: { $endsWithi: 'post' } }],
  ['$containsi that matches nothing', { title: { $containsi: 'qq' } }],
  ['$containsi with another operator', { title: { $containsi: 'a', $ne: 'alpha' } }],
  ['two text matches', { title: { $containsi: 'a' }, description: { $startsWithi: 'x' } }],
  ['$contains', { title: { $contains: 'A' } }],
  ['$in', { views: { $in: [1, 4] } }],
  ['$notIn', { views: { $notIn: [1] } }],
  ['$null', { rating: { $null: true } }],
  ['$notNull', { rating: { $notNull: true } }],
  ['$ne', { title: { $ne: 'beta' } }],
  ['$eqi', { title: { $eqi: 'alpha' } }],
  ['$or', { $or: [{ views: 1 }, { title: 'beta' }] }],
  ['$not', { $not: { views: { $gt: 3 } } }],
  ['a list of conditions', [{ views: { $gt: 1 } }, { title: { $containsi: 'a' } }]],
  ['a condition without a value', 'filters[title]&filters[views][$gt]=2'],
  ['filters without a value', 'filters'],
  ['empty filters', 'filters='],
  ['a list of one empty filter', 'filters[0]='],
  ['$between one value', 'filters[views][$between]=5'],
  ['$between a list of one', 'filters[views][$between][0]=5'],
  [
    '$between a list of three',
    'filters[views][$between][0]=1&filters[views][$between][1]=5&filters[views][$between][2]=9',
  ],
  ['$between an object', 'filters[views][$between][0][a]=1&filters[views][$between][1]=5'],
  ['the related id', 'filters[author]=1', false],
  ['through a relation', { author: { name: 'Ada' } }],
  ['through a relation, folded', { author: { name: { $containsi: 'a' } } }],
  ['through a list relation', { tags: { name: 'news' } }],
  ['through a relation and a range', { author: { name: 'Ada' }, views: { $gt: 2 } }],
  ['through a relation and a text match', { author: { name: { $ne: 'Bob' } }, title: { $containsi: 'a' } }],
  ['through two relations', { author: { name: 'Bob' }, tags: { name: { $containsi: 'e' } } }],
  ['through a relation, negated', { author: { $not: { name: 'Ada' } } }],
  ['through a relation to a localized type', { related: { title: { $containsi: 'a' } } }, 'one locale'],
  ['through a relation to a localized type, a range', { related: { views: { $gt: 4 } } }, 'one locale'],
  ['through a relation matching nothing', { author: { name: 'Nobody' } }],
  ['the related ids', { author: { $null: true } }, false],
  ['through a relation, matching no relation', { author: { name: { $null: true } } }, false],
  ['a relation inside $or', { $or: [{ author: { name: 'Ada' } }, { views: 1 }] }, false],
  ['a relation not owned', { category: { articles: { title: 'x' } } }, false],
  ['a component', { seo: { metaTitle: 'x' } }, false],
];

const SORTS: string[][] = [
  [],
  ['views:asc'],
  ['views:desc'],
  ['title:asc', 'views:desc'],
  ['featured:desc', 'title:asc'],
  ['rating:asc', 'id:desc'],
  ['publishDate:desc'],
  ['description:asc'],
  ['title:desc'],
];
const ROWS = [{}, { locale: '*' }, { status: 'draft' }, { locale: 'fr' }];
const PAGES = [
  { page: 1, pageSize: 5 },
  { start: 3, limit: 4 },
  { page: 3, pageSize: 7 },
  { start: 0, limit: 100 },
];

describe('list queries answered from the query indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    // A relation to a localized type: its targets are read in the locale read.
    addAttributes(made.contentDir, 'article', {
      related: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' },
    });
    project = await openProject(made.dir);
    const authors: string[] = [];
    for (const name of ['Ada', 'Bob', 'Cy'])
      authors.push((await project.documents.create('authors', { name })).documentId);
    const tags: string[] = [];
    for (const name of ['news', 'tech', 'life'])
      tags.push((await project.documents.create('tags', { name })).documentId);
    const articles: string[] = [];
    const inLocale: Record<string, string[]> = { en: [], fr: [] };
    for (let i = 0; i < COUNT; i++) {
      const locale = i % 4 === 2 ? 'fr' : 'en';
      const others = inLocale[locale];
      const data = {
        ...article(i),
        author: i % 4 === 3 ? null : authors[i % 3],
        tags: i % 5 === 2 ? [] : [tags[i % 3], tags[(i + 1) % 3]],
        // Another document of the same locale.
        related: i % 6 === 5 || !others.length ? null : others[(i * 5) % others.length],
      };
      const { documentId } = await project.documents.create('articles', data, {
        locale,
        status: i % 5 === 4 ? 'draft' : undefined,
      });
      articles.push(documentId);
      others.push(documentId);
    }
    // Some documents in both locales, with other values in French.
    for (let i = 0; i < COUNT; i += 6)
      await project.documents.update('articles', articles[i], article(i + 3), { locale: i % 4 === 2 ? 'en' : 'fr' });
  }, 60_000);
  afterAll(() => made.cleanup());

  const answer = (run: () => Answer | undefined): Answer | string | undefined => {
    try {
      return run();
    } catch (err) {
      return (err as Error).message;
    }
  };

  it.each(CASES)('%s', (_name, filters, indexed = true) => {
    let checked = 0;
    for (const rows of ROWS)
      for (const sort of SORTS)
        for (const pagination of PAGES) {
          const query =
            typeof filters === 'string'
              ? `${qs.stringify({ ...rows, sort, pagination })}&${filters}`
              : { ...rows, filters, sort, pagination };
          const said = JSON.stringify(query);
          const fromIndex = answer(() => fromIndexes(project, 'articles', query));
          if (!indexed || (indexed === 'one locale' && rows.locale === '*')) {
            expect(fromIndex, said).toBeUndefined();
            continue;
          }
          expect(fromIndex, said).toEqual(answer(() => scanned(project, 'articles', query)));
          checked++;
        }
    const rowSets = indexed === 'one locale' ? ROWS.length - 1 : indexed ? ROWS.length : 0;
    expect(checked).toBe(rowSets * SORTS.length * PAGES.length);
  });

  it('finds some documents and not all for each filter, but those meant to find none or all', () => {
    const read = (filters: unknown) =>
      scanned(project, 'articles', { filters, locale: '*', status: 'draft', pagination: { limit: 100 } }).total;
    const all = read(undefined);
    const cases = CASES.filter(([, filters, indexed = true]) => indexed && filters && typeof filters !== 'string');
    const uninformative = cases.filter(([, filters]) => read(filters) === 0 || read(filters) === all);
    expect(uninformative.map(([name]) => name)).toEqual([
      '$between reversed',
      'a range past every value',
      'a range below every value',
      '$containsi of nothing',
      '$containsi across two rows',
      '$containsi that matches nothing',
      'through a relation matching nothing',
    ]);
  });
});
