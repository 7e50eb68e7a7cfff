import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { age, snapshot } from './helpers/snapshot.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * A restart over the snapshot, with a hand edit between the two starts, answers a filtered and sorted list as the
 * files say and as the first start did; a write that fills one document's lists (after its type was prepared from
 * the files) leaves every other document's lists, answered and on disk, empty.
 */
describe('documents whose lists are empty', () => {
  const made = makeProject();
  const articles = join(made.contentDir, 'documents', 'articles');
  const COUNT = 12;
  const at = '2025-01-01T00:00:00.000Z';
  const idOf = (i: number) => `emptylists${String(i).padStart(14, '0')}`;
  const fileOf = (i: number) => join(articles, `${idOf(i)}.json`);
  const write = (i: number, views: number) => {
    const given = { title: `Article ${String.fromCharCode(97 + ((i * 5) % COUNT))}`, views };
    const en = {
      draft: articleVersion(2 * i + 1, given, at, false),
      published: articleVersion(2 * i + 2, given, at, true),
    };
    writeFileSync(fileOf(i), `${JSON.stringify({ documentId: idOf(i), locales: { en } }, null, 2)}\n`);
  };
  const query =
    'filters[views][$gt]=30&sort=title:asc&fields[0]=title&fields[1]=views&populate[0]=tags&populate[1]=links';
  let firstStart: unknown;
  let s: TestServer;

  beforeAll(async () => {
    mkdirSync(articles, { recursive: true });
    for (let i = 0; i < COUNT; i++) write(i, i * 10);
    age(made.contentDir);
    const first = await startTestServer({ dir: made.dir });
    firstStart = (await first.api(`/api/articles?${query}`)).body;
    await first.close();
    await snapshot(made.dir);
    // A hand edit between the two starts: the restart reads this file again, the others from the snapshot.
    write(3, 95);
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('answers a restart over the snapshot as the files say', async () => {
    expect(s.project.report.fromSnapshot).toBe(COUNT - 1);
    const res = await s.api(`/api/articles?${query}`);
    expect(res.status).toBe(200);
    const edited = res.body.data.find((a: { documentId: string }) => a.documentId === idOf(3));
    expect(edited).toMatchObject({ views: 95, tags: [], links: [] });
    expect(res.body.data.filter((a: { documentId: string }) => a.documentId !== idOf(3))).toEqual(
      (firstStart as { data: Array<{ documentId: string }> }).data,
    );
    expect(res.body.data.map((a: { views: number }) => a.views).every((v: number) => v > 30)).toBe(true);
  });

  it('fills one document’s lists and no other’s', async () => {
    const tag = await s.api('/api/tags', { method: 'POST', body: { data: { name: 'only-one' } } });
    expect(tag.status).toBe(201);
    const before = readFileSync(fileOf(7), 'utf8');
    const put = await s.api(`/api/articles/${idOf(5)}`, {
      method: 'PUT',
      body: {
        data: { tags: { connect: [tag.body.data.documentId] }, links: [{ label: 'home', url: 'https://example.com' }] },
      },
    });
    expect(put.status).toBe(200);

    const list = await s.api('/api/articles?status=draft&populate[0]=tags&populate[1]=links&pagination[pageSize]=100');
    expect(list.body.data).toHaveLength(COUNT);
    for (const a of list.body.data) {
      if (a.documentId === idOf(5)) {
        expect(a.tags.map((t: { name: string }) => t.name)).toEqual(['only-one']);
        expect(a.links).toMatchObject([{ label: 'home', url: 'https://example.com' }]);
      } else expect([a.tags, a.links]).toEqual([[], []]);
    }
    expect(readFileSync(fileOf(7), 'utf8')).toBe(before);
    const onDisk = JSON.parse(readFileSync(fileOf(5), 'utf8')).locales.en.draft;
    expect(onDisk.tags).toEqual([tag.body.data.documentId]);
    expect(onDisk.links).toHaveLength(1);
  });
});
