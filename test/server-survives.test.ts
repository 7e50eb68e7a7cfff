import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../src/auth/service.js';
import { defaultRoutes } from '../src/http/app.js';
import type { RouteModule } from '../src/http-kit/route.js';
import { BIN, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { filesUnder, form, png } from './helpers/media.js';
import { canMount } from './helpers/requirements.js';
import {
  answers,
  rawRequest,
  spawnServe,
  treeBecomes,
  treeHash,
  treeListing,
  type ServeProcess,
} from './helpers/serve.js';

const MB = 1024 * 1024;
const chunked = (type: string) => ({ 'content-type': type, 'transfer-encoding': 'chunked' });
const blocks = (n: number, size = 64 * 1024) => Array.from({ length: n }, () => Buffer.alloc(size, 'a'));

const envelope = (body: unknown, status: number) => {
  const b = body as { data: unknown; error: { status: number; name: string; message: string } };
  expect(b.data).toBeNull();
  expect(b.error.status).toBe(status);
  expect(typeof b.error.name).toBe('string');
  expect(typeof b.error.message).toBe('string');
};

describe('folio serve survives hostile bodies (issue 21 items 1, 2)', () => {
  let project: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  let token: string;
  beforeAll(async () => {
    project = makeProject();
    token = (await createApiToken(project.dir, { name: 'survives', type: 'full-access' })).accessKey;
    serve = await spawnServe(project.dir, ['--no-watch']);
  });
  afterAll(async () => {
    await serve.stop();
    project.cleanup();
  });
  afterEach(async () => {
    // Every case leaves the process running and answering.
    expect(serve.proc.exitCode).toBeNull();
    expect(await answers(serve.base)).toBe(true);
  });

  it('answers an oversize chunked JSON body with 413 and goes on', async () => {
    const res = await rawRequest(serve.base, {
      path: '/api/articles',
      headers: chunked('application/json'),
      chunks: blocks(20),
    });
    expect(res?.status).toBe(413);
    envelope(res!.body, 413);
  });

  it('answers a chunked form body over 56 KB with 413 and goes on', async () => {
    const res = await rawRequest(serve.base, {
      path: '/api/articles',
      headers: chunked('application/x-www-form-urlencoded'),
      chunks: blocks(2),
    });
    expect(res?.status).toBe(413);
    envelope(res!.body, 413);
  });

  it('survives an oversize chunked body the client abandons, and stores nothing', async (ctx) => {
    const before = treeListing(project.contentDir);
    await rawRequest(serve.base, {
      path: '/api/articles',
      headers: chunked('application/json'),
      chunks: blocks(20),
      abandon: true,
    });
    await rawRequest(serve.base, {
      path: '/api/articles',
      headers: { 'content-type': 'application/json', 'content-length': String(5 * MB) },
      chunks: blocks(3),
      abandon: true,
    });
    expect(await answers(serve.base)).toBe(true);
    await treeBecomes(project.contentDir, before, ctx.signal);
  });

  it('answers a truncated multipart upload with 400 and goes on', async () => {
    const res = await rawRequest(serve.base, {
      path: '/api/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=XX', authorization: `Bearer ${token}` },
      chunks: ['--XX\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\nabc'],
    });
    expect(res?.status).toBe(400);
    envelope(res!.body, 400);
    expect(filesUnder(join(project.contentDir, 'uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);
  });

  it('survives a multipart upload abandoned in a file part, and keeps no part of it', async (ctx) => {
    const before = treeListing(project.contentDir);
    await rawRequest(serve.base, {
      path: '/api/upload',
      headers: {
        'content-type': 'multipart/form-data; boundary=XX',
        authorization: `Bearer ${token}`,
        'content-length': String(MB),
      },
      chunks: ['--XX\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n', ...blocks(2)],
      abandon: true,
    });
    expect(await answers(serve.base)).toBe(true);
    // The part's temp file is removed once the server sees the connection end.
    await treeBecomes(project.contentDir, before, ctx.signal);
  });
});

describe('no error escapes to the process (item 4)', () => {
  let s: TestServer;
  const logged: string[] = [];
  const fault: RouteModule = {
    routes: ['throw', 'reject', 'stream-early', 'stream-late'].map((name) => ({
      method: 'GET' as const,
      path: `/fault/${name}`,
      handler: name,
    })),
    load: async () => ({
      throw: () => {
        throw new TypeError('injected handler fault');
      },
      reject: () => Promise.reject(new Error('injected rejection')),
      'stream-early': () =>
        new Readable({
          read() {
            this.destroy(new Error('injected stream fault'));
          },
        }),
      'stream-late': () => {
        let sent = false;
        return new Readable({
          read() {
            if (!sent) {
              sent = true;
              this.push('partial');
            } else setTimeout(() => this.destroy(new Error('injected late stream fault')), 10);
          },
        });
      },
    }),
  };
  beforeAll(async () => {
    s = await startTestServer({ app: { routes: [fault, ...defaultRoutes()], log: (m) => logged.push(m) } });
  });
  afterAll(() => s.stop());

  it.each(['/fault/throw', '/fault/reject', '/fault/stream-early'])(
    'answers a fault in %s with a 500 in the envelope',
    async (path) => {
      const res = await s.api(path);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        data: null,
        error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' },
      });
      expect(await answers(s.url)).toBe(true);
    },
  );

  it('cuts an answer whose stream fails once under way, and goes on', async () => {
    await expect(fetch(`${s.url}/fault/stream-late`).then((r) => r.text())).rejects.toThrow();
    expect(await answers(s.url)).toBe(true);
    expect(logged.some((m) => m.includes('injected late stream fault'))).toBe(true);
  });

  it('keeps serving when a watcher callback throws, and logs it', async () => {
    const project = makeProject();
    const id = 'faultinjectedauthor00001';
    mkdirSync(join(project.contentDir, 'documents', 'authors'), { recursive: true });
    const preload = pathToFileURL(join(import.meta.dirname, 'helpers', 'fault-stdout.mjs')).href;
    // The line serve prints for the new document throws: the watcher's change callback fails.
    const serve = await spawnServe(project.dir, [], { NODE_OPTIONS: `--import=${preload}`, FOLIO_TEST_FAULT: id });
    try {
      const t = '2024-01-01T00:00:00.000Z';
      const version = { id: 1, name: 'Fault', email: null, avatar: null, bio: null, createdAt: t, updatedAt: t };
      const file = join(project.contentDir, 'documents', 'authors', `${id}.json`);
      const text = `${JSON.stringify({ documentId: id, published: { ...version, publishedAt: t } }, null, 2)}\n`;
      // The watcher starts after the ready line: the file is written again until the change is seen.
      const end = Date.now() + 10000;
      for (let k = 0; !serve.stderr().includes('injected fault') && Date.now() < end; k++) {
        if (k % 4 === 0) writeFileSync(file, text);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(serve.stderr()).toContain(`injected fault: ${id}`);
      await new Promise((r) => setTimeout(r, 300));
      expect(serve.proc.exitCode).toBeNull();
      expect(await answers(serve.base)).toBe(true);
      const listed = (await (await fetch(`${serve.base}/api/authors`)).json()) as { data: Array<{ name: string }> };
      expect(listed.data.map((a) => a.name)).toEqual(['Fault']);
    } finally {
      await serve.stop();
      project.cleanup();
    }
  });
});

describe('a closed terminal does not stop the server (item 4)', () => {
  it('keeps serving after its stdout pipe is closed and it has a change to print', async () => {
    const project = makeProject();
    mkdirSync(join(project.contentDir, 'documents', 'authors'), { recursive: true });
    const serve = await spawnServe(project.dir);
    try {
      serve.proc.stdout!.destroy();
      const id = 'printedtoaclosedpipe0001';
      const t = '2024-01-01T00:00:00.000Z';
      const version = { id: 1, name: 'Piped', email: null, avatar: null, bio: null, createdAt: t, updatedAt: t };
      const file = join(project.contentDir, 'documents', 'authors', `${id}.json`);
      const text = `${JSON.stringify({ documentId: id, published: { ...version, publishedAt: t } }, null, 2)}\n`;
      // The watcher starts after the ready line: the file is written again until the server has it.
      const end = Date.now() + 10000;
      let names: string[] = [];
      for (let k = 0; !names.length && Date.now() < end && serve.proc.exitCode === null; k++) {
        if (k % 2 === 0) writeFileSync(file, text);
        await new Promise((r) => setTimeout(r, 100));
        const res = await fetch(`${serve.base}/api/authors`).catch(() => undefined);
        if (res) names = ((await res.json()) as { data: Array<{ name: string }> }).data.map((a) => a.name);
      }
      expect([names, serve.proc.exitCode]).toEqual([['Piped'], null]);
      await new Promise((r) => setTimeout(r, 300));
      expect(serve.proc.exitCode).toBeNull();
      expect(await answers(serve.base)).toBe(true);
    } finally {
      await serve.stop();
      project.cleanup();
    }
  });
});

describe('a port the user named is never swapped for another (item 12)', () => {
  it('exits 1 naming the port and what to do when it is taken', async () => {
    const blocker = createNetServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    const project = makeProject();
    try {
      let code = 0;
      let stderr = '';
      try {
        execFileSync(process.execPath, [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--no-watch'], {
          cwd: project.dir,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 15000,
        });
      } catch (err) {
        const e = err as { status: number | null; stderr: Buffer };
        code = e.status ?? -1;
        stderr = e.stderr.toString();
      }
      expect(code).toBe(1);
      expect(stderr).toContain(`port ${port}`);
      expect(stderr).toContain('already in use');
      expect(stderr).toContain('--port');
    } finally {
      blocker.close();
      project.cleanup();
    }
  });
});

describe('live event streams are capped (item 13)', () => {
  let s: TestServer;
  const open: AbortController[] = [];
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { liveEvents: { maxConnections: 3, maxPerClient: 2 } } } });
  });
  afterAll(async () => {
    for (const c of open) c.abort();
    await s.stop();
  });

  const connect = (localAddress = '127.0.0.1') =>
    new Promise<{ status: number; close(): void; body: unknown }>((resolve, reject) => {
      import('node:http').then(({ get }) => {
        const r = get(`${s.url}/_folio/events`, { localAddress, agent: false, headers: s.auth }, (res) => {
          if (res.statusCode !== 200) {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, close: () => undefined, body: JSON.parse(text) }));
            return;
          }
          resolve({ status: 200, close: () => r.destroy(), body: undefined });
        });
        r.on('error', reject);
      }, reject);
    });

  it('answers 429 past the per-client and the per-server caps, and frees a place when a stream closes', async () => {
    const a = await connect();
    const b = await connect();
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await connect();
    expect(c.status).toBe(429);
    envelope(c.body, 429);
    const d = await connect('127.0.0.2');
    expect(d.status).toBe(200);
    const e = await connect('127.0.0.3');
    expect(e.status).toBe(429);
    a.close();
    await new Promise((r) => setTimeout(r, 100));
    const f = await connect('127.0.0.3');
    expect(f.status).toBe(200);
    for (const x of [b, d, f]) x.close();
  });

  it('caps streams by default', async () => {
    const t = await startTestServer();
    const held: Array<{ status: number; close(): void }> = [];
    try {
      let refused = 0;
      for (let i = 0; i < 60 && !refused; i++) {
        const r = await new Promise<{ status: number; close(): void }>((resolve, reject) => {
          import('node:http').then(({ get }) => {
            const req = get(`${t.url}/_folio/events`, { agent: false, headers: t.auth }, (res) => {
              res.resume();
              resolve({ status: res.statusCode!, close: () => req.destroy() });
            });
            req.on('error', reject);
          }, reject);
        });
        held.push(r);
        if (r.status === 429) refused++;
      }
      expect(refused).toBe(1);
    } finally {
      for (const h of held) h.close();
      await t.stop();
    }
  });
});

