import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { addAttributes, makeProject } from './helpers/project.js';
import { scanned } from './helpers/indexed-reads.js';

/**
 * The getters of a short sort text on a type's own fields are made once per type and shared by its reads (see
 * sort.ts `documentSortGetters`): two types sorted by the same text each sort by their own field, a field one
 * type hides is refused on every read of it, and the reads that read every row sort as they did the first time.
 */
describe('sort getters shared by the reads of a type', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    // `rank` is an article's own number, and an author's private one.
    addAttributes(made.contentDir, 'article', { rank: { type: 'integer' } });
    addAttributes(made.contentDir, 'author', { rank: { type: 'integer', private: true } });
    project = await openProject(made.dir);
    for (const [i, title] of ['b', 'c', 'a'].entries())
      await project.documents.create('articles', { title, views: i, rank: 3 - i }, { status: 'published' });
    for (const [i, name] of ['Bob', 'Ada', 'Cy'].entries())
      await project.documents.create('authors', { name, rank: i }, { status: 'published' });
  });
  afterAll(() => made.cleanup());

  /** Titles or names of a scan's page (`_q` keeps the indexes out, so the sort getters order the rows). */
  const order = (type: string, sort: string, field: string) => {
    const { ids } = scanned(project, type, `sort=${sort}&_q=&pagination[limit]=10`);
    const uid = project.schemas.find(type)!.uid;
    return ids.map((id) => project.documents.index.byId(uid, id)!.data[field]);
  };

  it('sorts each type by its own field, read after read', () => {
    for (let i = 0; i < 3; i++) {
      expect(order('articles', 'rank:desc', 'title')).toEqual(['b', 'c', 'a']);
      expect(order('articles', 'title:desc', 'title')).toEqual(['c', 'b', 'a']);
      expect(order('authors', 'name:desc', 'name')).toEqual(['Cy', 'Bob', 'Ada']);
    }
  });

  it('refuses a field the type hides on every read, after another type sorted by it', () => {
    for (let i = 0; i < 3; i++) {
      expect(order('articles', 'rank:asc', 'title')).toEqual(['a', 'c', 'b']);
      expect(() => scanned(project, 'authors', 'sort=rank:asc')).toThrow(/Invalid key rank/);
      expect(() => scanned(project, 'articles', 'sort=nothing:asc')).toThrow(/Invalid key nothing/);
    }
  });
});
