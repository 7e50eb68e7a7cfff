import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { fromIndexes, scanned } from './helpers/indexed-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * Documents whose files give them ids on either side of 2^26, where the sets of rows found from an index (text
 * matches, rows linked to matching targets) stop keeping ids as bits and list them instead (ids pasted in by
 * hand, or left by a merge): each is found by every query it matches, as a plain reading finds it.
 */

const EDGE = 2 ** 26;
const TS = '2025-01-01T00:00:00.000Z';
const AUTHORS = ['Ada', 'Bob'];
const COUNT = 24;
const documentId = (kind: string, i: number) => `${kind}${String(i).padStart(24 - kind.length, '0')}`;

/**
 * Article `i`'s ids: small for most, and for the last four, drafts and published versions on both sides of the
 * edge, one of each status exactly on it.
 */
function idsOf(i: number): { draft: number; published: number } {
  const edge = [
    { draft: EDGE, published: EDGE - 1 },
    { draft: EDGE - 2, published: EDGE + 1 },
    { draft: EDGE + 2, published: EDGE - 3 },
    { draft: EDGE + 4, published: EDGE + 3 },
  ];
  return i >= COUNT - edge.length ? edge[i - (COUNT - edge.length)] : { draft: 2 * i + 1, published: 2 * i + 2 };
}

/** The last four articles share their title word and views, so each query below finds them together. */
function values(i: number) {
  const last = i >= COUNT - 4;
  return {
    title: last ? `Edge ${i}` : `${['Node', 'Deploy', 'Cache'][i % 3]} ${i}`,
    description: null,
    views: last ? 7 : i % 5,
    rating: null,
    featured: i % 2 === 0,
    author: documentId('author', i % AUTHORS.length),
  };
}

function writeDocuments(contentDir: string) {
  const dir = (plural: string) => {
    const d = join(contentDir, 'documents', plural);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const authors = dir('authors');
  AUTHORS.forEach((name, i) => {
    const version = { id: i + 1, name, email: null, avatar: null, bio: null, createdAt: TS, updatedAt: TS };
    const doc = { documentId: documentId('author', i), published: { ...version, publishedAt: TS } };
    writeFileSync(join(authors, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  });
  const articles = dir('articles');
  for (let i = 0; i < COUNT; i++) {
    const version = (id: number, published: boolean) =>
      articleVersion(id, { ...values(i), slug: `article-${i}` }, TS, published);
    const ids = idsOf(i);
    const slot = { draft: version(ids.draft, false), published: version(ids.published, true) };
    const doc = { documentId: documentId('article', i), locales: { en: slot } };
    writeFileSync(join(articles, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  }
}

// Each finds the four articles at the edge, from a set found from an index: alone (the rows it starts from, or
// the rows a sorted walk keeps), tested against a narrower range, or against another set.
const CASES: Array<[name: string, filters: Record<string, unknown>]> = [
  ['a text match', { title: { $startsWithi: 'edge' } }],
  ['a text match and a narrower range', { title: { $containsi: 'e' }, views: 7 }],
  ['two text matches', { title: { $startsWithi: 'edge' }, slug: { $containsi: 'article-2' } }],
  ['a text match and a relation', { title: { $startsWithi: 'edge' }, author: { name: { $in: AUTHORS } } }],
  ['a relation and a narrower range', { author: { name: { $in: AUTHORS } }, views: 7 }],
  ['two relations', { author: { name: { $ne: 'Cy' } }, $and: [{ author: { name: { $in: AUTHORS } } }] }],
];
const SORTS = [[], ['views:desc'], ['title:asc']];
const STATUSES = ['published', 'draft'];

describe('list queries over documents with ids on either side of 2^26, from the query indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    writeDocuments(made.contentDir);
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  it('reads each document with the id its file gives it', () => {
    for (const status of STATUSES) {
      const ids = scanned(project, 'articles', { status, filters: { views: 7 } }).ids.sort((a, b) => a - b);
      const want = [...Array(4).keys()].map((k) => idsOf(COUNT - 4 + k)[status === 'draft' ? 'draft' : 'published']);
      expect(ids).toEqual(want.sort((a, b) => a - b));
    }
  });

  it.each(CASES)('%s: finds the documents on both sides of the edge', (_name, filters) => {
    for (const status of STATUSES)
      for (const sort of SORTS) {
        const query = { status, filters, sort, pagination: { limit: 100 } };
        const answer = fromIndexes(project, 'articles', query);
        expect(answer, JSON.stringify(query)).toEqual(scanned(project, 'articles', query));
        const edge = [...Array(4).keys()].map((k) => idsOf(COUNT - 4 + k)[status as 'draft' | 'published']);
        expect(answer!.ids, JSON.stringify(query)).toEqual(expect.arrayContaining(edge));
      }
  });
});