describe('405 and locales of writes (item 14)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it.each([
    ['PATCH', '/api/articles', 'HEAD, GET, POST'],
    ['POST', '/api/articles/abc', 'HEAD, GET, PUT, DELETE'],
    ['POST', '/api/global', 'HEAD, GET, PUT, DELETE'],
    ['PUT', '/api/i18n/locales', 'HEAD, GET'],
    ['GET', '/api/upload', 'POST'],
    ['POST', '/_folio/events', 'GET'],
  ])('answers %s %s with 405 in the JSON envelope', async (method, path, allow) => {
    const res = await s.api(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.body).toEqual({
      data: null,
      error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} },
    });
  });

  it('refuses DELETE with an unconfigured locale (400) as POST does, and changes nothing', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Kept' } } });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId as string;
    const before = treeHash(s.contentDir);
    const post = await s.api('/api/articles?locale=xx', { method: 'POST', body: { data: { title: 'X' } } });
    expect(post.status).toBe(400);
    const del = await s.api(`/api/articles/${id}?locale=xx`, { method: 'DELETE' });
    expect(del.status).toBe(400);
    expect(del.body.error.name).toBe('ValidationError');
    const single = await s.api('/api/about?locale=xx', { method: 'DELETE' });
    expect(single.status).toBe(400);
    expect(treeHash(s.contentDir)).toBe(before);
    expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
  });
});

