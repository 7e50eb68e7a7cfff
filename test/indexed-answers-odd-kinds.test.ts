import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { scanned } from './helpers/indexed-reads.js';
import { counted } from './helpers/counted-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * Ranges over fields whose files hold no value of the field's kind: an integer field hand-edited to hold its
 * numbers as text (`"views": "7"`), and a field null in every document. The answer equals a plain reading of
 * the files, and a range over a field with no value is answered without testing a row.
 */

const COUNT = 40;
const TS = '2025-01-01T00:00:00.000Z';

function writeDocuments(contentDir: string) {
  const dir = join(contentDir, 'documents', 'articles');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < COUNT; i++) {
    const values = { title: `Article ${i}`, views: String((i * 7) % 13), rating: null, slug: `article-${i}` };
    const documentId = `article${String(i).padStart(17, '0')}`;
    const doc = { documentId, locales: { en: { draft: articleVersion(i + 1, values, TS, false) } } };
    writeFileSync(join(dir, `${documentId}.json`), JSON.stringify(doc));
  }
}

const TEXT_NUMBERS: Array<[name: string, filters: Record<string, unknown>]> = [
  ['one value', { views: 5 }],
  ['greater than', { views: { $gt: 5 } }],
  ['at most', { views: { $lte: 3 } }],
  ['between', { views: { $between: [2, 9] } }],
  ['below a number that sorts first as text', { views: { $lt: 10 } }],
];

const NO_VALUE: Array<[name: string, filters: Record<string, unknown>]> = [
  ['one value', { rating: 2 }],
  ['greater than', { rating: { $gt: 1 } }],
  ['between', { rating: { $between: [1, 3] } }],
];

describe('ranges over fields holding no value of their kind', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    writeDocuments(made.contentDir);
    project = await openProject(made.dir);
  }, 60_000);
  afterAll(() => made.cleanup());

  it.each(TEXT_NUMBERS)('numbers held as text, %s: as a plain reading', (_name, filters) => {
    for (const sort of [[], ['views:asc'], ['title:desc']]) {
      const query = { status: 'draft', filters, sort, pagination: { limit: 100 } };
      const work = counted(project, 'articles', query)!;
      expect(work.answer, JSON.stringify(query)).toEqual(scanned(project, 'articles', query));
    }
  });

  it.each(NO_VALUE)('a field null everywhere, %s: no row, none tested', (_name, filters) => {
    const query = { status: 'draft', filters, pagination: { limit: 100 } };
    const work = counted(project, 'articles', query)!;
    expect(work.answer).toEqual({ total: 0, ids: [] });
    expect(work.answer).toEqual(scanned(project, 'articles', query));
    expect(work.tests + work.lookups).toBe(0);
  });
});
