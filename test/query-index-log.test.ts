import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { Reader } from '../src/query/reader.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { makeProject } from './helpers/project.js';

/**
 * Once a type has query indexes, every change is logged for them until the next query of the type catches up
 * (see FieldIndexes). A server whose type is written to and never queried again must not keep a log that grows
 * with every write: past the length at which a query would drop the indexes, they are dropped at once.
 */
describe('the log of changes kept for query indexes', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  const find = async (query: string) => {
    const read = new Reader(project).prepare(project.schemas.find('articles')!, parseQueryString(query), 'find');
    return (await read.findLater()) as { data: Array<Record<string, unknown>> };
  };

  it('stays bounded while nobody queries the type, and the next query answers from the files', async () => {
    const first = await project.documents.create('articles', { title: 'first', views: 1 }, { status: 'draft' });
    expect((await find('status=draft&sort=views:desc')).data.map((d) => d.title)).toEqual(['first']);
    const uid = project.schemas.find('articles')!.uid;
    const log = () =>
      (project.documents.index as unknown as { types: Map<string, { ids: { changes?: number[] } }> }).types.get(uid)!
        .ids.changes!.length;
    // Each update replaces the draft: its id is logged twice (taken out, put back).
    for (let i = 0; i < 2600; i++)
      await project.documents.update('articles', first.documentId, { views: i }, { status: 'draft' });
    expect(log()).toBeLessThanOrEqual(4097);
    expect((await find('status=draft&sort=views:desc&filters[views][$gte]=2000')).data.map((d) => d.views)).toEqual([
      2599,
    ]);
  }, 120_000);
});
