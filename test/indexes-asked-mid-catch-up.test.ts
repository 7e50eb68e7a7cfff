import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { fromIndexes, planOf, scanned, served } from './helpers/indexed-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * The query indexes of a type are kept current by a job that applies the log of changes a slice at a time (see
 * FieldIndexes.need): a query that asks for an index the type lacks while that job runs has it built by the same
 * job, from the rows as they are once the log is applied, and answers as a plain reading. So does a query on a
 * field a hand edit gives values of several kinds (no sorted order then), and once the edit is undone.
 */

const TS = '2025-01-01T00:00:00.000Z';
const documentId = (i: number) => `upkeep${String(i).padStart(18, '0')}`;
/** Draft ids: half the documents in the first 4,096 ids, half past them (two chunks of the folded texts). */
const idOf = (i: number) => (i < 15 ? i + 1 : 5000 + i);

function writeDocument(contentDir: string, i: number, title: unknown) {
  const dir = join(contentDir, 'documents', 'articles');
  mkdirSync(dir, { recursive: true });
  const draft = articleVersion(idOf(i), { title, views: (i * 7) % 11 }, TS, false);
  const doc = { documentId: documentId(i), locales: { en: { draft } } };
  writeFileSync(join(dir, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}

describe('query indexes asked for while the log of changes is applied', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    for (let i = 0; i < 30; i++) writeDocument(made.contentDir, i, `Title ${i} ${i % 2 ? 'odd' : 'even'}`);
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  const uid = () => project.schemas.find('articles')!.uid;
  const same = async (query: Record<string, unknown>) => {
    const plain = scanned(project, 'articles', query);
    expect(fromIndexes(project, 'articles', query), JSON.stringify(query)).toEqual(plain);
    expect(await served(project, 'articles', query), JSON.stringify(query)).toEqual(plain);
    return plain;
  };

  it('builds a text index asked for mid-way through a long log, and answers in id order', async () => {
    const byViews = { status: 'draft', sort: ['views:asc'] };
    await same(byViews);
    // More changes than a query applies at once (each update logs its draft's id twice): a job applies them.
    const changed = documentId(20);
    for (let k = 0; k < 1100; k++)
      await project.documents.update('articles', changed, { views: k % 11 }, { status: 'draft' });
    const fields = project.documents.index.fields(uid());
    const job = fields.need(planOf(project, 'articles', byViews)!.needs.get(uid())!)!;
    expect(job).toBeDefined();
    // Its first slice applies part of the log; a query on another field then asks for its folded texts.
    expect(job.step(0)).toBe(false);
    const odd = { status: 'draft', filters: { title: { $containsi: 'ODD' } } };
    expect(fields.need(planOf(project, 'articles', odd)!.needs.get(uid())!)).toBe(job);
    while (!job.step(1000));
    const answer = await same(odd);
    expect(answer.total).toBe(15);
    expect(answer.ids).toEqual([...answer.ids].sort((a, b) => a - b));
    await same(byViews);
  }, 120_000);

  const edit = async (i: number, title: unknown) => {
    const file = project.documents.store.fileOf('articles', documentId(i));
    const body = JSON.parse(readFileSync(file, 'utf8'));
    body.locales.en.draft.title = title;
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
    await project.documents.reloadDocument(project.schemas.find('articles')!, documentId(i));
  };
  const QUERIES = [
    { status: 'draft', sort: ['title:asc'] },
    { status: 'draft', sort: ['title:desc', 'views:asc'], pagination: { start: 3, limit: 4 } },
    { status: 'draft', filters: { title: { $containsi: '4' } }, sort: ['title:asc'] },
    { status: 'draft', filters: { title: { $startsWithi: 'title 2' } } },
    { status: 'draft', filters: { views: { $gte: 5 } }, sort: ['title:asc'] },
  ];

  it('answers on a field a hand edit gives values of several kinds, and once the edit is undone', async () => {
    for (const query of QUERIES) await same(query);
    await edit(3, 42);
    for (const query of QUERIES) await same(query);
    await edit(3, 'Title 3 odd');
    for (const query of QUERIES) await same(query);
    const sorted = await same(QUERIES[0]);
    expect(sorted.total).toBe(30);
  });
});
