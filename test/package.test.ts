import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers/project.js';

type Run = { code: number; stdout: string; stderr: string };

/** The parent npm's own settings (npm_config_*, npm_package_*) must not steer the npm runs below. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

function run(cmd: string, args: string[], cwd: string, timeout = 30_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...env, NO_COLOR: '1' }, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe('the package as a user installs it', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'folio-package-'));
  const app = join(work, 'app');
  // The installed command, as npm links it for the user.
  const folioBin = join(app, 'node_modules', '.bin', 'folio');
  const folio = (args: string[]) => run(folioBin, args, app);
  let files: string[] = [];

  beforeAll(async () => {
    // What ships is the compiled CLI: `npm test` builds it first (pretest). --ignore-scripts: packing here must
    // not rebuild dist/ (prepack clears it) under the other test files that run it.
    if (!existsSync(join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run npm run build');
    const out = join(work, 'out');
    mkdirSync(out);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], REPO);
    expect(packed.code, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = info.files.map((f) => f.path);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
    // One install per run, from the cache when it can. --engine-strict: the running Node must satisfy the
    // package's (and its dependencies') engines. Optional sharp is left out: Folio runs without it.
    // --ignore-scripts: Folio has no install scripts (checked below); a dependency's are its telemetry.
    const installed = await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--engine-strict',
        '--omit=optional',
        '--ignore-scripts',
        join(out, info.filename),
      ],
      app,
      240_000,
    );
    expect(installed.code, installed.stderr).toBe(0);
  }, 300_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the command, the compiled dist/ and the blog example; no sources, tests, fixtures or maps', () => {
    for (const f of [
      'package.json',
      'README.md',
      'bin/folio',
      'dist/cli/main.js',
      'dist/startup/read-worker.js',
      'content/folio.json',
      'content/permissions.json',
      'content/types/article.json',
      'content/components/shared/seo.json',
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('content/documents/articles/')).length).toBe(
      readdirSync(join(REPO, 'content', 'documents', 'articles')).length,
    );
    const extra = files.filter(
      (f) => !/^(bin|dist|content)\//.test(f) && !['package.json', 'README.md', 'LICENSE'].includes(f),
    );
    expect(extra).toEqual([]);
    // Compiled code and its type declarations; no sources or source maps.
    expect(files.filter((f) => f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
    expect(files).toContain('dist/index.d.ts');
    // Nothing of Folio's runs at install: the install above (--ignore-scripts) skips none of it.
    const installedPackage = join(app, 'node_modules', 'folio-cms', 'package.json');
    const { scripts = {} } = JSON.parse(readFileSync(installedPackage, 'utf8')) as { scripts?: object };
    expect(Object.keys(scripts).filter((s) => /^(pre|post)?install$/.test(s))).toEqual([]);
  });

  it('runs as the installed folio command and reports the package version', async () => {
    const r = await folio(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('init (plain and --example blog), types create with flags, then serve answers a request', async () => {
    const plain = await folio(['init', 'plain']);
    expect(plain.code, plain.stderr).toBe(0);
    for (const f of ['folio.json', 'permissions.json', 'types', 'components'])
      expect(existsSync(join(app, 'plain', 'content', f))).toBe(true);

    const blog = await folio(['init', 'site', '--example', 'blog']);
    expect(blog.code, blog.stderr).toBe(0);
    const site = join(app, 'site');
    expect(readdirSync(join(site, 'content', 'documents', 'articles')).length).toBe(
      readdirSync(join(REPO, 'content', 'documents', 'articles')).length,
    );

    const created = await folio([
      'types',
      'create',
      '--display-name',
      'Blog Post',
      '--draft-and-publish',
      '--dir',
      site,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const schema = JSON.parse(readFileSync(join(site, 'content', 'types', 'blog-post.json'), 'utf8'));
    expect(schema).toMatchObject({ kind: 'collectionType', options: { draftAndPublish: true } });

    const child = spawn(folioBin, ['serve', '--port', '0', '--no-watch', '--dir', site], {
      cwd: app,
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /(http:\/\/[^\s]+)\/api\b/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`serve exited with ${code}: ${out}`));
        });
      });
      // The example's public role may list articles; the new type is served but not public.
      const articles = await fetch(`${url}/api/articles`);
      expect(articles.status).toBe(200);
      const body = (await articles.json()) as { data: Array<{ documentId: string }>; meta: unknown };
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data[0].documentId).toMatch(/^[a-z0-9]{24}$/);
      expect((await fetch(`${url}/api/blog-posts`)).status).toBe(403);
      expect((await fetch(`${url}/api/no-such-things`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('is a package to build on: openFolio and its types, and no deep imports', async () => {
    const made = await folio(['init', 'embedded', '--example', 'blog']);
    expect(made.code, made.stderr).toBe(0);
    // As docs/api.md shows it: open the project, read, write, serve.
    writeFileSync(
      join(app, 'embed.mjs'),
      `import { openFolio, FolioError } from 'folio-cms';
const folio = await openFolio('./embedded');
const before = folio.find('articles', { pagination: { pageSize: 1 } }).meta.pagination.total;
const { data } = await folio.create('tags', { name: 'embedded' });
const server = await folio.listen({ port: 0, host: '127.0.0.1', watch: false });
const listed = await (await fetch(server.url + '/api/articles')).json();
await server.close();
let refused;
try { folio.find('nosuchtypes'); } catch (err) { refused = err instanceof FolioError && err.status; }
console.log(JSON.stringify({ before, tag: data.name, served: listed.data.length > 0, refused }));
`,
    );
    const embed = await run(process.execPath, ['embed.mjs'], app);
    expect(embed.code, embed.stderr).toBe(0);
    expect(JSON.parse(embed.stdout)).toEqual({
      before: expect.any(Number),
      tag: 'embedded',
      served: true,
      refused: 404,
    });
    expect(readdirSync(join(app, 'embedded', 'content', 'documents', 'tags')).length).toBeGreaterThan(0);

    // The modules under dist/ are not part of the API: the exports map closes them.
    writeFileSync(join(app, 'deep.mjs'), "await import('folio-cms/dist/http/compose.js');\n");
    const deep = await run(process.execPath, ['deep.mjs'], app);
    expect(deep.code).not.toBe(0);
    expect(deep.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');

    // The types a TypeScript program gets: a wrong call does not compile, a right one does.
    writeFileSync(
      join(app, 'typed.ts'),
      `import { openFolio, type Folio, type Entry } from 'folio-cms';
const folio: Folio = await openFolio('./embedded');
const first: Entry | undefined = folio.find('articles', 'sort=title').data[0];
const created = await folio.create('tags', { name: String(first?.title) }, { status: 'draft' });
const id: string = created.data.documentId as string;
// @ts-expect-error: a documentId is a string
await folio.delete('tags', 42);
export { id };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true, // as tsc --init sets it: h3's declarations need the DOM's FetchEvent
          typeRoots: [join(REPO, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['typed.ts'],
      }),
    );
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    const tsc = await run(
      process.execPath,
      [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      app,
      120_000,
    );
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  }, 180_000);
});
