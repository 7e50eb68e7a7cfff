import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { fromIndexes, scanned } from './helpers/indexed-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * A range holding more rows than are tested between two pauses (2,048), tested against one condition or more:
 * every row is counted and listed once, those on either side of a pause too.
 */

const COUNT = 2600;
const TS = '2025-01-01T00:00:00.000Z';
const documentId = (i: number) => `article${String(i).padStart(17, '0')}`;

function writeDocuments(contentDir: string) {
  const dir = join(contentDir, 'documents', 'articles');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < COUNT; i++) {
    const version = articleVersion(
      i + 1,
      {
        title: `Article ${i}`,
        views: i % 10,
        rating: i % 3 === 0 ? null : 2,
        featured: i % 7 !== 0,
        slug: `article-${i}`,
      },
      TS,
      false,
    );
    const doc = { documentId: documentId(i), locales: { en: { draft: version } } };
    writeFileSync(join(dir, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  }
}

const CASES: Array<[name: string, filters: Record<string, unknown>]> = [
  ['a range and a test', { views: { $gte: 1 }, featured: true }],
  ['a range and two tests', { views: { $gte: 1 }, featured: true, rating: { $notNull: true } }],
  ['another range and two tests', { views: { $gte: 0 }, featured: true, rating: { $notNull: true } }],
  ['a third range and two tests', { views: { $lte: 8 }, featured: { $ne: false }, rating: { $notNull: true } }],
  ['a range and three tests', { views: { $gte: 1 }, featured: true, rating: { $ne: 1 }, title: { $ne: 'x' } }],
];
const PAGES = [
  { start: 0, limit: 100 },
  { start: 1150, limit: 50 },
];

describe('list queries whose range holds more rows than one slice of work', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    writeDocuments(made.contentDir);
    project = await openProject(made.dir);
  }, 120_000);
  afterAll(() => made.cleanup());

  it.each(CASES)('%s: lists each row once', (_name, filters) => {
    for (const sort of [[], ['views:desc']])
      for (const pagination of PAGES) {
        const query = { status: 'draft', filters, sort, pagination };
        const answer = fromIndexes(project, 'articles', query);
        expect(answer, JSON.stringify(query)).toEqual(scanned(project, 'articles', query));
        expect(answer!.total).toBeGreaterThan(1200);
      }
  });
});
