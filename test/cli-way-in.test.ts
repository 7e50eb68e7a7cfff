import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** The CLI in this process (see helpers/cli.ts): what is checked is what it prints and writes. */
const folio = (args: string[]) => runFolio(args);

describe('/ leads to the Studio, /api lists the types', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('GET / redirects to Folio Studio, as Strapi redirects to its admin', async () => {
    const r = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/admin');
    expect(await r.text()).toBe('Redirecting to /admin.');
  });

  it('GET /api (and /api/) lists them as JSON', async () => {
    for (const path of ['/api', '/api/']) {
      const r = await server.api(path, { anonymous: true });
      expect(r.status).toBe(200);
      expect(r.body.data).toContainEqual({
        uid: 'api::article.article',
        kind: 'collectionType',
        displayName: 'Article',
        route: '/api/articles',
      });
      expect(r.body.data).toContainEqual(expect.objectContaining({ uid: 'api::global.global', route: '/api/global' }));
      expect(r.body.meta).toMatchObject({ openapi: '/api/openapi.json' });
    }
    // Strapi has no route at /api: other methods keep its 404 (a PUT to /api/articles/.. arrives as PUT /api/).
    expect((await server.api('/api', { method: 'POST', body: {} })).status).toBe(404);
  });

  it("keeps Strapi's 404 for every other unknown path", async () => {
    for (const path of ['/api/nope', '/api/nope/x/y', '/nope']) {
      const r = await server.api(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        data: null,
        error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
      });
    }
  });
});

describe('no dead ends', () => {
  it('init points to folio types create and ignores export/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-init-'));
    try {
      const r = await folio(['init', join(dir, 'site')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Next:\n {2}cd .*site\n {2}folio types create /);
      expect(r.stdout).not.toContain('content/types/<singularName>.json');
      expect(readFileSync(join(dir, 'site', '.gitignore'), 'utf8').split('\n')).toContain('export/');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('locales default makes a locale the default again, as the hint of locales remove says', async () => {
    const project = makeProject();
    const d = ['--dir', project.dir];
    const config = () => JSON.parse(readFileSync(join(project.contentDir, 'folio.json'), 'utf8'));
    try {
      expect((await folio(['locales', 'add', 'de', '--default', ...d])).code).toBe(0);
      expect(config().defaultLocale).toBe('de');
      const refused = await folio(['locales', 'remove', 'de', ...d]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('"folio locales default <code>"');
      const r = await folio(['locales', 'default', 'en', ...d]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('en is now the default locale\n');
      expect(config().defaultLocale).toBe('en');
      expect(config().locales.map((l: { code: string }) => l.code)).toEqual(['en', 'fr', 'de']);
      const unknown = await folio(['locales', 'default', 'it', ...d]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('add it with "folio locales add it --default"');
      expect((await folio(['locales', 'remove', 'de', ...d])).code).toBe(0);
    } finally {
      project.cleanup();
    }
  });

  it('the ready banner shows only links that answer without credentials', async () => {
    const project = makeProject();
    let child: ChildProcess | undefined;
    try {
      child = spawn('node', [BIN, 'serve', '--port', '0', '--no-watch', '--dir', project.dir], {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no banner: ${text}`)), 20_000);
        child!.stdout!.on('data', (d: Buffer) => {
          text += d.toString();
          if (/or need an API token.*\n/.test(text)) {
            clearTimeout(timer);
            resolve(text);
          }
        });
      });
      const links = [...out.matchAll(/(http:\/\/\S+)/g)].map((m) => m[1]);
      expect(links.length).toBeGreaterThanOrEqual(4);
      for (const link of links) expect((await fetch(link)).status, link).toBe(200);
      // The fixture's public role may find articles, not tags; the single type about has no content yet.
      expect(links.some((l) => l.endsWith('/api/articles'))).toBe(true);
      expect(links.some((l) => l.endsWith('/api/tags') || l.endsWith('/api/about'))).toBe(false);
      expect(out).toMatch(/\/api\/about.*\/api\/tags: no content yet, or need an API token/);
    } finally {
      child?.kill('SIGTERM');
      project.cleanup();
    }
  });
});
