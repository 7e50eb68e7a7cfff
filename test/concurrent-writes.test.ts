import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCK_HOST } from '../src/store/held-folder.js';
import { promisify } from 'node:util';
import { BIN, startTestServer, type TestServer } from './helpers/project.js';
import { FileStore, StaleFileError } from '../src/store/store.js';

const run = promisify(execFile);
const folio = (dir: string, ...args: string[]) => run(process.execPath, [BIN, ...args, '--dir', dir]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('writes from several processes', () => {
  let s: TestServer;
  let id: string;
  const fileOf = (documentId: string) => join(s.contentDir, 'documents', 'articles', `${documentId}.json`);
  const onDisk = (locale: string) =>
    JSON.parse(readFileSync(fileOf(id), 'utf8')).locales[locale] as {
      draft: { title: string };
      published: { title: string };
    };

  beforeAll(async () => {
    s = await startTestServer();
    id = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'en-start' } } })).body.data.documentId;
    const fr = await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { title: 'fr-start' } } });
    expect(fr.status).toBe(200);
  });
  afterAll(async () => {
    await s.stop();
  });

  it('keeps a CLI update of one locale while the server writes another locale of the same document', async () => {
    let stop = false;
    let lastFr = 'fr-start';
    let acks = 0;
    // The server writes the fr locale as fast as it answers, all through the CLI runs.
    const serverLoop = (async () => {
      for (let n = 0; !stop; n++) {
        const title = `fr-${n}`;
        const r = await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { title } } });
        expect(r.status).toBe(200);
        lastFr = title;
        acks++;
      }
    })();
    try {
      for (let i = 0; i < 3; i++) {
        const title = `en-${i}`;
        const { stdout } = await folio(
          s.dir,
          'docs',
          'update',
          'articles',
          id,
          '--locale',
          'en',
          '--data',
          JSON.stringify({ title }),
        );
        expect(stdout).toContain(`updated article ${id} (en)`);
        // Some server writes after the CLI's: each must have started from the file the CLI left.
        const seen = acks;
        while (acks < seen + 3) await sleep(5);
        expect(onDisk('en').published.title).toBe(title);
        expect(onDisk('en').draft.title).toBe(title);
      }
    } finally {
      stop = true;
      await serverLoop;
    }
    expect(acks).toBeGreaterThan(10);
    expect(onDisk('fr').published.title).toBe(lastFr);
    expect(onDisk('en').published.title).toBe('en-2');
    // The server's own copy has the CLI's change too.
    const served = await s.api(`/api/articles/${id}?locale=en`);
    expect(served.body.data.title).toBe('en-2');
  }, 120_000);

  it('starts a write from an edit made by hand just before, not from the copy in memory', async () => {
    for (let i = 0; i < 5; i++) {
      const body = JSON.parse(readFileSync(fileOf(id), 'utf8'));
      body.locales.en.published.title = `hand-${i}`;
      body.locales.en.draft.title = `hand-${i}`;
      writeFileSync(fileOf(id), `${JSON.stringify(body, null, 2)}\n`);
      const r = await s.api(`/api/articles/${id}?locale=fr`, {
        method: 'PUT',
        body: { data: { title: `after-${i}` } },
      });
      expect(r.status).toBe(200);
      expect(onDisk('en').published.title).toBe(`hand-${i}`);
      expect(onDisk('fr').published.title).toBe(`after-${i}`);
    }
  });

  it('never gives one numeric id twice when the CLI and the server create at the same time', async () => {
    const server = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.api('/api/tags', { method: 'POST', body: { data: { name: `srv-${i}` } } }),
      ),
    );
    const cli = Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        folio(s.dir, 'docs', 'create', 'tags', '--data', JSON.stringify({ name: `cli-${i}` })),
      ),
    );
    await Promise.all([server, cli]);
    const dir = join(s.contentDir, 'documents', 'tags');
    const ids = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).published.id as number);
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
  }, 120_000);

  it('releases the lock when a write is refused, and takes over the lock of a dead holder', async () => {
    const lock = join(s.dir, '.folio', 'locks', 'documents.lock');
    // Given back just after the answer: wait for the lock folder to go (a change in its parent).
    const released = () =>
      new Promise<boolean>((resolve) => {
        const watcher = watch(dirname(lock));
        const look = () => {
          if (existsSync(lock)) return;
          watcher.close();
          resolve(true);
        };
        watcher.on('change', look);
        look();
      });
    // Refused under the lock: the relation target is looked up once the document is read again.
    const refused = await s.api(`/api/articles/${id}?locale=fr`, {
      method: 'PUT',
      body: { data: { author: 'nosuchauthor000000000000' } },
    });
    expect(refused.status).toBe(400);
    expect(await released()).toBe(true);
    // A lock left by a process killed while writing: its holder, a process of this host, no longer exists.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'holder-killed0writer'), JSON.stringify({ pid: dead.pid, host: LOCK_HOST }));
    // Dated an hour ahead, it cannot go stale meanwhile: only finding its holder dead lets the write in.
    const later = new Date(Date.now() + 3600_000);
    utimesSync(join(lock, 'holder-killed0writer'), later, later);
    const r = await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { title: 'after-dead' } } });
    expect(r.status).toBe(200);
    expect(onDisk('fr').published.title).toBe('after-dead');
    expect(await released()).toBe(true);
  }, 60_000);

  it('keeps every link when writes to different documents all rewrite the same other document', async () => {
    const tags = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.api('/api/tags', { method: 'POST', body: { data: { name: `t-${i}` } } })),
    );
    const tagIds = tags.map((t) => t.body.data.documentId as string);
    // Each PUT is to another tag, and links it from the inverse side: each rewrites the article's file.
    const results = await Promise.all(
      tagIds.map((tag) =>
        s.api(`/api/tags/${tag}`, { method: 'PUT', body: { data: { articles: { connect: [id] } } } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(tagIds.map(() => 200));
    const linked = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.published.tags as string[];
    expect([...linked].sort()).toEqual([...tagIds].sort());
  });

  it('refuses to write over a file that another hand left broken, and leaves it as it is', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'to break' } } });
    const broken = fileOf(created.body.data.documentId);
    writeFileSync(broken, '{ "documentId": ');
    const r = await s.api(`/api/articles/${created.body.data.documentId}?locale=fr`, {
      method: 'PUT',
      body: { data: { title: 'over it' } },
    });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toContain('fix it before writing to it');
    expect(readFileSync(broken, 'utf8')).toBe('{ "documentId": ');
  });

  it('gives a write up when the file changed after it was read', async () => {
    const store = new FileStore(s.contentDir);
    const current = store.readCurrent('articles', id)!;
    writeFileSync(current.file, current.text.replace('after-dead', 'edited'));
    await expect(store.write('articles', id, JSON.parse(current.text), current.stamp)).rejects.toBeInstanceOf(
      StaleFileError,
    );
    expect(readFileSync(current.file, 'utf8')).toContain('edited');
  });
});
