import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, TEST_FIXTURES, makeProject } from './helpers/project.js';
import { createApiToken } from '../src/auth/service.js';

/** Runs a command to its end, with its output kept for the failure message. */
const run = (cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });

/** `folio serve` on an ephemeral port; resolves with its URL once it prints it. */
function serve(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('node', [BIN, 'serve', '--port', '0', '--no-watch', '--dir', dir], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/[^\s]+)\/api\b/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${out}`));
    });
  });
}

describe('an Astro 5 site built with @sensinum/astro-strapi-loader from folio serve', () => {
  const project = makeProject();
  const site = mkdtempSync(join(tmpdir(), 'folio-astro-'));
  let server: { child: ChildProcess; url: string } | undefined;
  let token = '';
  // The site reads with a token granted only what the loader needs: the model and the articles with authors.
  let siteToken = '';

  beforeAll(async () => {
    token = (await createApiToken(project.dir, { name: 'seed', type: 'full-access' })).accessKey;
    siteToken = (
      await createApiToken(project.dir, {
        name: 'astro',
        type: 'custom',
        actions: [
          'plugin::content-type-builder.content-types.getContentTypes',
          'plugin::content-type-builder.components.getComponents',
          'api::article.article.find',
          'api::author.author.find',
        ],
      })
    ).accessKey;
    server = await serve(project.dir);
    const post = async (path: string, data: Record<string, unknown>) => {
      const res = await fetch(`${server!.url}/api/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      });
      const body = (await res.json()) as { data: { documentId: string } };
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body.data.documentId;
    };
    const ada = await post('authors', { name: 'Ada' });
    await post('articles', { title: 'First light', slug: 'first-light', views: 3, author: ada });
    await post('articles', { title: 'Second wind', slug: 'second-wind' });
    await post('articles?status=draft', { title: 'Not yet', slug: 'not-yet' });
    // The site is built from a copy, so Astro's generated files stay out of the repository.
    cpSync(join(TEST_FIXTURES, 'astro-site'), site, { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(site, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((r) => server!.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(site, { recursive: true, force: true });
    project.cleanup();
  });

  it('builds one page per published article', { timeout: 240_000 }, async () => {
    const built = await run(process.execPath, [join(REPO, 'node_modules', 'astro', 'astro.js'), 'build'], {
      cwd: site,
      env: {
        ...process.env,
        STRAPI_URL: server!.url,
        STRAPI_TOKEN: siteToken,
        // Nothing but the local server is contacted.
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'production',
      },
    });
    expect(built.code, built.output).toBe(0);
    const pages = join(site, 'dist', 'articles');
    expect(existsSync(pages), built.output).toBe(true);
    expect(readdirSync(pages).sort()).toEqual(['first-light', 'second-wind']);
    const first = readFileSync(join(pages, 'first-light', 'index.html'), 'utf8');
    expect(first).toContain('<h1>First light</h1>');
    expect(first).toContain('<p class="author">Ada</p>');
    const second = readFileSync(join(pages, 'second-wind', 'index.html'), 'utf8');
    expect(second).toContain('<h1>Second wind</h1>');
    expect(second).toContain('<p class="author">anonymous</p>');
  });
});
