import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { ROWS_PER_PAUSE } from '../src/documents/sliced-work.js';
import { makeProject } from './helpers/project.js';
import { scanned } from './helpers/indexed-reads.js';
import { counted, type Work } from './helpers/counted-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * What an indexed list query costs, counted rather than timed: a query must not test, look up, sort or gather
 * more rows than the way it is answered needs, nor hold the event loop while it gathers thousands of rows. Over
 * 4,400 drafts whose `views` are every number from 0 to 4,399 once (so a range holds exactly the rows asked for),
 * 50 of them with a title ending "zeta" and the two first of 2,100 tags (those with views under 50), and all but
 * every fiftieth by one author.
 */

const COUNT = 4400;
const TS = '2025-01-01T00:00:00.000Z';
const id24 = (kind: string, i: number) => `${kind}${String(i).padStart(24 - kind.length, '0')}`;
const viewsOf = (i: number) => (i * 7919) % COUNT;
const ADA = id24('author', 0);
/** Tags: more than are tested between two pauses (2,048). */
const TAGS = 2100;

function writeDocuments(contentDir: string) {
  const dir = (plural: string) => {
    const d = join(contentDir, 'documents', plural);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const author = {
    documentId: ADA,
    published: { id: 1, name: 'Ada', email: null, avatar: null, bio: null, createdAt: TS, updatedAt: TS },
  };
  (author.published as Record<string, unknown>).publishedAt = TS;
  writeFileSync(join(dir('authors'), `${ADA}.json`), JSON.stringify(author));
  const tags = dir('tags');
  for (let t = 0; t < TAGS; t++) {
    const name = `tag-${String(t).padStart(4, '0')}`;
    const tag = { documentId: id24('tag', t), published: { id: t + 1, name, createdAt: TS, updatedAt: TS } };
    (tag.published as Record<string, unknown>).publishedAt = TS;
    writeFileSync(join(tags, `${tag.documentId}.json`), JSON.stringify(tag));
  }
  const articles = dir('articles');
  for (let i = 0; i < COUNT; i++) {
    const views = viewsOf(i);
    const values = {
      title: `Article ${i}${views < 50 ? ' zeta' : ''}`,
      description: i % 3 === 0 ? 'About nothing' : 'About git',
      views,
      rating: (i % 5) + 0.5,
      featured: i % 2 === 0,
      author: i % 50 === 0 ? null : ADA,
      tags: views < 50 ? [id24('tag', 0), id24('tag', 1)] : [],
      slug: `article-${i}`,
    };
    const doc = {
      documentId: id24('article', i),
      locales: { en: { draft: articleVersion(i + 1, values, TS, false) } },
    };
    writeFileSync(join(articles, `${doc.documentId}.json`), JSON.stringify(doc));
  }
}

type Case = [name: string, query: Record<string, unknown>, expected: Partial<Work>];

const page = (filters: unknown, sort: string[] = [], pagination: object = { limit: 10 }) => ({
  status: 'draft',
  filters,
  sort,
  pagination,
});

// Each: a query, and the work it is answered with (counts it must equal).
const EXACT: Case[] = [
  [
    'every row, in id order: read off the rows as they are',
    page(undefined),
    { tests: 0, lookups: 0, sorts: 0, copies: 0, pauses: 0 },
  ],
  ['every row, sorted: read off the sorted order', page(undefined, ['views:asc']), { lookups: 0, sets: 0 }],
  [
    'a range alone, sorted by another field: its rows known by their values, no set of them built',
    page({ views: { $lt: 1000 } }, ['title:asc']),
    { tests: 0, lookups: 0, sets: 0 },
  ],
  [
    'a text match alone, sorted: its set of rows is the only one built',
    page({ description: { $containsi: 'nothing' } }, ['views:asc']),
    { tests: 0, sets: 1 },
  ],
  [
    'a range of most rows, in id order: the first ten read off the rows in id order, not sorted',
    page({ views: { $gte: 0 } }),
    { tests: 0, sorts: 0, lookups: 10 },
  ],
  [
    'a range of 4,096 rows, in id order: read off the rows in id order, not sorted',
    page({ views: { $lt: 4096 } }),
    { tests: 0, sorts: 0 },
  ],
  [
    'a range of 4,096 rows tested against another condition: two slices of rows, a pause after each',
    page({ views: { $lt: 4096 }, featured: { $ne: false } }),
    { tests: 4096, pauses: 2 },
  ],
  [
    'a text match and a range of as many rows: the text match is read, already in id order',
    page({ views: { $lt: 50 }, title: { $endsWithi: 'zeta' } }),
    { sorts: 0, tests: 50 },
  ],
  [
    'a list relation and a range of as many rows: the linked rows are read, each once, already in id order',
    page({ views: { $lt: 50 }, tags: { name: { $in: ['tag-0000', 'tag-0001'] } } }),
    { tests: 50, lookups: 0, links: TAGS },
  ],
  [
    'a condition on thousands of targets: each target tested once',
    page({ tags: { name: { $startsWith: 'tag-' } } }),
    { links: TAGS },
  ],
];

// Each: a query, and the most rows it may test or look up (those of its narrowest condition).
const AT_MOST: Array<[name: string, query: Record<string, unknown>, most: number]> = [
  [
    'a narrow range past a wide one, at the top of its order',
    page({ rating: { $gte: 1 }, views: { $gte: 4300 } }),
    100,
  ],
  [
    'a rare text match before a common one',
    page({ title: { $endsWithi: 'zeta' }, description: { $containsi: 'about' } }),
    50,
  ],
];

describe('the work of an indexed list query, counted', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    writeDocuments(made.contentDir);
    project = await openProject(made.dir);
  }, 120_000);
  afterAll(() => made.cleanup());

  it.each(EXACT)('%s', (_name, query, expected) => {
    const work = counted(project, 'articles', query)!;
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work).toMatchObject(expected);
  });

  it.each(AT_MOST)('%s: tests only the rows of the narrowest', (_name, query, most) => {
    const work = counted(project, 'articles', query)!;
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work.tests + work.lookups).toBeLessThanOrEqual(most);
  });

  it('a range holding every row, sorted by its field, reads the page off the order', () => {
    const query = page({ views: { $gte: 0 } }, ['views:asc']);
    const work = counted(project, 'articles', query, 'views')!;
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work).toMatchObject({ tests: 0, lookups: 0, sets: 0 });
    // The only values read: those of the two binary searches for the range's bounds, none row by row.
    expect(work.values).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(COUNT + 1)));
  });

  it('a page past the last of a range read in id order ends with the rows there are', () => {
    const query = page({ views: { $gte: 0 } }, [], { start: COUNT - 5, limit: 10 });
    const work = counted(project, 'articles', query)!;
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work.answer!.ids).toHaveLength(5);
    // Read off the rows in id order to the last: each looked up once.
    expect(work.lookups).toBe(COUNT);
  });

  it('gathers the thousands of rows linked to one author a few hundred at a time', () => {
    const query = page({ author: { name: 'Ada' } });
    const work = counted(project, 'articles', query)!;
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work.answer!.total).toBe(COUNT - COUNT / 50);
    // Between two pauses: a slice of gathered links, or a slice (2,048) of rows tested, never all 4,312 at once;
    // and a pause per slice, not per row.
    expect(work.longestRun).toBeLessThanOrEqual(2048);
    expect(work.pauses).toBeGreaterThanOrEqual(work.answer!.total / ROWS_PER_PAUSE);
    expect(work.pauses).toBeLessThan(work.answer!.total / 20);
  });
});
