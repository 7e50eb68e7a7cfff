import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { explained, fromIndexes, scanned } from './helpers/indexed-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * The query indexes over a few thousand documents, where they read and sort in other ways than over a few
 * (matches read off the row set in id order, runs merged, texts in several chunks, sorts that walk the order
 * or sort the matches outright): each answer (which documents, their order, the total) equals a plain reading.
 */

const COUNT = 4400;
const WORDS = ['static', 'Node', 'queries', 'content', 'design', 'cache', 'layout', 'Deploy', 'schema', 'git'];
const TS = '2025-01-01T00:00:00.000Z';
const AUTHORS = ['Ada', 'Bob', 'Cy'];
const FAR = 80_000_000;

const documentId = (kind: string, i: number) => `${kind}${String(i).padStart(24 - kind.length, '0')}`;

/** Article `i`'s values: most views differ, some tie, a few are null; every other one is featured. */
function values(i: number) {
  return {
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i % 100}`,
    description: i % 9 === 0 ? null : `About ${WORDS[(i * 3) % WORDS.length]}.`,
    views: i % 50 === 0 ? null : (i * 7919) % 1001,
    rating: i % 4 === 0 ? null : (i % 5) + 0.5,
    featured: i % 2 === 0,
    author: i % 7 === 0 ? null : documentId('author', i % AUTHORS.length),
  };
}

/** Writes the documents straight in Folio's file format, as a checkout would bring them. */
function writeDocuments(contentDir: string) {
  const dir = (plural: string) => {
    const d = join(contentDir, 'documents', plural);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const authors = dir('authors');
  AUTHORS.forEach((name, i) => {
    const doc = {
      documentId: documentId('author', i),
      published: {
        id: i + 1,
        name,
        email: null,
        avatar: null,
        bio: null,
        createdAt: TS,
        updatedAt: TS,
        publishedAt: TS,
      },
    };
    writeFileSync(join(authors, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  });
  const articles = dir('articles');
  for (let i = 0; i < COUNT; i++) {
    // The last document's ids are far past the others (as a merge of two branches can leave them).
    const base = i === COUNT - 1 ? FAR : 0;
    const version = (id: number, published: boolean) =>
      articleVersion(id, { ...values(i), slug: `article-${i}` }, TS, published);
    // Every third document is a draft never published.
    const slot =
      i % 3 === 0
        ? { draft: version(base + 2 * i + 1, false) }
        : { draft: version(base + 2 * i + 1, false), published: version(base + 2 * i + 2, true) };
    const doc = { documentId: documentId('article', i), locales: { en: slot } };
    writeFileSync(join(articles, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  }
}

const CASES: Array<[name: string, filters: unknown]> = [
  ['no filter', undefined],
  ['a range holding most rows', { views: { $gte: 2 } }],
  ['a range holding a few', { views: { $between: [100, 130] } }],
  ['one value', { views: 500 }],
  ['a range and a test', { views: { $gte: 2 }, featured: true }],
  ['a text match across chunks', { title: { $containsi: 'node' } }],
  ['a rare text match', { title: { $endsWithi: 'deploy 7' } }],
  ['a text match and a range', { title: { $startsWithi: 'cache' }, views: { $lt: 900 } }],
  ['through a relation', { author: { name: 'Ada' } }],
  ['through a relation, two targets', { author: { name: { $ne: 'Cy' } } }],
  ['through a relation and a range', { author: { name: 'Bob' }, views: { $lte: 300 } }],
  ['$or', { $or: [{ views: { $lt: 10 } }, { featured: false }] }],
];
const SORTS = [
  [],
  ['views:asc'],
  ['views:desc'],
  ['title:asc', 'id:desc'],
  ['featured:desc', 'views:asc'],
  ['rating:asc'],
];
const ROWS = [{}, { status: 'draft' }];
const PAGES = [
  { page: 1, pageSize: 10 },
  { start: 2995, limit: 10 },
  { start: 4090, limit: 20 },
];

describe('list queries over a few thousand documents, from the query indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    writeDocuments(made.contentDir);
    project = await openProject(made.dir);
  }, 120_000);
  afterAll(() => made.cleanup());

  const check = (filters: unknown) => {
    for (const rows of ROWS)
      for (const sort of SORTS)
        for (const pagination of PAGES) {
          const query = { ...rows, filters, sort, pagination };
          expect(fromIndexes(project, 'articles', query), JSON.stringify(query)).toEqual(
            scanned(project, 'articles', query),
          );
        }
  };

  it('reads every document written', () => {
    expect(scanned(project, 'articles', { status: 'draft' }).total).toBe(COUNT);
    expect(scanned(project, 'articles', {}).total).toBe(COUNT - Math.ceil(COUNT / 3));
    expect(scanned(project, 'articles', { filters: { id: { $gt: FAR } } }).total).toBe(1);
  });

  it.each(CASES)('%s', (_name, filters) => check(filters));

  // A condition, and the narrowest of its parts: the rows the query starts from, the only ones it may test.
  const NARROWEST: Array<[filters: Record<string, unknown>, narrowest: Record<string, unknown>]> = [
    [{ views: 500, featured: true }, { views: 500 }],
    [{ views: { $gte: 2 }, rating: 1.5 }, { rating: 1.5 }],
    [{ rating: { $gt: 1 }, views: { $between: [100, 130] } }, { views: { $between: [100, 130] } }],
    [{ views: { $gte: 2 }, title: { $endsWithi: 'deploy 7' } }, { title: { $endsWithi: 'deploy 7' } }],
    [{ title: { $containsi: 'node' }, views: 500 }, { views: 500 }],
    [{ author: { name: 'Ada' }, views: 500 }, { views: 500 }],
    [{ author: { name: 'Ada' }, title: { $endsWithi: 'deploy 7' } }, { title: { $endsWithi: 'deploy 7' } }],
  ];

  it.each(NARROWEST)('starts from the narrowest condition: %j', (filters, narrowest) => {
    for (const status of ['published', 'draft']) {
      const query = { status, filters, pagination: { limit: 100 } };
      const run = explained(project, 'articles', query)!;
      expect(run.answer).toEqual(scanned(project, 'articles', query));
      const few = scanned(project, 'articles', { status, filters: narrowest }).total;
      expect(few).toBeLessThan(COUNT / 5);
      expect(run.tested).toBeLessThanOrEqual(few);
    }
  });

  it('answers as a plain reading after writes to documents the indexes hold', async () => {
    for (const [, filters] of CASES) check(filters);
    const ids = (i: number) => documentId('article', i);
    for (let i = 1; i < 60; i += 3) {
      const changed = values(i + 1000);
      await project.documents.update('articles', ids(i), changed, { status: 'draft' });
      if (i % 2) await project.documents.publish('articles', ids(i), {});
    }
    for (let i = 2; i < 40; i += 6) await project.documents.delete('articles', ids(i), { locale: '*' });
    for (let i = 0; i < 12; i++) await project.documents.create('articles', values(i * 13 + 5));
    for (const [, filters] of CASES) check(filters);
  }, 120_000);
});
