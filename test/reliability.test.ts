import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, utimesSync, watch } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { makeProject, startTestServer, REPO, type TestServer } from './helpers/project.js';
import { openProject } from '../src/project.js';
import { parseQueryString } from '../src/query/parse-qs.js';
import { parseReadQuery } from '../src/query/read.js';
import { parseInput } from '../src/documents/input.js';
import { FolioError } from '../src/errors.js';
import { TEMP_MARK } from '../src/store/atomic.js';

const jsonFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith(TEMP_MARK)) : [];

describe('concurrent writes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('serialises parallel PUTs to one document: no acknowledged write is lost, file and index agree', async () => {
    const id = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Race', views: 0 } } })).body.data
      .documentId;
    const tags = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        s.api('/api/tags', { method: 'POST', body: { data: { name: `race-${i}` } } }),
      ),
    );
    const tagIds = tags.map((t) => t.body.data.documentId as string);
    // Each PUT connects one more tag: a lost update (two writes from the same old state) would drop a tag.
    const results = await Promise.all(
      tagIds.map((tag, i) =>
        s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: { views: i + 1, tags: { connect: [tag] } } } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const served = (await s.api(`/api/articles/${id}?populate=tags&pagination[pageSize]=100`)).body.data;
    expect(served.tags.map((t: { documentId: string }) => t.documentId).sort()).toEqual([...tagIds].sort());
    const onDisk = JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales
      .en;
    expect([...onDisk.published.tags].sort()).toEqual([...tagIds].sort());
    expect([...onDisk.draft.tags].sort()).toEqual([...tagIds].sort());
    expect(onDisk.published.views).toBe(served.views);
    const reloaded = await openProject(s.dir);
    expect(reloaded.documents.findVersion(reloaded.schemas.find('article')!, id, 'published', 'en')!.data.views).toBe(
      served.views,
    );
  });

  it('keeps every acknowledged create and delete under parallel load', async () => {
    const creates = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        s.api('/api/tags', { method: 'POST', body: { data: { name: `tag-${i}` } } }),
      ),
    );
    expect(creates.every((r) => r.status === 201)).toBe(true);
    const ids = creates.map((r) => r.body.data.documentId as string);
    const deleted = ids.filter((_, i) => i % 3 === 0);
    const mixed = await Promise.all([
      ...deleted.map((id) => s.api(`/api/tags/${id}`, { method: 'DELETE' })),
      ...ids
        .filter((_, i) => i % 3 === 1)
        .map((id) => s.api(`/api/tags/${id}`, { method: 'PUT', body: { data: { name: `renamed-${id}` } } })),
    ]);
    expect(mixed.every((r) => r.status === 204 || r.status === 200)).toBe(true);
    const mine = new Set(ids);
    const files = jsonFiles(join(s.contentDir, 'documents', 'tags'))
      .map((f) => f.slice(0, -5))
      .filter((id) => mine.has(id))
      .sort();
    expect(files).toEqual(ids.filter((id) => !deleted.includes(id)).sort());
    const listed = (await s.api('/api/tags?pagination[pageSize]=100')).body.data
      .map((t: { documentId: string }) => t.documentId)
      .filter((id: string) => mine.has(id))
      .sort();
    expect(listed).toEqual(files);
  });

  it("takes writes from the CLI in another process at the same time as the server's", async () => {
    const cli = Promise.all(
      Array.from(
        { length: 5 },
        (_, i) =>
          new Promise<number>((resolve) => {
            const child = spawn('node', [
              join(REPO, 'bin', 'folio'),
              'docs',
              'create',
              'categories',
              '--dir',
              s.dir,
              '--data',
              JSON.stringify({ name: `cli-${i}` }),
            ]);
            child.on('exit', (code) => resolve(code ?? 1));
          }),
      ),
    );
    const api = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.api('/api/categories', { method: 'POST', body: { data: { name: `api-${i}` } } }),
      ),
    );
    const [codes, answers] = await Promise.all([cli, api]);
    expect(codes.every((c) => c === 0)).toBe(true);
    expect(answers.every((r) => r.status === 201)).toBe(true);
    const names = jsonFiles(join(s.contentDir, 'documents', 'categories')).map(
      (f) => JSON.parse(readFileSync(join(s.contentDir, 'documents', 'categories', f), 'utf8')).published.name,
    );
    expect(names.filter((n: string) => n.startsWith('cli-'))).toHaveLength(5);
    expect(names.filter((n: string) => n.startsWith('api-'))).toHaveLength(20);
  });
});