describe('large answers are compressed on the thread pool', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const text = 'lorem ipsum dolor sit amet '.repeat(2500);
    for (let i = 0; i < 10; i++) {
      const r = await s.api('/api/categories', {
        method: 'POST',
        body: { data: { name: `c${i}`, description: text } },
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(() => s.stop());

  it.each(['br', 'gzip'])('answers a 700 KB list in %s that decodes to the same JSON', async (encoding) => {
    const plain = await fetch(`${s.url}/api/categories`, { headers: { ...s.auth, 'accept-encoding': 'identity' } });
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(256 * 1024);
    const packed = await fetch(`${s.url}/api/categories`, { headers: { ...s.auth, 'accept-encoding': encoding } });
    expect(packed.headers.get('content-encoding')).toBe(encoding);
    expect(await packed.text()).toBe(text);
  });
});

describe('the public OpenAPI document leaves private attributes out of responses (item 15)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('lists secretNote only in the input schema', async () => {
    const res = await s.api('/api/openapi.json', { anonymous: true });
    expect(res.status).toBe(200);
    const schemas = res.body.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    const holding = Object.entries(schemas)
      .filter(([, sch]) => sch.properties && 'secretNote' in sch.properties)
      .map(([name]) => name);
    expect(holding).toEqual(['ArticleInput']);
    expect(JSON.stringify(res.body.paths)).not.toContain('secretNote');
  });
});

