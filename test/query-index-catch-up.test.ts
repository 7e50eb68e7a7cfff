import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { Reader } from '../src/query/reader.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { makeProject } from './helpers/project.js';

/**
 * Changes picked up while a type already has query indexes are logged and applied before the next query
 * (see FieldIndexes.need). A log too long to apply at once but too short to drop the indexes (a pull that
 * changes a thousand files) is applied by the job that also builds what a new query needs: the indexes it
 * has not built yet must be passed over, and the answers must follow the files.
 */
describe('query indexes after many changes on disk', () => {
  const COUNT = 1100;
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const ids: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (let i = 0; i < COUNT; i++)
      ids.push(
        (await project.documents.create('articles', { title: `t${i}`, views: i }, { status: 'draft' })).documentId,
      );
  }, 120_000);
  afterAll(() => made.cleanup());

  const find = async (query: string) => {
    const read = new Reader(project).prepare(project.schemas.find('articles')!, parseQueryString(query), 'find');
    return (await read.findLater()) as {
      data: Array<Record<string, unknown>>;
      meta: { pagination: { total: number } };
    };
  };

  it('answers a sort on a field first asked after the changes, and a sort asked before them', async () => {
    const before = await find('status=draft&sort=title:asc&pagination[pageSize]=3');
    expect(before.data.map((d) => d.title)).toEqual(['t0', 't1', 't10']);
    // Each file edited as an editor or a checkout would, and picked up as the watcher does.
    const ct = project.schemas.find('articles')!;
    for (let i = 0; i < COUNT; i++) {
      const file = project.documents.store.fileOf('articles', ids[i]);
      const body = JSON.parse(readFileSync(file, 'utf8'));
      for (const slot of Object.values(body.locales ?? {}) as Array<Record<string, Record<string, unknown>>>)
        for (const v of Object.values(slot)) Object.assign(v, { title: `u${COUNT - i}`, views: COUNT - i });
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      await project.documents.reloadDocument(ct, ids[i]);
    }
    const byViews = await find('status=draft&sort=views:desc&pagination[pageSize]=2');
    expect(byViews.data.map((d) => d.views)).toEqual([COUNT, COUNT - 1]);
    const byTitle = await find('status=draft&sort=title:asc&pagination[pageSize]=3');
    expect(byTitle.data.map((d) => d.title)).toEqual(['u1', 'u10', 'u100']);
    const ranged = await find('status=draft&filters[views][$lte]=5&sort=views:asc');
    expect(ranged.meta.pagination.total).toBe(5);
    expect(ranged.data.map((d) => d.title)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  }, 120_000);
});