/** Whether write stamp a (`pid-n`) came after b: a later process, or the same one further on. */
const laterThan = (a: string, b: string) => {
  const [pa, na] = a.split('-').map(Number);
  const [pb, nb] = b.split('-').map(Number);
  return pa === pb ? na > nb : order.indexOf(pa) > order.indexOf(pb);
};
const order: number[] = [];
/**
 * Where in its write loop each writer is killed, in turn: as a temp file appears (it is killed writing it),
 * as a document file appears (renamed into place, its write not yet acknowledged), and at a random moment
 * (between writes, or taking or giving back the write lock).
 */
const KILL_MOMENTS = ['temp file', 'document file', 'random'] as const;
const KILL_ROUNDS = 9;

describe('crash safety', () => {
  it('leaves every file old-or-new when a writer is killed mid-write, and keeps every acknowledged write', async () => {
    const project = makeProject();
    try {
      const acked = new Map<string, string>();
      const dir = join(project.contentDir, 'documents', 'authors');
      let watchedKills = 0;
      for (let round = 0; round < KILL_ROUNDS; round++) {
        const moment = KILL_MOMENTS[round % KILL_MOMENTS.length];
        const child = spawn('node', [join(REPO, 'test', 'helpers', 'crash-writer.mjs'), project.dir]);
        order.push(child.pid!);
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        let buffer = '';
        let stderr = '';
        let writing: () => void;
        const written = new Promise<void>((r) => (writing = r));
        child.stderr.on('data', (c) => (stderr += c));
        child.stdout.on('data', (c) => {
          buffer += c;
          let nl;
          while ((nl = buffer.indexOf('\n')) !== -1) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            const m = /^ack (\w+) (\S+)$/.exec(line);
            if (m) acked.set(m[1], m[2]);
            if (m) writing();
          }
        });
        // Once the writer is in its write loop (it acknowledged a write), the kill lands at this round's moment.
        await Promise.race([written, exited]);
        if (child.exitCode !== null) expect.fail(`the writer exited (${child.exitCode}): ${stderr}`);
        if (moment === 'random') await new Promise((r) => setTimeout(r, Math.random() * 30));
        else
          await new Promise<void>((resolve) => {
            const now = (seen: boolean) => {
              if (seen) watchedKills++;
              child.kill('SIGKILL');
              watcher.close();
              clearTimeout(timer);
              resolve();
            };
            const watcher = watch(dir, (_event, name) => {
              if (String(name).startsWith(TEMP_MARK) === (moment === 'temp file')) now(true);
            });
            // The writer writes without pause: its next file comes within milliseconds, this is a backstop.
            const timer = setTimeout(() => now(false), 2000);
          });
        child.kill('SIGKILL');
        await exited;
      }
      expect(acked.size).toBeGreaterThan(0);
      // The backstop alone would leave the moments untested.
      expect(watchedKills, 'kills at the moment watched for').toBeGreaterThan(0);
      for (const f of jsonFiles(dir)) expect(() => JSON.parse(readFileSync(join(dir, f), 'utf8'))).not.toThrow();
      const reopened = await openProject(project.dir);
      expect(reopened.report.problems).toEqual([]);
      const ct = reopened.schemas.find('author')!;
      for (const [id, stamp] of acked) {
        const v = reopened.documents.findVersion(ct, id, 'published', undefined);
        expect(v, `acknowledged ${id} is missing`).toBeDefined();
        // The last acknowledged write of each document is on disk (a later, unacknowledged one may be too).
        const bio = String(v!.data.bio);
        const onDisk = bio.split(' ')[0];
        if (stamp !== 'start')
          expect(
            onDisk === stamp || laterThan(onDisk, stamp),
            `${id}: ${onDisk} is older than acknowledged ${stamp}`,
          ).toBe(true);
      }
    } finally {
      project.cleanup();
    }
  }, 60_000);

  it('removes stray temp files at start and loads the rest', async () => {
    const project = makeProject();
    try {
      const dir = join(project.contentDir, 'documents', 'tags');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${TEMP_MARK}abc.json.123`), '{"half":');
      const old = new Date(Date.now() - 120_000);
      utimesSync(join(dir, `${TEMP_MARK}abc.json.123`), old, old);
      writeFileSync(join(dir, `${TEMP_MARK}live.json.456`), '{"being written":');
      const p = await openProject(project.dir);
      // The old stray goes; a fresh one may belong to a writer in another process and stays.
      expect(readdirSync(dir)).toEqual([`${TEMP_MARK}live.json.456`]);
      expect(p.report.problems).toEqual([]);
    } finally {
      project.cleanup();
    }
  });
});

describe('disk failures', () => {
  const failedWriteTitle =
    'answers a failed write with a 5xx that says so, leaves no partial file, and keeps the in-memory state';
  it(failedWriteTitle, async () => {
    const s = await startTestServer();
    try {
      const id = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Before' } } })).body.data
        .documentId;
      const store = s.project.documents.store as unknown as { write: (...a: unknown[]) => Promise<void> };
      const original = store.write.bind(store);
      store.write = async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      };
      const res = await s.api(`/api/authors/${id}`, { method: 'PUT', body: { data: { name: 'After' } } });
      expect(res.status).toBe(507);
      expect(res.body.error.message).toMatch(/cannot be written \(ENOSPC\)/);
      const created = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Never' } } });
      expect(created.status).toBe(507);
      store.write = original;
      expect((await s.api(`/api/authors/${id}`)).body.data.name).toBe('Before');
      const names = (await s.api('/api/authors')).body.data.map((a: { name: string }) => a.name);
      expect(names).toEqual(['Before']);
      expect(readdirSync(join(s.contentDir, 'documents', 'authors'))).toEqual([`${id}.json`]);
    } finally {
      await s.stop();
    }
  });
});

describe('hostile input (property-based)', () => {
  const project = makeProject();
  let ctx: Parameters<typeof parseReadQuery>[0];
  let reg: Awaited<ReturnType<typeof openProject>>;
  beforeAll(async () => {
    reg = await openProject(project.dir);
    ctx = {
      schemas: reg.schemas,
      index: reg.documents.index,
      config: reg.config,
      media: reg.documents.media,
      canFind: () => true,
    };
  });
  afterAll(() => project.cleanup());

  const key = fc.oneof(
    fc.constantFrom(
      'filters',
      'sort',
      'fields',
      'populate',
      'pagination',
      'locale',
      'status',
      '__proto__',
      'constructor',
      '$or',
      '$in',
      'title',
      'author',
      '[',
      ']',
      '%5B',
    ),
    fc.string({ maxLength: 8 }),
  );
  const segment = fc.array(key, { minLength: 1, maxLength: 25 }).map(
    (ks) =>
      ks[0] +
      ks
        .slice(1)
        .map((k) => `[${k}]`)
        .join(''),
  );
  const pair = fc
    .tuple(
      segment,
      fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', 'null', '1e400', '-1', 'abc', '*', 'title:desc')),
    )
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  const queryString = fc.array(pair, { maxLength: 30 }).map((ps) => ps.join('&'));

  it('answers every query string with a result or a 400, never a crash or a polluted prototype', () => {
    fc.assert(
      fc.property(queryString, (qs) => {
        try {
          const q = parseQueryString(qs);
          parseReadQuery(ctx, reg.schemas.find('article')!, q, 'find');
        } catch (err) {
          if (!(err instanceof FolioError) || err.status !== 400) throw err;
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('title');
      }),
      { numRuns: 400 },
    );
  });

  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string({ maxLength: 10 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom('__proto__', 'id', 'title', 'seo', 'blocks', '__component', 'connect', 'views'),
          fc.string({ maxLength: 6 }),
        ),
        tie('value'),
        { maxKeys: 4 },
      ),
    ),
  })).value;

  it('answers every write body with a parsed value or a 4xx error', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'title',
            'views',
            'rating',
            'featured',
            'publishDate',
            'seo',
            'links',
            'blocks',
            'tags',
            'author',
            'body',
            'slug',
            'nope',
            '__proto__',
          ),
          json,
          { maxKeys: 6 },
        ),
        (data) => {
          try {
            parseInput(reg.schemas, reg.schemas.find('article')!.attributes, data);
          } catch (err) {
            if (!(err instanceof FolioError) || err.status >= 500) throw err;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each([
    ['a deeply nested filter', `filters${'[$and][0]'.repeat(30)}[title]=x`, /^Invalid key \[\$and\]\[0\]/],
    [
      'a huge $in list',
      `filters[title][$in]=${Array.from({ length: 500 }, (_, i) => `x${i}`).join('&filters[title][$in]=')}`,
      /^Invalid filters\[title\]\[\$in\]: expected an array of at most 100 values$/,
    ],
    [
      'too many parameters',
      Array.from({ length: 1500 }, (_, i) => `a${i}=1`).join('&'),
      /^Too many query parameters \(1500, at most 1000\)$/,
    ],
    [
      'numbers past safe range',
      'filters[views][$gt]=1e400',
      /^Invalid filters\[views\]\[\$gt\]: "1e400" is not a number$/,
    ],
  ])('refuses %s over HTTP with a 400 and stays up', async (_l, qs, message) => {
    const s = await startTestServer();
    try {
      const res = await s.api(`/api/articles?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.message).toMatch(message);
      expect((await s.api('/api/articles')).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('drops a prototype key from the query, as qs does: the list is unfiltered and no object is polluted', async () => {
    const s = await startTestServer();
    try {
      await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Listed' } } });
      const res = await s.api('/api/articles?filters[__proto__][polluted]=1&fields[0]=title');
      expect(res.status).toBe(200);
      expect(res.body.data.map((a: { title: string }) => a.title)).toEqual(['Listed']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    } finally {
      await s.stop();
    }
  });
});
