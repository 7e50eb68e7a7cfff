import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { Reader } from '../src/query/reader.js';
import { makeProject } from './helpers/project.js';
import { SNAPSHOT, age, snapshot } from './helpers/snapshot.js';

/**
 * A list answer's bytes (what `folio serve` sends) are assembled at once when its page was quick to find and
 * nothing it shapes waits to be made ready, else after the work it waits for. Either way they are exactly the
 * page the plain read shapes: on a project started again over a snapshot (documents made only when first
 * needed, so the first answers wait) and then once everything is ready.
 */
const QUERIES: Array<[type: string, query: string]> = [
  ['articles', 'filters[views][$gt]=3&sort=title:asc&pagination[page]=2&pagination[pageSize]=5'],
  ['articles', 'filters[views][$gt]=3&sort=views:desc&pagination[page]=1&pagination[pageSize]=5'],
  ['articles', 'filters[views][$gte]=2&filters[views][$lt]=7&sort=title:desc&populate=author,category'],
  ['articles', 'filters[views][$gt]=100&sort=title:asc'],
  ['articles', 'sort=views:asc,title:desc&pagination[start]=3&pagination[limit]=4&populate=author'],
  ['articles', 'filters[author][name][$eq]=Ada&sort=views:asc&populate[author][fields][0]=name'],
  ['authors', 'sort=name:asc&populate=articles'],
  ['categories', 'populate[articles][sort]=views:desc&populate[articles][fields][0]=title'],
];

describe('a list answer found at once equals one that waited', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    const authors: string[] = [];
    for (const name of ['Ada', 'Bob', 'Ève'])
      authors.push((await project.documents.create('authors', { name })).documentId);
    const category = (await project.documents.create('categories', { name: 'News', slug: 'news' })).documentId;
    for (let i = 0; i < 24; i++) {
      await project.documents.create(
        'articles',
        { title: `Title ${(i * 7) % 24}`, views: i % 10, author: authors[i % 3], category: i % 2 ? category : null },
        { status: 'published' },
      );
    }
    // Started again over a snapshot: the documents are made and decoded only when a read first needs them.
    age(made.contentDir);
    rmSync(SNAPSHOT(made.dir), { force: true });
    await snapshot(made.dir);
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  const answers = async () => {
    const out: Array<{ body: string; page: string; atOnce: boolean }> = [];
    for (const [type, query] of QUERIES) {
      const ct = project.schemas.route(type)!;
      const params = parseQueryString(query);
      const body = new Reader(project).prepare(ct, params, 'find').findBody('all');
      const atOnce = !(body instanceof Promise);
      const page = JSON.stringify(await new Reader(project).prepare(ct, params, 'find').findLater());
      out.push({ body: (await body).bytes.toString(), page, atOnce });
    }
    return out;
  };

  it('answers the same bytes before and after the types are ready, at once when they are', async () => {
    const first = await answers();
    for (const [i, a] of first.entries()) expect(a.body, QUERIES[i].join('?')).toBe(a.page);
    const again = await answers();
    for (const [i, a] of again.entries()) {
      expect(a.body, QUERIES[i].join('?')).toBe(a.page);
      expect(a.body, QUERIES[i].join('?')).toBe(first[i].body);
      expect(a.atOnce, QUERIES[i].join('?')).toBe(true);
    }
  });
});
