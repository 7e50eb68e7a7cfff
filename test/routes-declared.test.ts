import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRoutes } from '../src/http/app.js';
import { sendJson } from '../src/http-kit/respond.js';
import type { RouteModule } from '../src/http-kit/route.js';
import { REPO, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { createApiToken } from '../src/auth/service.js';

const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

describe('a module adds its routes with one entry', () => {
  let s: TestServer;
  let loads = 0;
  let failNextLoad = false;
  const hello: RouteModule = {
    routes: [
      { method: 'GET', path: '/api/hello', handler: 'say', action: 'plugin::hello.say' },
      { method: 'POST', path: '/api/hello', handler: 'say', action: 'plugin::hello.say' },
      { method: 'GET', path: '/api/hello/:name', handler: 'name' },
      { method: 'GET', path: '/_hello/exact', handler: 'say', exactCase: true },
    ],
    load: async () => {
      loads++;
      if (failNextLoad) {
        failNextLoad = false;
        throw new Error('injected load failure');
      }
      return {
        say: (req) => sendJson(req.event, 200, { method: req.method, path: req.path, body: req.body ?? null }),
        name: (req) => sendJson(req.event, 200, { name: req.params.name }),
      };
    },
  };
  beforeAll(async () => {
    s = await startTestServer({ app: { routes: [...defaultRoutes(), hello] } });
  });
  afterAll(() => s.stop());

  it('checks the declared action before loading the handlers', async () => {
    const res = await s.api('/api/hello', { anonymous: true });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    expect(loads).toBe(0);
  });

  it('loads the handlers once, on the first request that reaches them', async () => {
    expect((await s.api('/api/hello')).body).toEqual({ method: 'GET', path: '/api/hello', body: null });
    expect((await s.api('/api/hello', { method: 'POST', body: { a: 1 } })).body).toEqual({
      method: 'POST',
      path: '/api/hello',
      body: { a: 1 },
    });
    expect(loads).toBe(1);
  });

  it('answers HEAD for a GET route, and other methods with a 405 envelope and Allow', async () => {
    const head = await s.api('/api/hello', { method: 'HEAD' });
    expect([head.status, head.text]).toEqual([200, '']);
    const res = await s.api('/api/hello', { method: 'PATCH' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('HEAD, GET, POST');
    expect(res.body).toEqual({
      data: null,
      error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} },
    });
  });

  it('matches paths lower-cased and hands the params over as sent', async () => {
    expect((await s.api('/API/Hello')).body).toMatchObject({ path: '/API/Hello' });
    expect((await s.api('/Api/HELLO/MiXeD%20Case')).body).toEqual({ name: 'MiXeD%20Case' });
  });

  it('matches an exact-case route only as written', async () => {
    expect((await s.api('/_hello/exact')).status).toBe(200);
    const res = await s.api('/_HELLO/Exact');
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    const post = await s.api('/_HELLO/Exact', { method: 'POST' });
    expect([post.status, post.body]).toEqual([404, NOT_FOUND]);
  });

  it('passes paths it does not declare on to the content API', async () => {
    expect((await s.api('/api/hello/a/b')).body).toEqual(NOT_FOUND);
    expect((await s.api('/api/articles')).status).toBe(200);
    // The content API compares `/api` as written and the type's name in any case.
    expect((await s.api('/api/ARTICLES')).status).toBe(200);
    expect((await s.api('/API/articles')).body).toEqual(NOT_FOUND);
    expect((await s.api('/API/articles', { method: 'DELETE' })).body).toEqual(NOT_FOUND);
    // h3's router drops a trailing slash; a second one names no route, as before.
    expect((await s.api('/api/articles//')).status).toBe(404);
  });

  it('tries a module whose handlers failed to load again on the next request', async () => {
    const module: RouteModule = {
      routes: [{ method: 'GET', path: '/api/flaky', handler: 'ok' }],
      load: async () => {
        if (failNextLoad) {
          failNextLoad = false;
          throw new Error('injected load failure');
        }
        return { ok: (req) => sendJson(req.event, 200, { ok: true }) };
      },
    };
    failNextLoad = true;
    const t = await startTestServer({ app: { routes: [module] } });
    try {
      const first = await t.api('/api/flaky');
      expect(first.status).toBe(500);
      expect(first.body.error).toMatchObject({ status: 500, name: 'InternalServerError' });
      expect((await t.api('/api/flaky')).body).toEqual({ ok: true });
    } finally {
      await t.stop();
    }
  });
});

describe('start-up stays light', () => {
  /** The modules a file imports at load time (`import ... from`, not `import()` nor `import type`). */
  function staticImports(file: string): string[] {
    const text = readFileSync(file, 'utf8');
    const out: string[] = [];
    for (const m of text.matchAll(/^import\s+(?:(?!type\s)[^;']*?from\s+)?'([^']+)';/gm)) out.push(m[1]);
    return out;
  }

  /** Every Folio source file and package the server's assembly loads before any request. */
  function reachable(entry: string): Set<string> {
    const seen = new Set<string>();
    const todo = [entry];
    while (todo.length) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!file.startsWith('/')) continue;
      for (const spec of staticImports(file)) {
        if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
        else seen.add(spec);
      }
    }
    return seen;
  }

  it('imports no on-demand route module (uploads, accounts, roles, docs, live events, builder) with the server', () => {
    const src = join(REPO, 'src');
    const loaded = new Set([
      ...reachable(join(src, 'http', 'compose.ts')),
      ...reachable(join(src, 'http', 'server.ts')),
    ]);
    expect(loaded.has(join(src, 'http', 'app.ts'))).toBe(true);
    expect(loaded.has(join(src, 'auth', 'routes.ts'))).toBe(true);
    const onDemand = [
      'upload/http.ts',
      'upload/multipart.ts',
      'auth/http.ts',
      'auth/roles-http.ts',
      'http/api-docs.ts',
      'codegen/openapi.ts',
      'http/live-events.ts',
      'http/content-type-builder.ts',
    ];
    expect(onDemand.filter((f) => loaded.has(join(src, f)))).toEqual([]);
    expect([...loaded].filter((m) => m === 'busboy' || m.startsWith('swagger-ui'))).toEqual([]);
  });
});

describe('a running server loads a route module on its first request', () => {
  const made = makeProject();
  let serve: ServeProcess;
  const log = join(made.dir, 'imports.log');
  const loaded = () => readFileSync(log, 'utf8');
  beforeAll(async () => {
    serve = await spawnServe(made.dir, ['--no-watch'], {
      NODE_OPTIONS: `--import ${pathToFileURL(join(REPO, 'test', 'helpers', 'log-imports.mjs')).href}`,
      FOLIO_IMPORT_LOG: log,
    });
  });
  afterAll(async () => {
    await serve.stop();
    made.cleanup();
  });

  it('serves content without the upload, accounts and docs modules, and loads each when asked for', async () => {
    const token = (await createApiToken(made.dir, { name: 'light', type: 'full-access' })).accessKey;
    expect((await fetch(`${serve.base}/api/articles`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    expect(loaded()).toContain('/dist/http/app.js');
    for (const mod of ['/dist/upload/http.js', '/busboy/', '/dist/auth/http.js', '/dist/http/api-docs.js'])
      expect(loaded(), mod).not.toContain(mod);
    expect(
      (await fetch(`${serve.base}/api/upload/files`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(loaded()).toContain('/dist/upload/http.js');
    expect((await fetch(`${serve.base}/api/openapi.json`)).status).toBe(200);
    expect(loaded()).toContain('/dist/http/api-docs.js');
  });
});
