import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { runFolio } from './helpers/cli.js';
import { eventually } from './helpers/eventually.js';

/** `folio` in a process of its own, as a user runs it beside the server. */
const folio = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('node', [BIN, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hand-edited JSON, of any shape
type Json = Record<string, any>;

/** The hand edits of issue 21 item 8, each to an English draft of an article. */
const INVALID: Array<[string, (v: Json, doc: Json) => void, RegExp]> = [
  ['views "abc"', (v) => (v.views = 'abc'), /views must be a `number`/],
  ['rating {}', (v) => (v.rating = {}), /rating must be a `number`/],
  ['a 500-character title', (v) => (v.title = 'x'.repeat(500)), /title must be at most 120 characters/],
  ['tags "notalist"', (v) => (v.tags = 'notalist'), /tags must be a list of documentIds/],
  ['a bad date', (v) => (v.publishDate = '2024-13-45'), /publishDate: Invalid format, expected yyyy-MM-dd/],
  ['id "abc"', (v) => (v.id = 'abc'), /id must be a positive integer/],
  ['an unconfigured locale', (_v, doc) => (doc.locales.de = doc.locales.en), /locale "de" is not configured/],
];

describe('the API follows the files', () => {
  let s: TestServer;
  let watcher: Watcher;
  const problems: string[] = [];
  let reloads = 0;
  beforeAll(async () => {
    s = await startTestServer({ withExampleDocuments: true });
    watcher = await watchProject(s.project, {
      onReload: () => reloads++,
      onChange: (c) => {
        if (c.problem) problems.push(`${c.file}: ${c.problem}`);
      },
    });
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });
  const docFile = (plural: string, id: string) => join(s.contentDir, 'documents', plural, `${id}.json`);
  const idsOf = (plural: string) =>
    readdirSync(join(s.contentDir, 'documents', plural))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();

  it('serves a file moved away and moved back byte for byte again (item 5)', async () => {
    const r = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Moved Around' } } });
    expect(r.status).toBe(201);
    const id = r.body.data.documentId as string;
    await s.project.documents.idle();
    const file = docFile('authors', id);
    const away = join(tmpdir(), `folio-drift-${id}.json`);
    renameSync(file, away);
    await eventually(async () => (await s.api(`/api/authors/${id}`)).status === 404, 'moved away: 404');
    renameSync(away, file);
    await eventually(async () => (await s.api(`/api/authors/${id}`)).status === 200, 'moved back: 200');
    expect((await s.api(`/api/authors/${id}`)).body.data.name).toBe('Moved Around');
  });

  it('follows documents written by the CLI in another process (item 5)', async () => {
    const created = await folio([
      'docs',
      'create',
      'categories',
      '--json',
      '--data',
      '{"name":"From the CLI"}',
      '--dir',
      s.dir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).data.documentId as string;
    await eventually(async () => (await s.api(`/api/categories/${id}`)).status === 200, 'created by the CLI: 200');
    const deleted = await folio(['docs', 'delete', 'categories', id, '--dir', s.dir]);
    expect(deleted.code, deleted.stderr).toBe(0);
    await eventually(async () => (await s.api(`/api/categories/${id}`)).status === 404, 'deleted by the CLI: 404');
  });

  it('checks the folder listing after many changes: a change the watcher never saw is caught up (item 5)', async () => {
    // Events lost (the kernel's queue overflows on a switch of tens of thousands of files) are simulated by
    // dropping one document from the index behind the watcher's back.
    const [lost] = idsOf('tags');
    const ct = s.project.schemas.byPluralName('tags')!;
    s.project.documents.index.remove(ct.uid, lost);
    expect((await s.api(`/api/tags/${lost}`)).status).toBe(404);
    const dir = join(s.contentDir, 'documents', 'tags');
    const made: string[] = [];
    for (let i = 0; i < 80; i++) {
      const id = `manytags${String(i).padStart(16, '0')}`;
      const at = '2024-01-01T00:00:00.000Z';
      const body = {
        documentId: id,
        published: { id: 9000 + i, name: `t${i}`, createdAt: at, updatedAt: at, publishedAt: at },
      };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(body));
      made.push(id);
    }
    await eventually(async () => (await s.api(`/api/tags/${lost}`)).status === 200, 'the lost document is back');
    for (const id of made) expect((await s.api(`/api/tags/${id}`)).status).toBe(200);
  });

  it('keeps the last good schema set while a schema is broken, and says what is wrong (item 7)', async () => {
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const p of ['articles', 'authors', 'categories', 'tags']) {
        const r = await s.api(`/api/${p}?status=draft`);
        out[p] = r.status === 200 ? r.body.meta.pagination.total : -r.status;
      }
      return out;
    };
    const before = await counts();
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const tagFile = join(s.contentDir, 'types', 'tag.json');
    const good = readFileSync(tagFile, 'utf8');
    problems.length = 0;
    writeFileSync(tagFile, good.slice(0, 40));
    await eventually(() => problems.some((p) => p.includes('tag.json')), 'the broken schema is reported');
    expect(problems.join('\n')).toMatch(/keeping the last good schemas/);
    expect(await counts()).toEqual(before);

    // Another schema changed meanwhile is applied once the broken one is fixed.
    const authorFile = join(s.contentDir, 'types', 'author.json');
    const author = JSON.parse(readFileSync(authorFile, 'utf8'));
    author.attributes.nickname = { type: 'string' };
    writeFileSync(authorFile, JSON.stringify(author, null, 2));
    writeFileSync(tagFile, good);
    const [anAuthor] = idsOf('authors');
    await eventually(
      async () => 'nickname' in ((await s.api(`/api/authors/${anAuthor}`)).body.data ?? {}),
      'the fixed schema set is served',
    );
    expect(await counts()).toEqual(before);

    // A schema renamed away from its singular name is a broken one too.
    problems.length = 0;
    const renamed = join(s.contentDir, 'types', 'label.json');
    renameSync(tagFile, renamed);
    await eventually(() => problems.some((p) => p.includes('label.json')), 'the renamed schema is reported');
    expect(await counts()).toEqual(before);
    const reloaded = reloads;
    renameSync(renamed, tagFile);
    await eventually(() => reloads > reloaded, 'the schemas are reloaded');
  });

  it('keeps the last good version of a document hand-edited into an invalid one, and reports it (item 8)', async () => {
    const [id] = idsOf('articles');
    const file = docFile('articles', id);
    const good = readFileSync(file, 'utf8');
    const served = async () => (await s.api(`/api/articles/${id}?status=draft&locale=en`)).body.data as Json;
    const before = await served();
    for (const [what, edit, message] of INVALID) {
      problems.length = 0;
      const doc = JSON.parse(good);
      edit(doc.locales.en.draft, doc);
      writeFileSync(file, JSON.stringify(doc, null, 2));
      await eventually(() => problems.some((p) => p.includes(id) && message.test(p)), `${what} is reported`);
      expect(await served(), what).toEqual(before);
      expect((await s.api(`/api/articles/${id}?status=draft&locale=de`)).status, what).toBe(404);
    }
    // A schema reload keeps it too (the file is still invalid).
    const reloaded = reloads;
    const authorFile = join(s.contentDir, 'types', 'author.json');
    writeFileSync(authorFile, `${readFileSync(authorFile, 'utf8').trim()}\n\n`);
    await eventually(() => reloads > reloaded, 'the schemas are reloaded');
    expect(await served()).toEqual(before);
    // A write over the invalid file is refused and leaves it as it is: its values never come back through the API,
    // and the hand edit is not lost either.
    const invalidText = readFileSync(file, 'utf8');
    const put = await s.api(`/api/articles/${id}?locale=en`, { method: 'PUT', body: { data: { featured: true } } });
    expect(put.status).toBe(409);
    expect(put.body.error.message).toMatch(/fix it before writing to it/);
    expect(readFileSync(file, 'utf8')).toBe(invalidText);
    const written = JSON.parse(good);
    // A valid hand edit is still followed.
    written.locales.en.draft.views = 4242;
    writeFileSync(file, JSON.stringify(written, null, 2));
    await eventually(async () => (await served()).views === 4242, 'a valid edit is served');
  });
});

