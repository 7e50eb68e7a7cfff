import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { renumberedId } from '../src/documents/doc-index.js';
import { BLOCK_FILES } from '../src/startup/parallel-read.js';
import { BIN, REPO, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { SNAPSHOT, age, countingThreads, snapshot } from './helpers/snapshot.js';

/**
 * The start-up snapshot (.folio/cache/documents.snapshot) is only a shortcut: a server started from it
 * must answer exactly as one that read every file, whatever happened to the files in between.
 */

/** Queries that touch every kind of stored data: locales, drafts, relations both ways, components, single types. */
const QUERIES = [
  '/api/articles?populate=*',
  '/api/articles?locale=fr&populate=author',
  '/api/articles?status=draft&sort=title:asc&fields[0]=title&pagination[pageSize]=100',
  '/api/articles?filters[author][name][$containsi]=a&sort=publishDate:desc&populate[category][fields][0]=name',
  '/api/articles?filters[id][$lte]=8&sort=id:asc',
  '/api/articles?pagination[pageSize]=3&pagination[page]=2&sort=views:desc',
  '/api/authors?populate=articles',
  '/api/categories?populate[articles][fields][0]=title&populate[articles][sort][0]=title',
  '/api/tags?populate=articles&pagination[pageSize]=100',
  '/api/global?populate=*',
  '/api/about?populate=*',
];

async function answers(s: TestServer) {
  const out: Record<string, unknown> = {};
  for (const q of QUERIES) {
    const res = await s.api(q);
    expect(res.status, q).toBe(200);
    out[q] = res.body;
  }
  return out;
}

/** Answers of a server that reads every file (the reference) and of one started from the snapshot. */
async function compare(dir: string) {
  const plain = await startTestServer({ dir, load: { useSnapshot: false } });
  const expected = await answers(plain);
  await plain.stop();
  const fast = await startTestServer({ dir });
  const actual = await answers(fast);
  await fast.stop();
  expect(actual).toEqual(expected);
  return { report: fast.project.report, expected };
}

describe('a server started from the snapshot answers as one that read every file', () => {
  const made = makeProject({ withExampleDocuments: true });
  let total = 0;
  beforeAll(async () => {
    age(made.contentDir);
    total = await snapshot(made.dir);
  });
  afterAll(() => made.cleanup());

  it('indexes every document from the snapshot and gives the same answers, ids included', async () => {
    const { report, expected } = await compare(made.dir);
    expect(report.fromSnapshot).toBe(total);
    expect(report.documents).toBe(total);
    expect((expected['/api/articles?populate=*'] as { data: unknown[] }).data.length).toBeGreaterThan(5);
  });

  it('decodes nothing until asked: a document keeps its values behind the snapshot until first read', async () => {
    const s = await startTestServer({ dir: made.dir });
    try {
      const [doc] = s.project.documents.index.documents('api::article.article');
      expect(s.project.documents.index.isUndecoded(doc)).toBe(true);
      const res = await s.api(`/api/articles/${doc.documentId}`);
      expect(res.status).toBe(200);
      expect(typeof res.body.data.title).toBe('string');
      expect(s.project.documents.index.isUndecoded(doc)).toBe(false);
      expect(await s.project.afterStart.warm()).toBeGreaterThan(0);
      for (const d of s.project.documents.index.documents('api::author.author'))
        expect(s.project.documents.index.isUndecoded(d)).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it('decodes in the background only while no request is being answered, yet never waits for ever', async () => {
    const s = await startTestServer({ dir: made.dir });
    try {
      const docs = [...s.project.documents.index.documents('api::author.author')];
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.every((d) => s.project.documents.index.isUndecoded(d))).toBe(true);
      let busy = true;
      const warming = s.project.afterStart.warm(() => busy);
      await new Promise((r) => setTimeout(r, 40));
      expect(docs.every((d) => s.project.documents.index.isUndecoded(d))).toBe(true);
      busy = false;
      expect(await warming).toBeGreaterThan(0);
      expect(docs.some((d) => s.project.documents.index.isUndecoded(d))).toBe(false);
    } finally {
      await s.stop();
    }
    // Always busy (a steady load): it still gets through, a slice at a time.
    const t = await startTestServer({ dir: made.dir });
    try {
      expect(await t.project.afterStart.warm(() => true)).toBeGreaterThan(0);
      for (const d of t.project.documents.index.documents('api::author.author'))
        expect(t.project.documents.index.isUndecoded(d)).toBe(false);
    } finally {
      await t.stop();
    }
  });

  it('a write to a document not decoded yet keeps its other values, in the answer and in the file', async () => {
    const s = await startTestServer({ dir: made.dir });
    try {
      const [doc] = s.project.documents.index.documents('api::author.author');
      expect(s.project.documents.index.isUndecoded(doc)).toBe(true);
      const before = JSON.parse(
        readFileSync(join(made.contentDir, 'documents', 'authors', `${doc.documentId}.json`), 'utf8'),
      );
      const res = await s.api(`/api/authors/${doc.documentId}`, {
        method: 'PUT',
        body: { data: { bio: 'Rewritten.' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: before.published.name,
        email: before.published.email,
        bio: 'Rewritten.',
        createdAt: before.published.createdAt,
      });
      expect(res.body.data.updatedAt).not.toBe(before.published.updatedAt);
      const after = JSON.parse(
        readFileSync(join(made.contentDir, 'documents', 'authors', `${doc.documentId}.json`), 'utf8'),
      );
      // Without draft & publish every write publishes: publishedAt moves with updatedAt.
      expect(after.published).toEqual({
        ...before.published,
        bio: 'Rewritten.',
        updatedAt: after.published.updatedAt,
        publishedAt: after.published.updatedAt,
      });
    } finally {
      await s.stop();
    }
  });

  it('deleting a document detaches it from documents that are not decoded yet', async () => {
    const s = await startTestServer({ dir: made.dir });
    try {
      const list = await s.api('/api/articles?populate=author&filters[author][$notNull]=true&pagination[pageSize]=1');
      const author = list.body.data[0].author.documentId as string;
      const sources = (
        await s.api(
          `/api/articles?filters[author][documentId][$eq]=${author}&status=draft&locale=*&pagination[pageSize]=100`,
        )
      ).body.data.map((a: { documentId: string }) => a.documentId) as string[];
      expect(sources.length).toBeGreaterThan(0);
      // Reading them decoded those rows; start again so the articles are waiting in the snapshot.
      await s.stop();
      const fresh = await startTestServer({ dir: made.dir });
      try {
        for (const id of sources)
          expect(
            fresh.project.documents.index.isUndecoded(fresh.project.documents.index.get('api::article.article', id)!),
          ).toBe(true);
        expect((await fresh.api(`/api/authors/${author}`, { method: 'DELETE' })).status).toBe(204);
        for (const id of sources) {
          const file = JSON.parse(readFileSync(join(made.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));
          for (const slot of Object.values(file.locales) as Array<Record<string, { author: unknown }>>) {
            for (const v of Object.values(slot)) expect(v.author).toBeNull();
          }
          const res = await fresh.api(`/api/articles/${id}?populate=author`);
          expect(res.body.data.author).toBeNull();
        }
      } finally {
        await fresh.stop();
      }
    } finally {
      await s.stop().catch(() => undefined);
    }
  });
});

describe('what changed on disk since the snapshot is read again', () => {
  const made = makeProject({ withExampleDocuments: true });
  const docs = (plural: string) => join(made.contentDir, 'documents', plural);
  const fileOf = (plural: string, id: string) => join(docs(plural), `${id}.json`);
  let total = 0;
  beforeAll(async () => {
    age(made.contentDir);
    total = await snapshot(made.dir);
  });
  afterAll(() => made.cleanup());

  it('an in-place edit of the same size, a new file, a deleted file and a broken file', async () => {
    // Same length and same inode: only the modification time tells.
    const [article, older, moved] = readdirSync(docs('articles'));
    const sameSize = (file: string, to: string) => {
      const text = readFileSync(file, 'utf8');
      const title = /"title": "([^"]+)"/.exec(text)![1];
      const out = text.replaceAll(`"title": "${title}"`, `"title": "${to.repeat(title.length)}"`);
      expect(Buffer.byteLength(out)).toBe(Buffer.byteLength(text));
      return out;
    };
    const path = join(docs('articles'), article);
    const inode = statSync(path).ino;
    writeFileSync(path, sameSize(path, 'Z'));
    expect(statSync(path).ino).toBe(inode);
    // Edited in place, then given an older time (as `rsync --inplace -t` or `touch -d` do): only the mtime tells.
    const olderPath = join(docs('articles'), older);
    writeFileSync(olderPath, sameSize(olderPath, 'Y'));
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(olderPath, longAgo, longAgo);
    // Replaced by another file of the same size and the same mtime (`cp -p` then `mv`): only the inode tells.
    const movedPath = join(docs('articles'), moved);
    const { mtime, mtimeMs } = statSync(movedPath);
    writeFileSync(`${movedPath}.new`, sameSize(movedPath, 'X'));
    utimesSync(`${movedPath}.new`, mtime, mtime);
    renameSync(`${movedPath}.new`, movedPath);
    expect(statSync(movedPath).mtimeMs).toBe(mtimeMs);
    // A new author, copied from an existing one.
    const [authorFile] = readdirSync(docs('authors'));
    const author = JSON.parse(readFileSync(join(docs('authors'), authorFile), 'utf8'));
    author.documentId = 'newauthorfromdisk0000001';
    author.published.name = 'Added While Down';
    writeFileSync(fileOf('authors', author.documentId), `${JSON.stringify(author, null, 2)}\n`);
    // A category removed, and a tag file broken.
    const [category] = readdirSync(docs('categories'));
    unlinkSync(join(docs('categories'), category));
    const [tag] = readdirSync(docs('tags'));
    writeFileSync(join(docs('tags'), tag), '{ "documentId": ');

    const { report, expected } = await compare(made.dir);
    expect(report.documents).toBe(total - 1 - 1 + 1);
    // Read again: the three edited articles and the broken tag; the new author was never recorded.
    expect(report.fromSnapshot).toBe(total - 5);
    expect(report.problems.map((p) => p.file)).toEqual([join(docs('tags'), tag)]);
    const titles = JSON.stringify(
      expected['/api/articles?status=draft&sort=title:asc&fields[0]=title&pagination[pageSize]=100'],
    );
    for (const letter of ['Z', 'Y', 'X']) expect(titles).toContain(`"${letter.repeat(8)}`);
    expect(JSON.stringify(expected['/api/authors?populate=articles'])).toContain('Added While Down');
  });

  it('a schema change makes the snapshot of that type stale (and only of that type)', async () => {
    const schemaFile = join(made.contentDir, 'types', 'article.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    schema.attributes.subtitle = { type: 'string' };
    writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
    age(made.contentDir);
    await snapshot(made.dir);
    schema.attributes.kicker = { type: 'string' };
    writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
    const articles = readdirSync(docs('articles')).length;
    const { report, expected } = await compare(made.dir);
    expect(report.fromSnapshot).toBe(report.documents - articles);
    const first = (expected['/api/articles?populate=*'] as { data: Array<Record<string, unknown>> }).data[0];
    expect(first).toHaveProperty('kicker', null);
  });
});

describe('a damaged or foreign snapshot is ignored', () => {
  const made = makeProject({ withExampleDocuments: true });
  // The files do not change from case to case: one snapshot, damaged each time from its bytes, and one
  // reference answer.
  let good: Buffer;
  let expected: Record<string, unknown>;
  beforeAll(async () => {
    age(made.contentDir);
    await snapshot(made.dir);
    good = readFileSync(SNAPSHOT(made.dir));
    const plain = await startTestServer({ dir: made.dir, load: { useSnapshot: false } });
    expected = await answers(plain);
    await plain.stop();
  });
  afterAll(() => made.cleanup());

  /** Answers of a server started over the snapshot `damage` leaves, and its load report. */
  async function startOver(damage: (file: string) => void) {
    writeFileSync(SNAPSHOT(made.dir), good);
    damage(SNAPSHOT(made.dir));
    const fast = await startTestServer({ dir: made.dir });
    try {
      return { actual: await answers(fast), report: fast.project.report };
    } finally {
      await fast.stop();
    }
  }

  it('is used when whole (so the cases below can tell)', async () => {
    const { actual, report } = await startOver(() => undefined);
    expect(actual).toEqual(expected);
    expect(report.documents).toBeGreaterThan(0);
    expect(report.fromSnapshot).toBe(report.documents);
  });

  it.each([
    ['truncated', (f: string) => truncateSync(f, Math.floor(statSync(f).size / 2))],
    ['garbage', (f: string) => writeFileSync(f, 'not a snapshot at all')],
    ['empty', (f: string) => writeFileSync(f, '')],
    [
      'another format',
      (f: string) =>
        writeFileSync(f, readFileSync(f).toString('latin1').replace('FOLIO-SNAPSHOT 3', 'FOLIO-SNAPSHOT 9'), 'latin1'),
    ],
    [
      'another Folio version',
      (f: string) =>
        writeFileSync(
          f,
          readFileSync(f)
            .toString('latin1')
            .replace(/"folioVersion":"[^"]+"/, '"folioVersion":"0.0.0-x"'),
          'latin1',
        ),
    ],
  ])('%s', async (_label, damage) => {
    const { actual, report } = await startOver(damage);
    expect(actual).toEqual(expected);
    expect(report.fromSnapshot).toBe(0);
    expect(report.problems).toEqual([]);
  });
});

describe('folio serve writes the snapshot for large projects and starts from it', { timeout: 60_000 }, () => {
  // Enough tags for the snapshot, for reading on worker threads at the first start (in two blocks of
  // BLOCK_FILES at least) and for taking the stamps on worker threads at the next: the project's thresholds
  // are set where the product's defaults (20,000) would need twenty times the files.
  const FROM = 1_000;
  const COUNT = 1_100;
  const made = makeProject({ config: { server: { snapshotFrom: FROM, readThreadsFrom: FROM } } });
  beforeAll(() => {
    expect(COUNT).toBeGreaterThan(BLOCK_FILES);
    const dir = join(made.contentDir, 'documents', 'tags');
    mkdirSync(dir, { recursive: true });
    const ts = '2025-01-01T00:00:00.000Z';
    for (let i = 0; i < COUNT; i++) {
      const documentId = `tag${String(i).padStart(21, '0')}`;
      // The last 100 reuse ids 1-100 (as after merging two branches): they are renumbered at load.
      const id = i < FROM ? i + 1 : i - FROM + 1;
      writeFileSync(
        join(dir, `${documentId}.json`),
        `${JSON.stringify(
          { documentId, published: { id, name: `tag ${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts } },
          null,
          2,
        )}\n`,
      );
    }
    // Two bad files among them: reported, never served, never recorded.
    writeFileSync(join(dir, 'zzzbroken.json'), '{ "documentId": "zzzbroken", ');
    writeFileSync(join(dir, 'Not-An-Id.json'), '{}');
    age(made.contentDir);
    // Anonymous readers may list tags here.
    const permissionsFile = join(made.contentDir, 'permissions.json');
    const permissions = JSON.parse(readFileSync(permissionsFile, 'utf8'));
    permissions.roles.public.permissions.push('api::tag.tag.find');
    writeFileSync(permissionsFile, `${JSON.stringify(permissions, null, 2)}\n`);
  });
  const children: Array<ReturnType<typeof spawn>> = [];
  // A failed assertion must not leave a server running.
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    made.cleanup();
  });

  async function serve(extra: string[] = []) {
    const child = spawn('node', [BIN, 'serve', '--port', '0', '--no-watch', '--dir', made.dir, ...extra], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/[^\s]+)\/api\b/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code}: ${out}`));
      });
    });
    const stop = async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    };
    return { url, stop, banner: () => out, errors: () => err };
  }

  const tags = async (url: string) => {
    const res = await fetch(`${url}/api/tags?sort=name:desc&pagination[pageSize]=2`);
    return res.json() as Promise<{
      data: Array<{ id: number; name: string }>;
      meta: { pagination: { total: number } };
    }>;
  };

  it('writes it after the first start, then indexes from it; --no-snapshot reads every file', async () => {
    const first = await serve();
    expect(first.banner()).not.toContain('start-up snapshot');
    expect(first.errors()).toContain('2 problem(s) while loading');
    expect(first.errors()).toContain('zzzbroken.json');
    expect(first.errors()).toContain('Not-An-Id.json: the file name must be a documentId');
    // Asked first, a plain list reads rows by id without making every document (see
    // DocumentIndex.addSummary): its first and last pages, renumbered clashes included, are checked
    // against a plain read below.
    const pages = [
      '/api/tags?pagination[pageSize]=5',
      `/api/tags?pagination[pageSize]=5&pagination[page]=${COUNT / 5}`,
    ];
    const lazyPages: unknown[] = [];
    for (const page of pages) lazyPages.push(await (await fetch(`${first.url}${page}`)).json());
    // The last 100 give their ids up to the files that come first, and get ids of their own (renumberedId).
    const renumbered = Array.from({ length: COUNT - FROM }, (_, k) => {
      const documentId = `tag${String(FROM + k).padStart(21, '0')}`;
      return { id: renumberedId({ documentId, locale: null, status: 'published' }), name: `tag ${FROM + k}` };
    }).sort((a, b) => a.id - b.id);
    expect((lazyPages[1] as { data: Array<{ id: number }> }).data.map((d) => d.id)).toEqual(
      renumbered.slice(-5).map((r) => r.id),
    );
    const answer = await tags(first.url);
    expect(answer.meta.pagination.total).toBe(COUNT);
    // String order: "tag 999" sorts above "tag 1099".
    expect(answer.data.map((d) => [d.id, d.name])).toEqual([
      [1000, 'tag 999'],
      [999, 'tag 998'],
    ]);
    // Read on worker threads, the documents and their ids (clashes renumbered) are what a plain read gives.
    const byId = '/api/tags?sort=id:desc&fields[0]=name&pagination[pageSize]=100';
    const threaded = (await (await fetch(`${first.url}${byId}`)).json()) as {
      data: Array<{ id: number; name: string }>;
    };
    expect(threaded.data[0]).toMatchObject(renumbered[renumbered.length - 1]);
    const plain = await startTestServer({ dir: made.dir, load: { useSnapshot: false } });
    try {
      expect((await plain.api(byId)).body.data).toEqual(threaded.data);
      for (const [k, page] of pages.entries()) expect((await plain.api(page)).body, page).toEqual(lazyPages[k]);
    } finally {
      await plain.stop();
    }
    for (let i = 0; i < 200 && !existsSync(SNAPSHOT(made.dir)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(SNAPSHOT(made.dir))).toBe(true);
    await first.stop();

    const second = await serve();
    expect(second.errors()).toContain('2 problem(s) while loading');
    expect(second.banner()).toContain(`(${COUNT} documents, `);
    expect(second.banner()).toContain(`${COUNT} from the start-up snapshot`);
    expect(await tags(second.url)).toEqual(answer);
    await second.stop();

    const third = await serve(['--no-snapshot']);
    expect(third.banner()).not.toContain('start-up snapshot');
    expect(await tags(third.url)).toEqual(answer);
    await third.stop();
  });

  const rewrittenTitle =
    'does not record a file read on a thread and rewritten before the snapshot is built, even with its mtime put back';
  it(rewrittenTitle, async () => {
    // The compiled build: its reader threads read without stamps, which are taken when the snapshot is built.
    const built = (await import(
      pathToFileURL(join(REPO, 'dist', 'project.js')).href
    )) as typeof import('../src/project.js');
    rmSync(SNAPSHOT(made.dir), { force: true });
    // Aging the files set their ctimes: those must be older than the reads by the clock margin.
    await new Promise((r) => setTimeout(r, 250));
    const reading = await countingThreads(() => built.openProject(made.dir, { load: { capture: true } }));
    expect(reading.threads).toBeGreaterThan(0);
    const first = reading.value;
    expect(first.afterStart.snapshotPending).toBe(true);
    // Rewritten in place after it was read: same size, same inode, and its old mtime put back (as rsync -t
    // or a restore might). Only its ctime tells.
    const file = join(made.contentDir, 'documents', 'tags', `tag${String(5).padStart(21, '0')}.json`);
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"tag 5"', '"gat 5"'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino });
    await first.afterStart.writeSnapshot();
    expect(existsSync(SNAPSHOT(made.dir))).toBe(true);

    // Restarted from the snapshot: the files' stamps are taken on threads.
    const stamping = await countingThreads(() => built.openProject(made.dir, { load: { capture: true } }));
    expect(stamping.threads).toBeGreaterThan(0);
    const next = stamping.value;
    expect(next.report.fromSnapshot).toBe(COUNT - 1);
    const [doc] = [...next.documents.index.documents('api::tag.tag')].filter((d) => d.documentId.endsWith('05'));
    expect(doc.slots.get('')?.published?.data.name).toBe('gat 5');
  });

  const decodesTitle =
    'decodes a document read on a thread from its file when first used, and indexes it again if the file changed since';
  it(decodesTitle, async () => {
    // The compiled build reads on threads; loading for a snapshot (as a server does), they keep no texts:
    // values come from the files when first read.
    const built = (await import(
      pathToFileURL(join(REPO, 'dist', 'project.js')).href
    )) as typeof import('../src/project.js');
    const project = await built.openProject(made.dir, { load: { useSnapshot: false, capture: true } });
    const { index } = project.documents;
    const uid = 'api::tag.tag';
    const idOf = (i: number) => `tag${String(i).padStart(21, '0')}`;
    const fileOf = (i: number) => join(made.contentDir, 'documents', 'tags', `${idOf(i)}.json`);
    const ts = '2025-01-01T00:00:00.000Z';
    const body = (i: number, id: number, name: string) =>
      `${JSON.stringify(
        { documentId: idOf(i), published: { id, name, createdAt: ts, updatedAt: ts, publishedAt: ts } },
        null,
        2,
      )}\n`;
    const saved = [7, 8, 9].map((i) => readFileSync(fileOf(i), 'utf8'));
    try {
      const [six, seven, eight, nine] = [6, 7, 8, 9].map((i) => index.get(uid, idOf(i))!);
      expect([six, seven, eight, nine].map((d) => index.isUndecoded(d))).toEqual([true, true, true, true]);
      expect(six.slots.get('')?.published?.data.name).toBe('tag 6');
      expect(index.isUndecoded(six)).toBe(false);

      // The same versions, another value: what the file holds now.
      writeFileSync(fileOf(8), body(8, 9, 'eight'));
      expect(eight.slots.get('')?.published?.data.name).toBe('eight');
      expect(index.get(uid, idOf(8))).toBe(eight);

      // Other versions than it was indexed with (another id), or gone: indexed again from the file.
      writeFileSync(fileOf(7), body(7, 99_999, 'seven'));
      rmSync(fileOf(9));
      const stale = seven;
      expect(stale.slots.get('')?.published?.id).toBe(8);
      void stale.slots.get('')?.published?.data;
      void nine.slots.get('')?.published?.data;
      await project.documents.idle();
      const now = index.get(uid, idOf(7))!;
      expect(now).not.toBe(stale);
      expect(now.slots.get('')?.published).toMatchObject({ id: 99_999, data: { name: 'seven' } });
      expect(index.byId(uid, 99_999)?.documentId).toBe(idOf(7));
      expect(index.get(uid, idOf(9))).toBeUndefined();
    } finally {
      [7, 8, 9].forEach((i, k) => writeFileSync(fileOf(i), saved[k]));
    }

    // Loading once (a command), the threads keep the texts they read: values are those of the start.
    const once = await built.openProject(made.dir, { load: { useSnapshot: false } });
    const eight = once.documents.index.get(uid, idOf(8))!;
    expect(once.documents.index.isUndecoded(eight)).toBe(true);
    try {
      writeFileSync(fileOf(8), body(8, 9, 'eight'));
      expect(eight.slots.get('')?.published?.data.name).toBe('tag 8');
    } finally {
      writeFileSync(fileOf(8), saved[1]);
    }
  });
});
