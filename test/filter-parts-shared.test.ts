import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { Reader } from '../src/query/reader.js';
import { makeProject } from './helpers/project.js';
import { scanned } from './helpers/indexed-reads.js';

/**
 * A filter compiled over the columns is shared by the reads that give the same filter text on a type (see
 * parts-memo.ts): each type's reads read its own fields, a filter a type refuses is refused on every read, and
 * reads made after writes answer the rows a plain reading gives.
 */
describe('filter parts shared by the reads of a type', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const ids: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (const name of ['Ada', 'Bob']) await project.documents.create('authors', { name }, { status: 'published' });
    for (let i = 0; i < 8; i++)
      ids.push(
        (await project.documents.create('articles', { title: `T${i}`, views: i }, { status: 'published' })).documentId,
      );
  });
  afterAll(() => made.cleanup());

  /** A list read as the content API makes it: a reader of its own, the page's total and ids. */
  const served = (type: string, text: string) => {
    const body = new Reader(project).prepare(project.schemas.route(type)!, parseQueryString(text), 'find').find();
    return { total: body.meta.pagination.total, ids: (body.data as Array<{ id: number }>).map((d) => d.id) };
  };
  const refusal = (type: string, text: string) => {
    try {
      served(type, text);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  };

  it('reads each type by its own fields and refuses what a type lacks, read after read', () => {
    for (let i = 0; i < 3; i++) {
      expect(served('authors', 'filters[name][$eq]=Ada').total).toBe(1);
      expect(refusal('articles', 'filters[name][$eq]=Ada')).toMatch(/Invalid key name/);
      expect(served('articles', 'filters[views][$gt]=5').total).toBe(2);
      expect(refusal('authors', 'filters[views][$gt]=5')).toMatch(/Invalid key views/);
    }
  });

  it('answers as a plain reading after writes, for reads made before and after them', async () => {
    const texts = ['filters[views][$gt]=3&sort=title:desc', 'filters[views][$lte]=2', 'filters[title][$containsi]=t'];
    const check = () => {
      for (const text of texts) expect(served('articles', text), text).toEqual(scanned(project, 'articles', text));
    };
    check();
    await project.documents.create('articles', { title: 'T9', views: 9 }, { status: 'published' });
    await project.documents.update('articles', ids[0], { views: 7 }, { status: 'published' });
    check();
  });
});