describe('checks at start and in folio validate', () => {
  it('does not serve an invalid document file at start, and reports it (item 8)', async () => {
    const p = makeProject({ withExampleDocuments: true });
    const dir = join(p.contentDir, 'documents', 'articles');
    const [id] = readdirSync(dir).sort();
    const doc = JSON.parse(readFileSync(join(dir, id), 'utf8'));
    doc.locales.en.draft.views = 'abc';
    writeFileSync(join(dir, id), JSON.stringify(doc, null, 2));
    const s = await startTestServer({ dir: p.dir });
    try {
      expect((await s.api(`/api/articles/${id.slice(0, -5)}?status=draft`)).status).toBe(404);
      expect(s.project.report.problems.map((x) => `${x.file}: ${x.message}`).join('\n')).toMatch(
        new RegExp(`${id}: locales\\.en\\.draft\\.views: views must be a \`number\``),
      );
    } finally {
      await s.stop();
      p.cleanup();
    }
  });

  it('takes out a document found invalid once decoded from the start-up snapshot (item 8)', async () => {
    const p = makeProject({ withExampleDocuments: true, config: { server: { snapshotFrom: 1 } } });
    try {
      // Files modified just before a start are not trusted to a snapshot (coarse file clocks): age them.
      const old = new Date(Date.now() - 60_000);
      for (const plural of readdirSync(join(p.contentDir, 'documents')))
        for (const f of readdirSync(join(p.contentDir, 'documents', plural)))
          utimesSync(join(p.contentDir, 'documents', plural, f), old, old);
      const first = await startTestServer({ dir: p.dir, load: { capture: true } });
      await first.project.afterStart.warm();
      expect(first.project.afterStart.snapshotPending).toBe(true);
      await first.project.afterStart.writeSnapshot();
      await first.stop();
      // French is no longer configured: the snapshot still records French versions.
      const configFile = join(p.contentDir, 'folio.json');
      const config = JSON.parse(readFileSync(configFile, 'utf8'));
      config.locales = [{ code: 'en', name: 'English (en)' }];
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      const french = readdirSync(join(p.contentDir, 'documents', 'articles'))
        .filter((f) => 'fr' in JSON.parse(readFileSync(join(p.contentDir, 'documents', 'articles', f), 'utf8')).locales)
        .map((f) => f.slice(0, -5));
      expect(french.length).toBeGreaterThan(0);
      const s = await startTestServer({ dir: p.dir, load: { capture: true } });
      try {
        expect(s.project.report.fromSnapshot).toBeGreaterThan(0);
        await s.project.afterStart.warm();
        await s.project.documents.idle();
        for (const id of french) expect((await s.api(`/api/articles/${id}?status=draft`)).status).toBe(404);
        const reported = s.project.report.problems.map((x) => `${x.file}: ${x.message}`).join('\n');
        for (const id of french) expect(reported).toMatch(new RegExp(`${id}\\.json: locales\\.fr: locale "fr" is not`));
      } finally {
        await s.stop();
      }
    } finally {
      p.cleanup();
    }
  });

  it('folio validate reports every hand-edited invalid value (item 8)', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const dir = join(p.contentDir, 'documents', 'articles');
      const files = readdirSync(dir).sort();
      INVALID.forEach(([, edit], i) => {
        const doc = JSON.parse(readFileSync(join(dir, files[i]), 'utf8'));
        edit(doc.locales.en.draft, doc);
        writeFileSync(join(dir, files[i]), JSON.stringify(doc, null, 2));
      });
      const r = await runFolio(['validate', '--dir', p.dir]);
      expect(r.code).toBe(1);
      INVALID.forEach(([what, , message], i) => {
        const line = r.stdout.split('\n').find((l) => l.includes(files[i]) && message.test(l));
        expect(line, `${what}:\n${r.stdout}`).toBeDefined();
      });
    } finally {
      p.cleanup();
    }
  });

  it('ignores temp files in folio validate, and the CLI removes stale ones (item 10)', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const old = new Date(Date.now() - 60_000);
      const leftovers = ['documents/tags', 'types'].map((folder) => {
        const dir = join(p.contentDir, folder);
        const fresh = join(dir, '.folio-tmp-fresh.json.123abc');
        const stale = join(dir, '.folio-tmp-stale.json.456def');
        writeFileSync(fresh, '{');
        writeFileSync(stale, '{"documentId":');
        utimesSync(stale, old, old);
        return { fresh, stale };
      });
      const r = await runFolio(['validate', '--dir', p.dir]);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(0);
      for (const { fresh, stale } of leftovers) {
        expect(existsSync(stale), stale).toBe(false);
        expect(existsSync(fresh), fresh).toBe(true);
      }
    } finally {
      p.cleanup();
    }
  });

  it('types list shows a broken schema file and keeps the other types (item 7)', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const tagFile = join(p.contentDir, 'types', 'tag.json');
      writeFileSync(tagFile, readFileSync(tagFile, 'utf8').slice(0, 40));
      const r = await runFolio(['types', 'list', '--dir', p.dir]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/types\/tag\.json.*cannot read schema/);
      for (const uid of ['api::about.about', 'api::author.author', 'api::category.category', 'api::global.global'])
        expect(r.stdout).toContain(uid);
      const json = JSON.parse((await runFolio(['types', 'list', '--json', '--dir', p.dir])).stdout) as Json[];
      expect(json.find((t) => t.file === 'types/tag.json')?.problem).toMatch(/cannot read schema/);
      expect(json.find((t) => t.uid === 'api::author.author')?.documents).toBeGreaterThan(0);
    } finally {
      p.cleanup();
    }
  });
});
