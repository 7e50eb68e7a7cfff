import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { BIN, REPO, startTestServer, type TestServer } from './helpers/project.js';

const run = (cmd: string, args: string[], cwd?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(cmd, args, { cwd, maxBuffer: 20 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, stdout, stderr }),
    );
  });

describe('generated types and OpenAPI', () => {
  let s: TestServer;
  let work: string;
  beforeAll(async () => {
    s = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'folio-codegen-'));
    const author = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } });
    await s.api('/api/articles', {
      method: 'POST',
      body: {
        data: {
          title: 'Typed',
          views: 3,
          author: author.body.data.documentId,
          seo: { metaTitle: 'T', metaDescription: 'D' },
          blocks: [{ __component: 'shared.quote', title: 'Q', body: 'B' }],
          links: [{ label: 'L', url: 'https://example.com' }],
          body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }],
        },
      },
    });
  });
  afterAll(async () => {
    await s.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('compiles real responses against the generated types with tsc', async () => {
    const gen = await run('node', [BIN, 'generate', 'types', '--dir', s.dir, '--out', join(work, 'folio-types.ts')]);
    expect(gen.code).toBe(0);
    const list = (await s.api('/api/articles?populate=*')).body;
    const one = (await s.api(`/api/articles/${list.data[0].documentId}?populate[author]=true&populate[seo]=true`)).body;
    const authors = (await s.api('/api/authors?populate=articles')).body;
    writeFileSync(
      join(work, 'use.ts'),
      `import type { ArticleListResponse, ArticleResponse, AuthorListResponse } from './folio-types';
export const list: ArticleListResponse = ${JSON.stringify(list)};
export const one: ArticleResponse = ${JSON.stringify(one)};
export const authors: AuthorListResponse = ${JSON.stringify(authors)};
export const title: string | null = list.data[0].title;
`,
    );
    // And a response that does not match is refused: the types are not `any`.
    writeFileSync(
      join(work, 'bad.ts'),
      "import type { ArticleResponse } from './folio-types';\n" +
        "export const bad: ArticleResponse = { data: { id: 'x', documentId: 1 }, meta: {} };\n",
    );
    // One compiler run checks both files (a run mostly loads the compiler and its libraries, which are
    // taken as they are: --skipLibCheck skips TypeScript's own .d.ts files, not ours). The ES library only, and
    // run from the temp folder (no node_modules/@types above it): the types must need no DOM and no @types.
    const tsc = await run(
      'node',
      [
        join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--lib',
        'es2022',
        '--moduleResolution',
        'bundler',
        '--module',
        'esnext',
        'use.ts',
        'bad.ts',
      ],
      work,
    );
    const errors = (tsc.stdout + tsc.stderr).split('\n').filter((l) => /error TS\d+/.test(l));
    // The real responses compile: every error is the bad file's.
    expect(errors.filter((l) => !l.includes('bad.ts'))).toEqual([]);
    expect(tsc.code).not.toBe(0);
    expect(errors.length).toBeGreaterThan(0);
  }, 60_000);

  it('serves an OpenAPI 3.1 document that a validator accepts, with every route', async () => {
    const res = await s.api('/api/openapi.json', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(res.body));
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/articles', '/api/articles/{documentId}', '/api/global', '/api/about']),
    );
    const cli = await run('node', [BIN, 'generate', 'openapi', '--dir', s.dir]);
    expect(JSON.parse(cli.stdout)).toEqual(res.body);
  });

  it('lists the users & permissions and upload routes, each one a route the server answers', async () => {
    const doc = (await s.api('/api/openapi.json', { anonymous: true })).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const plugin = Object.keys(doc.paths).filter(
      (p) => !/^\/api\/(articles|authors|categories|tags|global|about)\b/.test(p),
    );
    expect(plugin).toEqual(
      expect.arrayContaining([
        '/api/auth/local',
        '/api/auth/local/register',
        '/api/users/me',
        '/api/users/{id}',
        '/api/users-permissions/roles/{id}',
        '/api/upload',
        '/api/upload/files/{id}',
      ]),
    );
    // Refresh-token routes answer only in that mode (they 404 otherwise, as in Strapi).
    const always = plugin.filter((p) => !/\/api\/auth\/(refresh|logout|sessions)/.test(p));
    expect(always.length).toBeGreaterThan(15);
    for (const path of always) {
      for (const method of Object.keys(doc.paths[path])) {
        const url = path.replace(/\{[^}]+\}/g, '999999');
        const res = await s.api(url, {
          method: method.toUpperCase(),
          anonymous: true,
          ...(method === 'get' ? {} : { body: {} }),
        });
        const what = `${method.toUpperCase()} ${url}: ${res.status} ${res.text.slice(0, 120)}`;
        expect(res.status, what).not.toBe(405);
        if (res.status === 404) expect(res.body?.error?.message, what).not.toBe('Not Found');
      }
    }
  });

  it('renders the documentation page from local assets', async () => {
    const page = await s.api('/documentation', { anonymous: true });
    expect(page.status).toBe(200);
    expect(page.text).toContain('/documentation/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const js = await fetch(`${s.url}/documentation/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${s.url}/documentation/../package.json`)).status).toBe(404);
  });
});