// ------------------------------------------------------------------ full and read-only disks (item 11)

describe.skipIf(!canMount)('a full or read-only file system answers 507 (item 11)', () => {
  let mnt: string;
  let s: TestServer;
  let articleId: string;
  beforeAll(async () => {
    mnt = mkdtempSync(join(tmpdir(), 'folio-fullfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
    const made = makeProject();
    cpSync(made.dir, mnt, { recursive: true });
    made.cleanup();
    s = await startTestServer({ dir: mnt });
    const created = await s.api('/api/articles', {
      method: 'POST',
      body: { data: { title: 'Before the disk filled' } },
    });
    expect(created.status).toBe(201);
    articleId = created.body.data.documentId;
    // Fill what is left of the file system.
    mkdirSync(join(mnt, 'filler'));
    try {
      for (let i = 0; ; i++) writeFileSync(join(mnt, 'filler', `f${i}`), Buffer.alloc(64 * 1024));
    } catch {
      /* full */
    }
    try {
      for (let i = 0; ; i++) writeFileSync(join(mnt, 'filler', `s${i}`), Buffer.alloc(512));
    } catch {
      /* full to the last block */
    }
  });
  afterAll(async () => {
    await s.stop().catch(() => undefined);
    try {
      execFileSync('umount', ['-l', mnt]);
    } catch {
      /* already gone */
    }
    rmSync(mnt, { recursive: true, force: true });
  });

  const upload = (bytes: number) =>
    fetch(`${s.url}/api/upload`, {
      method: 'POST',
      headers: s.auth,
      body: form([{ name: 'photo.png', type: 'image/png', data: Buffer.concat([png(4, 4), Buffer.alloc(bytes)]) }]),
      signal: AbortSignal.timeout(10000),
    });

  it.each([300 * 1024, 1024])('answers a %i-byte upload with 507 and stores nothing', async (bytes) => {
    const before = treeHash(s.contentDir);
    const res = await upload(bytes);
    const body: unknown = await res.json();
    expect([res.status, body]).toMatchObject([507, { error: { status: 507 } }]);
    expect(treeHash(s.contentDir)).toBe(before);
    expect(readdirSync(join(s.contentDir, 'uploads')).filter((f) => f.includes('folio-tmp'))).toEqual([]);
  });

  it('answers document writes with 507 and leaves the files intact', async () => {
    const before = treeHash(s.contentDir);
    const create = await s.api('/api/articles', {
      method: 'POST',
      body: { data: { title: 'Written to a full disk' } },
    });
    expect([create.status, create.body]).toMatchObject([507, { error: { status: 507 } }]);
    const update = await s.api(`/api/articles/${articleId}`, {
      method: 'PUT',
      body: { data: { title: 'Changed on a full disk' } },
    });
    expect(update.status).toBe(507);
    expect(treeHash(s.contentDir)).toBe(before);
    const read = await s.api(`/api/articles/${articleId}`);
    expect(read.body.data.title).toBe('Before the disk filled');
  });

  it('answers uploads and writes on a read-only file system with 507', async () => {
    rmSync(join(mnt, 'filler'), { recursive: true, force: true });
    execFileSync('mount', ['-o', 'remount,ro', mnt]);
    try {
      const before = treeHash(s.contentDir);
      const res = await upload(1024);
      expect(res.status).toBe(507);
      envelope(await res.json(), 507);
      const create = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'ro' } } });
      expect(create.status).toBe(507);
      expect(treeHash(s.contentDir)).toBe(before);
      expect(await answers(s.url)).toBe(true);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mnt]);
    }
  });
});
