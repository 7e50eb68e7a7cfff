import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { Reader } from '../src/query/reader.js';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { scanned } from './helpers/indexed-reads.js';

/**
 * parts-memo.ts: a filter's column parts are shared by every later read of the type with the
 * same filter text. Each part's column getter keeps the column it reads (column-scope.ts). When the type's query
 * indexes are dropped (a log of changes too long to apply: a checkout, a pull, a bulk edit with no query between),
 * the next read builds new columns: a shared part must read those, not the dropped one no change reaches.
 */
describe('shared filter parts after the query indexes are dropped', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;
  const ids: string[] = [];

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    for (let i = 0; i < 8; i++)
      ids.push(
        (await project.documents.create('articles', { title: `T${i}`, views: i }, { status: 'published' })).documentId,
      );
  });
  afterAll(() => made.cleanup());

  const served = (text: string) => {
    const body = new Reader(project).prepare(project.schemas.route('articles')!, parseQueryString(text), 'find').find();
    return { total: body.meta.pagination.total, ids: (body.data as Array<{ id: number }>).map((d) => d.id) };
  };

  it('answers as a plain reading after a change log long enough to drop the indexes', async () => {
    const text = 'filters[views][$in][0]=100&filters[views][$in][1]=1';
    expect(served(text)).toEqual(scanned(project, 'articles', text));
    expect(served(text).total).toBe(1);
    // Changes picked up with no query of the type between them (as a checkout's files are), until the type's
    // query indexes are dropped.
    const ct = project.schemas.find('articles')!;
    const fields = project.documents.index.fields(ct.uid);
    let reloads = 0;
    while (fields.column('views') !== undefined && reloads < 20_000) {
      // A title edited on disk (views untouched), picked up as the watcher picks it up.
      const id = ids[1 + (reloads % (ids.length - 1))];
      const file = project.documents.store.fileOf('articles', id);
      const body = JSON.parse(readFileSync(file, 'utf8'));
      for (const slot of Object.values(body.locales ?? {}) as Array<Record<string, Record<string, unknown>>>)
        for (const v of Object.values(slot)) Object.assign(v, { title: `edit ${reloads}` });
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      await project.documents.reloadDocument(ct, id);
      reloads++;
    }
    expect(fields.column('views')).toBeUndefined();
    await project.documents.update('articles', ids[0], { views: 100 }, { status: 'published' });
    // A plain reading: T0 (now 100) and T1.
    expect(scanned(project, 'articles', text).total).toBe(2);
    expect(served(text)).toEqual(scanned(project, 'articles', text));
  }, 300_000);
});

describe('a served list after the query indexes are dropped', () => {
  let s: TestServer;
  const ids: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    for (let i = 0; i < 8; i++) {
      const r = await s.api('/api/articles?status=published', {
        method: 'POST',
        body: { data: { title: `T${i}`, views: i } },
      });
      ids.push(r.body.data.documentId);
    }
  });
  afterAll(() => s.stop());

  const titles = async (path: string) => {
    const r = await s.api(path);
    expect(r.status).toBe(200);
    return (r.body.data as Array<{ title: string }>).map((d) => d.title.replace(/\.$/, '')).sort();
  };

  it('lists what the files hold after a checkout-sized batch of file changes', async () => {
    const path = '/api/articles?filters[views][$in][0]=100&filters[views][$in][1]=1';
    expect(await titles(path)).toEqual(['T1']);
    const ct = s.project.schemas.find('articles')!;
    const fields = s.project.documents.index.fields(ct.uid);
    // Titles edited on disk and picked up as the watcher does, with no list asked meanwhile.
    for (let k = 0; fields.column('views') !== undefined && k < 20_000; k++) {
      const id = ids[1 + (k % (ids.length - 1))];
      const file = s.project.documents.store.fileOf('articles', id);
      const body = JSON.parse(readFileSync(file, 'utf8'));
      for (const slot of Object.values(body.locales ?? {}) as Array<Record<string, Record<string, unknown>>>)
        for (const v of Object.values(slot))
          Object.assign(v, { title: `T${1 + (k % (ids.length - 1))}${'.'.repeat(k % 2)}` });
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      await s.project.documents.reloadDocument(ct, id);
    }
    expect(fields.column('views')).toBeUndefined();
    const put = await s.api(`/api/articles/${ids[0]}?status=published`, {
      method: 'PUT',
      body: { data: { views: 100 } },
    });
    expect(put.status).toBe(200);
    expect(await titles('/api/articles?filters[views][$eq]=100')).toEqual(['T0']);
    expect(await titles(path)).toEqual(['T0', 'T1']);
  }, 300_000);
});
