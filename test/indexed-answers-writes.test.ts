import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { fromIndexes, scanned, served } from './helpers/indexed-reads.js';

/**
 * The query indexes follow every kind of change once built (see FieldIndexes: each change is logged and applied
 * before the next query): after each write below, through the service or on disk, every query answers as a plain
 * reading of the documents does, from the indexes where they can answer it.
 */

const QUERIES: Array<Record<string, unknown>> = [
  { sort: ['views:asc'] },
  { sort: ['views:desc', 'title:asc'], pagination: { start: 2, limit: 5 } },
  { filters: { views: { $gte: 3 } }, sort: ['title:desc'] },
  { filters: { views: { $lt: 6 } } },
  { filters: { title: { $containsi: 'e' } }, sort: ['views:asc'] },
  { filters: { title: { $startsWithi: 'b' } }, status: 'draft' },
  { filters: { author: { name: 'Ada' } }, sort: ['title:asc'] },
  { filters: { author: { name: { $ne: 'Bob' } } }, status: 'draft', locale: 'fr' },
  { filters: { featured: true }, sort: ['views:desc'], locale: 'fr' },
  { filters: { views: { $between: [2, 7] } }, status: 'draft', sort: ['featured:asc', 'id:desc'] },
];

describe('query indexes through writes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const ids: string[] = [];
  const authors: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (const name of ['Ada', 'Bob']) authors.push((await project.documents.create('authors', { name })).documentId);
    for (let i = 0; i < 16; i++) {
      const data = {
        title: ['Beta', 'echo', 'delta', 'Alpha'][i % 4] + i,
        views: (i * 5) % 9,
        featured: i % 3 === 0,
        author: i % 5 === 4 ? null : authors[i % 2],
      };
      const opts = { locale: i % 3 === 2 ? 'fr' : 'en', status: i % 4 === 1 ? ('draft' as const) : undefined };
      ids.push((await project.documents.create('articles', data, opts)).documentId);
    }
  });
  afterAll(() => made.cleanup());

  /** Every query: from the indexes where they can answer it, as the server answers it, as a plain reading says. */
  async function answersAsRead() {
    for (const query of QUERIES) {
      const plain = scanned(project, 'articles', query);
      expect(await served(project, 'articles', query), JSON.stringify(query)).toEqual(plain);
      expect(fromIndexes(project, 'articles', query), JSON.stringify(query)).toEqual(plain);
    }
  }

  const fileOf = (i: number) => project.documents.store.fileOf('articles', ids[i]);
  /** Edits a document's file as an editor would, and picks the change up as the watcher does. */
  async function edit(i: number, change: (v: Record<string, unknown>) => void) {
    const body = JSON.parse(readFileSync(fileOf(i), 'utf8'));
    for (const slot of Object.values(body.locales) as Array<Record<string, Record<string, unknown>>>)
      for (const v of Object.values(slot)) change(v);
    writeFileSync(fileOf(i), `${JSON.stringify(body, null, 2)}\n`);
    await project.documents.reloadDocument(project.schemas.find('articles')!, ids[i]);
  }

  const WRITES: Array<[name: string, write: () => Promise<unknown>]> = [
    [
      'an update of a draft',
      () => project.documents.update('articles', ids[1], { views: 8, title: 'zed' }, { status: 'draft' }),
    ],
    ['a publication', () => project.documents.publish('articles', ids[1], {})],
    ['an update to null', () => project.documents.update('articles', ids[3], { views: null })],
    ['an unpublication', () => project.documents.unpublish('articles', ids[4], {})],
    ['a draft discarded', () => project.documents.discardDraft('articles', ids[6], {})],
    ['a relation changed', () => project.documents.update('articles', ids[7], { author: authors[0] })],
    ['a related document renamed', () => project.documents.update('authors', authors[1], { name: 'Ada' })],
    ['a new locale', () => project.documents.update('articles', ids[8], { title: 'huit', views: 1 }, { locale: 'fr' })],
    ['a locale deleted', () => project.documents.delete('articles', ids[8], { locale: 'en' })],
    ['a document deleted', () => project.documents.delete('articles', ids[9], { locale: '*' })],
    ['a document created', () => project.documents.create('articles', { title: 'new', views: 4, featured: true })],
    [
      'more documents created than the orders had room for',
      async () => {
        for (let i = 0; i < 40; i++)
          await project.documents.create('articles', {
            title: `more ${i % 7}`,
            views: (i * 3) % 10,
            featured: i % 2 === 0,
          });
      },
    ],
    ['a file edited', () => edit(10, (v) => Object.assign(v, { title: 'Edited', views: 0 }))],
    [
      'a file removed',
      async () => {
        rmSync(fileOf(11));
        await project.documents.reloadDocument(project.schemas.find('articles')!, ids[11]);
      },
    ],
  ];

  it('answers as a plain reading once its indexes are built', () => answersAsRead());

  it.each(WRITES)('answers as a plain reading after %s', async (_name, write) => {
    await write();
    await answersAsRead();
  });
});
