import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { eventually, SETTLES_MS } from './helpers/eventually.js';

const run = promisify(execFile);

describe('git branch switch with the server running', () => {
  let s: TestServer;
  let watcher: Watcher;
  // Asynchronous: the server runs in this process and must go on answering while git writes the files.
  const git = async (...args: string[]) =>
    (await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: s.dir })).stdout.trim();

  beforeAll(async () => {
    s = await startTestServer();
    writeFileSync(join(s.dir, '.gitignore'), '.folio/\n');
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'model');
    watcher = await watchProject(s.project);
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const onDisk = (plural: string) => {
    const dir = join(s.contentDir, 'documents', plural);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
      .map((f) => f.slice(0, -5))
      .sort();
  };
  const served = async (plural: string) => {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const r = await s.api(`/api/${plural}?pagination[page]=${page}&pagination[pageSize]=100&fields[0]=name`);
      expect(r.status).toBe(200);
      ids.push(...(r.body.data as Array<{ documentId: string }>).map((d) => d.documentId));
      if (page >= r.body.meta.pagination.pageCount) break;
    }
    return ids.sort();
  };
  /** Polls until the API lists exactly the files, failing with both lists once it has waited long enough. */
  const equalWithin = async (plural: string, ms = SETTLES_MS) => {
    const end = Date.now() + ms;
    for (;;) {
      const [files, api] = [onDisk(plural), await served(plural)];
      if (JSON.stringify(files) === JSON.stringify(api)) return files.length;
      if (Date.now() > end) expect({ api: api.length, files: files.length, api_ids: api }).toEqual({ files });
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  // 200 writes and six waits for the watcher: slow on a loaded machine, which is not this test's business.
  it('serves exactly the files after each checkout, back and forth', async () => {
    const created: string[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await s.api('/api/authors', { method: 'POST', body: { data: { name: `Author ${i}` } } });
      expect(r.status).toBe(201);
      created.push(r.body.data.documentId);
    }
    await s.project.documents.idle();
    await git('checkout', '-q', '-b', 'authors');
    await git('add', '-A');
    await git('commit', '-q', '-m', '200 authors');

    for (let round = 0; round < 2; round++) {
      await git('checkout', '-q', 'main');
      expect(await equalWithin('authors')).toBe(0);
      await git('checkout', '-q', 'authors');
      expect(await equalWithin('authors')).toBe(200);
    }
    expect(await served('authors')).toEqual([...created].sort());

    // The server still follows its own writes and hand edits after the switches.
    const r = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'After' } } });
    expect(r.status).toBe(201);
    expect(await equalWithin('authors')).toBe(201);
    await git('checkout', '-q', '--', '.');
    await git('stash', '-q', '-u');
    expect(await equalWithin('authors')).toBe(200);
    await git('stash', 'pop', '-q');
    expect(await equalWithin('authors')).toBe(201);
  }, 90_000);

  it('follows a branch whose files were edited by hand, including a document changed in place', async () => {
    await git('checkout', '-q', '-b', 'renamed');
    // A committed file: the author the test above made is still untracked (stashed with -u and popped), and
    // `commit -a` would find nothing to commit had its random documentId sorted first.
    const tracked = await git('ls-files', '--', 'content/documents/authors');
    const [first] = tracked
      .split('\n')
      .map((f) => f.slice(f.lastIndexOf('/') + 1, -'.json'.length))
      .sort();
    const file = join(s.contentDir, 'documents', 'authors', `${first}.json`);
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.published.name = 'Renamed on a branch';
    writeFileSync(file, JSON.stringify(raw, null, 2));
    const nameOf = async () => (await s.api(`/api/authors/${first}`)).body.data?.name as string;
    await eventually(async () => (await nameOf()) === 'Renamed on a branch', 'the name edited by hand');
    await git('commit', '-q', '-am', 'rename one');
    await git('checkout', '-q', 'authors');
    await equalWithin('authors');
    await eventually(async () => (await nameOf()) !== 'Renamed on a branch', 'the name of the branch checked out');
    await git('checkout', '-q', 'renamed');
    await eventually(async () => (await nameOf()) === 'Renamed on a branch', 'the name edited on the branch');
  });
});
