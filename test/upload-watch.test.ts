import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG, form, png } from './helpers/media.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { createApiToken } from '../src/auth/service.js';
import { eventually } from './helpers/eventually.js';

const run = promisify(execFile);

/** The CLI in a process of its own, as a user runs it in another terminal while the server runs. */
async function folio(dir: string, args: string[]): Promise<string> {
  const r = await run(process.execPath, [BIN, '--dir', dir, ...args], { env: { ...process.env, NO_COLOR: '1' } });
  return r.stdout;
}

interface FileObject {
  id: number;
  documentId: string;
  name: string;
  url: string;
  caption: string | null;
}

describe('the server follows media changes made by another process', () => {
  let s: TestServer;
  let watcher: Watcher;
  const changes: Array<{ file: string; what: string; problem?: string }> = [];
  beforeAll(async () => {
    // A fresh project: no content/uploads/ at all when the server starts, as after `folio init`.
    s = await startTestServer();
    expect(existsSync(join(s.contentDir, 'uploads'))).toBe(false);
    watcher = await watchProject(s.project, { onChange: (c) => changes.push(c) });
    await watcher.ready;
    writeFileSync(join(s.dir, 'some.png'), RED_PNG);
    writeFileSync(join(s.dir, 'other.png'), png(6, 6, [10, 200, 10]));
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const files = async () => (await s.api('/api/upload/files')).body as FileObject[];
  const recordFile = (documentId: string) => join(s.contentDir, 'uploads', '_records', `${documentId}.json`);

  let added: FileObject;
  it('lists a file `folio media add` stored, serves it and updates it, within a second', async () => {
    [added] = JSON.parse(
      await folio(s.dir, ['media', 'add', join(s.dir, 'some.png'), '--name', 'watched.png', '--json']),
    );
    expect(added.name).toBe('watched.png');
    await eventually(
      async () => (await files()).some((f) => f.documentId === added.documentId),
      'the added file listed',
    );
    expect((await files()).map((f) => f.id)).toEqual([added.id]);
    const served = await fetch(`${s.url}${added.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(RED_PNG);
    const update = await s.api(`/api/upload?id=${added.id}`, {
      method: 'POST',
      body: { fileInfo: { caption: 'seen by the server' } },
    });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ id: added.id, caption: 'seen by the server' });
    expect(JSON.parse(readFileSync(recordFile(added.documentId), 'utf8')).caption).toBe('seen by the server');
  });

  let author = '';
  it('keeps media links of documents resolving to the file another process added', async () => {
    const created = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada', avatar: added.id } } });
    expect(created.status).toBe(201);
    const read = await s.api(`/api/authors/${created.body.data.documentId}?populate=avatar`);
    expect(read.body.data.avatar).toMatchObject({ id: added.id, documentId: added.documentId, url: added.url });
    author = created.body.data.documentId;
  });

  it('does not take the server’s own uploads for changes made elsewhere', async () => {
    changes.length = 0;
    const res = await fetch(`${s.url}/api/upload`, {
      method: 'POST',
      headers: s.auth,
      body: form([{ name: 'own.png', type: 'image/png', data: png(5, 5) }]),
    });
    expect(res.status).toBe(201);
    const [own] = (await res.json()) as FileObject[];
    await new Promise((r) => setTimeout(r, 400));
    expect(changes.filter((c) => c.file.includes('_records'))).toEqual([]);
    const del = await s.api(`/api/upload/files/${own.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect(changes.filter((c) => c.file.includes('_records'))).toEqual([]);
  });

  it('keeps the last good record while a record file is broken, and reports it', async () => {
    const file = recordFile(added.documentId);
    const good = readFileSync(file, 'utf8');
    changes.length = 0;
    writeFileSync(file, good.slice(0, good.length / 2));
    await eventually(async () => changes.some((c) => c.file === file && c.problem), 'the broken record reported');
    expect((await files()).find((f) => f.documentId === added.documentId)).toMatchObject({
      caption: 'seen by the server',
    });
    expect((await fetch(`${s.url}${added.url}`)).status).toBe(200);
    writeFileSync(file, good.replace('"seen by the server"', '"edited by hand"'));
    await eventually(
      async () => (await files()).some((f) => f.documentId === added.documentId && f.caption === 'edited by hand'),
      'the caption edited by hand',
    );
    // Populated answers (cached or not) show the record as it is now.
    const read = await s.api(`/api/authors/${author}?populate=avatar`);
    expect(read.body.data.avatar).toMatchObject({ documentId: added.documentId, caption: 'edited by hand' });
  });

  it('stops listing and serving a file `folio media rm` deleted, within a second', async () => {
    await folio(s.dir, ['media', 'rm', String(added.id)]);
    await eventually(
      async () => !(await files()).some((f) => f.documentId === added.documentId),
      'the removed file gone',
    );
    expect((await fetch(`${s.url}${added.url}`)).status).toBe(404);
    const update = await s.api(`/api/upload?id=${added.id}`, { method: 'POST', body: { fileInfo: { caption: 'x' } } });
    expect(update.status).toBe(404);
    // The CLI took the file out of the document that used it.
    await eventually(
      async () => (await s.api(`/api/authors/${author}?populate=avatar`)).body.data.avatar === null,
      'the avatar taken out of the author',
    );
  });

  it('still stores the server’s own uploads after, under an id never used before', async () => {
    const res = await fetch(`${s.url}/api/upload`, {
      method: 'POST',
      headers: s.auth,
      body: form([{ name: 'after.png', type: 'image/png', data: readFileSync(join(s.dir, 'other.png')) }]),
    });
    expect(res.status).toBe(201);
    const [after] = (await res.json()) as FileObject[];
    // 1 (CLI, deleted), 2 (the server's own, deleted), then this one.
    expect(after.id).toBe(3);
    expect((await files()).map((f) => f.id)).toEqual([3]);
    expect((await fetch(`${s.url}${after.url}`)).status).toBe(200);
    expect(readdirSync(join(s.contentDir, 'uploads', '_records'))).toEqual([`${after.documentId}.json`]);
  });

  it('follows the whole uploads folder removed and put back (a git checkout)', async () => {
    const [kept] = await files();
    const aside = join(s.dir, 'uploads-aside');
    cpSync(join(s.contentDir, 'uploads'), aside, { recursive: true });
    rmSync(join(s.contentDir, 'uploads'), { recursive: true });
    await eventually(async () => (await files()).length === 0, 'no file listed');
    expect((await fetch(`${s.url}${kept.url}`)).status).toBe(404);
    cpSync(aside, join(s.contentDir, 'uploads'), { recursive: true });
    await eventually(async () => (await files()).some((f) => f.documentId === kept.documentId), 'the file back');
    expect((await fetch(`${s.url}${kept.url}`)).status).toBe(200);
  });

  it('reports a new broken record, does not list it, and goes on answering', async () => {
    const before = await files();
    changes.length = 0;
    const file = recordFile('brokenrecord');
    writeFileSync(file, '{"id": 9, "documentId": "brokenrecord", "name": ');
    await eventually(async () => changes.some((c) => c.file === file && c.problem), 'the broken record reported');
    expect(await files()).toEqual(before);
    rmSync(file);
  });
});

describe('`folio serve` follows `folio media add` and `media rm` run in another terminal', () => {
  let project: ReturnType<typeof makeProject>;
  let child: ChildProcess;
  let out = '';
  let url = '';
  let auth: Record<string, string>;
  beforeAll(async () => {
    project = makeProject();
    writeFileSync(join(project.dir, 'some.png'), RED_PNG);
    auth = {
      authorization: `Bearer ${(await createApiToken(project.dir, { name: 'full', type: 'full-access' })).accessKey}`,
    };
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--dir', project.dir], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await eventually(
      async () => {
        url = /(http:\/\/[^\s]+)\/api\b/.exec(out)?.[1] ?? '';
        return url !== '';
      },
      'the server started',
      30_000,
    );
    // The watcher is ready once it reports a change of permissions.json.
    const permissions = join(project.contentDir, 'permissions.json');
    const text = readFileSync(permissions, 'utf8');
    await eventually(
      async () => {
        writeFileSync(permissions, text);
        await new Promise((r) => setTimeout(r, 100));
        return out.includes('reloaded permissions');
      },
      'the watcher ready',
      30_000,
    );
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    project.cleanup();
  });

  const files = async () => (await (await fetch(`${url}/api/upload/files`, { headers: auth })).json()) as FileObject[];

  it('lists, serves and updates the added file within a second, then forgets the removed one', async () => {
    const [added] = JSON.parse(
      await folio(project.dir, ['media', 'add', join(project.dir, 'some.png'), '--name', 'watched.png', '--json']),
    ) as FileObject[];
    expect(added.url).toMatch(/^\/uploads\/watched_\w+\.png$/);
    await eventually(async () => (await files()).some((f) => f.id === added.id), 'the added file listed');
    expect((await fetch(`${url}${added.url}`)).status).toBe(200);
    const update = await fetch(`${url}/api/upload?id=${added.id}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ fileInfo: { alternativeText: 'alt' } }),
    });
    expect(update.status).toBe(200);
    await folio(project.dir, ['media', 'rm', String(added.id)]);
    await eventually(async () => (await files()).length === 0, 'no file listed');
    expect((await fetch(`${url}${added.url}`)).status).toBe(404);
    expect(child.exitCode).toBe(null);
  });
});
