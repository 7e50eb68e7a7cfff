import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, makeProject } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';

/** The CLI over a temp project, run in this process by its main(argv) (see helpers/cli.ts). */
const folio = (args: string[], input?: string) => runFolio(args, { input });
/** The CLI as a user runs it: `node bin/folio …` (the built dist/), for the end-to-end tests here. */
const spawned = (args: string[], input?: string) => spawnFolio(args, { input });

const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;

describe('folio CLI: types and docs', () => {
  const project = makeProject();
  const dir = ['--dir', project.dir];
  const docsDir = (plural: string) => join(project.contentDir, 'documents', plural);
  const fileOf = (plural: string, id: string) => join(docsDir(plural), `${id}.json`);
  const readDoc = (plural: string, id: string) => JSON.parse(readFileSync(fileOf(plural, id), 'utf8'));
  const count = (plural: string) => (existsSync(docsDir(plural)) ? readdirSync(docsDir(plural)).length : 0);
  afterAll(() => project.cleanup());

  it('--help lists the commands and exits 0', async () => {
    const r = await spawned(['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const c of ['serve', 'types', 'docs']) expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
    expect(r.stdout).toContain('--dir');
  });

  it('docs --help lists every document command', async () => {
    const r = await folio(['docs', '--help']);
    expect(r.code).toBe(0);
    for (const c of ['list', 'get', 'create', 'update', 'delete', 'publish', 'unpublish', 'discard-draft']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
    }
  });

  it('an unknown command fails with a message and a non-zero exit', async () => {
    const r = await folio(['frobnicate', ...dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  // Only the run command's module is loaded (see GROUPS in cli/main.ts): each way of placing the project
  // folder must still find the command, and the commands sharing one (`types` and the schema builder's
  // subcommands, `components`) must all be there.
  it.each([
    ['the folder after the command', ['types', 'list', '--dir', '<dir>'], /^api::article\.article\b/m],
    ['the folder before the command', ['--dir', '<dir>', 'types', 'list'], /^api::article\.article\b/m],
    ['the short option before the command', ['-d', '<dir>', 'types', 'list'], /^api::article\.article\b/m],
    ['--dir=<dir> before the command', ['--dir=<dir>', '--quiet', 'types', 'list'], /^api::article\.article\b/m],
    ["the builder's subcommand of types", ['types', 'add-field', '--help'], /Usage: folio types add-field/],
    ['components, from the builder', ['components', 'list', '--dir', '<dir>'], /shared\.seo/],
    ['a mistyped command, with a suggestion', ['serv'], /\(Did you mean serve\?\)/],
    [
      "a subcommand's help, with its examples",
      ['types', 'show', '--help'],
      /Examples:\n {2}folio types show article\n/,
    ],
    [
      "the program's help asked before a command, listing them all",
      ['--help', 'docs'],
      /^ {2}serve\b[\s\S]*^ {2}components\b/m,
    ],
    [
      'an unknown option before the command (help lists them all)',
      ['--bogus', 'types', 'list'],
      /unknown option '--bogus'[\s\S]*^ {2}serve\b/m,
    ],
  ])('finds the command with %s', async (_, args, expected) => {
    const r = await folio(args.map((a) => a.replace('<dir>', project.dir)));
    expect(`${r.stdout}${r.stderr}`).toMatch(expected);
  });

  it('finds the command when the project folder, given with bundled short flags, is named like a command', async () => {
    // `-qd docs` is -q and -d docs: the folder `docs` must not be taken for the `docs` command.
    const parent = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    try {
      symlinkSync(project.dir, join(parent, 'docs'));
      const r = await runFolio(['-qd', 'docs', 'types', 'list'], { cwd: parent });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^api::article\.article\b/m);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('types list prints one line per content-type with its kind, route and options', async () => {
    const r = await folio(['types', 'list', ...dir]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^uid\s+kind\s+route\s+d&p\s+i18n\s+documents$/);
    expect(lines).toHaveLength(7);
    expect(r.stdout).toMatch(/^api::article\.article\s+collectionType\s+\/api\/articles\s+yes\s+yes\s+0$/m);
    expect(r.stdout).toMatch(/^api::category\.category\s+collectionType\s+\/api\/categories\s+no\s+no\s+0$/m);
    expect(r.stdout).toMatch(/^api::global\.global\s+singleType\s+\/api\/global\s+no\s+no\s+0$/m);
    expect(r.stdout).toMatch(/^api::about\.about\s+singleType\s+\/api\/about\s+yes\s+yes\s+0$/m);
  });

  it('types list --json prints the same as JSON', async () => {
    const r = await folio(['types', 'list', '--json', ...dir]);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list.map((t) => t.uid).sort()).toEqual([
      'api::about.about',
      'api::article.article',
      'api::author.author',
      'api::category.category',
      'api::global.global',
      'api::tag.tag',
    ]);
    expect(list.find((t) => t.uid === 'api::article.article')).toMatchObject({
      kind: 'collectionType',
      singularName: 'article',
      pluralName: 'articles',
      route: '/api/articles',
      draftAndPublish: true,
      localized: true,
      documents: 0,
    });
    expect(list.find((t) => t.uid === 'api::global.global')).toMatchObject({
      kind: 'singleType',
      route: '/api/global',
      draftAndPublish: false,
      localized: false,
    });
  });

  let techId = '';

  it('docs create --data writes the document file and says what it created', async () => {
    const r = await folio(['docs', 'create', 'categories', '--data', '{"name":"Tech","slug":"tech"}', ...dir]);
    expect(r.code, r.stderr).toBe(0);
    const m = /^created category ([a-z0-9]+)\n$/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    techId = m![1];
    expect(techId).toMatch(DOCUMENT_ID);
    const file = readDoc('categories', techId);
    expect(file).toMatchObject({ documentId: techId, published: { name: 'Tech', slug: 'tech', description: null } });
    expect(file.published.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const text = readFileSync(fileOf('categories', techId), 'utf8');
    expect(text).toBe(`${JSON.stringify(file, null, 2)}\n`);
  });

  it('docs create --json prints the REST envelope', async () => {
    const r = await folio(['docs', 'create', 'categories', '--data', '{"name":"Science"}', '--json', ...dir]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.meta).toEqual({});
    expect(out.data).toMatchObject({ name: 'Science', slug: null, description: null });
    expect(out.data.documentId).toMatch(DOCUMENT_ID);
    expect(existsSync(fileOf('categories', out.data.documentId))).toBe(true);
  });

  it('docs create reads the data from standard input (piped, or with --data -)', async () => {
    const piped = await spawned(['docs', 'create', 'tags', '--json', ...dir], '{"name":"from-stdin"}');
    expect(piped.code, piped.stderr).toBe(0);
    const id = JSON.parse(piped.stdout).data.documentId;
    expect(readDoc('tags', id).published.name).toBe('from-stdin');

    const dash = await folio(
      ['docs', 'create', 'tags', '--data', '-', '--json', ...dir],
      '{"data":{"name":"rest-shaped"}}\n',
    );
    expect(dash.code, dash.stderr).toBe(0);
    expect(readDoc('tags', JSON.parse(dash.stdout).data.documentId).published.name).toBe('rest-shaped');
  });

  it('types list counts the documents', async () => {
    const list = JSON.parse((await folio(['types', 'list', '--json', ...dir])).stdout) as Array<{
      uid: string;
      documents: number;
    }>;
    expect(list.find((t) => t.uid === 'api::category.category')!.documents).toBe(2);
    expect(list.find((t) => t.uid === 'api::tag.tag')!.documents).toBe(2);
  });

  it('docs list prints a table for people', async () => {
    const r = await folio(['docs', 'list', 'categories', ...dir]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^documentId\s+label\s+updatedAt$/);
    expect(r.stdout).toMatch(new RegExp(`^${techId}\\s+Tech\\s+\\d{4}-`, 'm'));
    expect(r.stdout).toMatch(/\sScience\s/);
    expect(lines[lines.length - 1]).toBe('page 1 of 1 (2 in all)');
  });

  it('docs list --json prints the REST list envelope with pagination', async () => {
    const r = await folio(['docs', 'list', 'categories', '--json', ...dir]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } });
    expect(out.data.map((d: { name: string }) => d.name).sort()).toEqual(['Science', 'Tech']);
    expect(out.data.find((d: { documentId: string }) => d.documentId === techId)).toMatchObject({
      id: expect.any(Number),
      name: 'Tech',
      slug: 'tech',
    });
  });

  it("docs list filters and sorts with the API's query rules", async () => {
    const r = await folio(['docs', 'list', 'categories', '--filter', 'name[$eq]=Tech', '--json', ...dir]);
    expect(JSON.parse(r.stdout).data.map((d: { name: string }) => d.name)).toEqual(['Tech']);
    const sorted = await folio(['docs', 'list', 'categories', '--sort', 'name:desc', '--json', ...dir]);
    expect(JSON.parse(sorted.stdout).data.map((d: { name: string }) => d.name)).toEqual(['Tech', 'Science']);
  });

  it('docs get prints the document (and --json the envelope)', async () => {
    const r = await folio(['docs', 'get', 'categories', techId, ...dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ documentId: techId, name: 'Tech', slug: 'tech', description: null });
    const j = JSON.parse((await folio(['docs', 'get', 'categories', techId, '--json', ...dir])).stdout);
    expect(j).toEqual({ data: expect.objectContaining({ documentId: techId, name: 'Tech' }), meta: {} });
  });

  it('docs get of an unknown documentId fails with a message', async () => {
    const r = await folio(['docs', 'get', 'categories', 'zzzzzzzzzzzzzzzzzzzzzzzz', ...dir]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/zzzzzzzzzzzzzzzzzzzzzzzz/);
  });

  it('docs update changes only the given attributes, on disk too', async () => {
    const before = readDoc('categories', techId).published;
    const r = await folio([
      'docs',
      'update',
      'categories',
      techId,
      '--data',
      '{"description":"All things tech"}',
      ...dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`updated category ${techId}\n`);
    const after = readDoc('categories', techId).published;
    expect(after).toMatchObject({
      name: 'Tech',
      slug: 'tech',
      description: 'All things tech',
      createdAt: before.createdAt,
    });
    expect(after.updatedAt).not.toBe(before.updatedAt);
    expect(JSON.parse((await folio(['docs', 'get', 'categories', techId, ...dir])).stdout).description).toBe(
      'All things tech',
    );
  });

  it('docs update of an unknown documentId fails and writes nothing', async () => {
    const before = count('categories');
    const r = await folio([
      'docs',
      'update',
      'categories',
      'zzzzzzzzzzzzzzzzzzzzzzzz',
      '--data',
      '{"name":"x"}',
      ...dir,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/No category with documentId zzzzzzzzzzzzzzzzzzzzzzzz/);
    expect(count('categories')).toBe(before);
  });

  it('docs delete removes the file; deleting again fails', async () => {
    const id = JSON.parse(
      (await folio(['docs', 'create', 'tags', '--data', '{"name":"doomed"}', '--json', ...dir])).stdout,
    ).data.documentId;
    expect(existsSync(fileOf('tags', id))).toBe(true);
    const r = await folio(['docs', 'delete', 'tags', id, ...dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`deleted tag ${id} (1 version)\n`);
    expect(existsSync(fileOf('tags', id))).toBe(false);
    const again = await folio(['docs', 'delete', 'tags', id, ...dir]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(new RegExp(`No tag ${id}`));
    expect((await folio(['docs', 'get', 'tags', id, ...dir])).code).not.toBe(0);
  });

  it('drafts, publishes, unpublishes and discards drafts, with the file following', async () => {
    const created = await folio([
      'docs',
      'create',
      'articles',
      '--status',
      'draft',
      '--data',
      '{"title":"WIP"}',
      ...dir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = /^created article ([a-z0-9]+) \(en\) as a draft\n$/.exec(created.stdout)![1];
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft']);
    expect((await folio(['docs', 'get', 'articles', id, ...dir])).code).not.toBe(0);
    expect(
      JSON.parse((await folio(['docs', 'get', 'articles', id, '--status', 'draft', ...dir])).stdout),
    ).toMatchObject({ title: 'WIP', publishedAt: null });

    expect((await folio(['docs', 'publish', 'articles', id, ...dir])).code).toBe(0);
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft', 'published']);
    expect(JSON.parse((await folio(['docs', 'get', 'articles', id, ...dir])).stdout).title).toBe('WIP');

    expect(
      (await folio(['docs', 'update', 'articles', id, '--status', 'draft', '--data', '{"title":"Edited"}', ...dir]))
        .code,
    ).toBe(0);
    expect(readDoc('articles', id).locales.en.published.title).toBe('WIP');
    expect(readDoc('articles', id).locales.en.draft.title).toBe('Edited');
    expect((await folio(['docs', 'discard-draft', 'articles', id, ...dir])).code).toBe(0);
    expect(readDoc('articles', id).locales.en.draft.title).toBe('WIP');

    expect((await folio(['docs', 'unpublish', 'articles', id, ...dir])).code).toBe(0);
    expect(Object.keys(readDoc('articles', id).locales.en)).toEqual(['draft']);
    expect((await folio(['docs', 'get', 'articles', id, ...dir])).code).not.toBe(0);
    const nothing = await folio(['docs', 'unpublish', 'articles', id, ...dir]);
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toMatch(/no published version/);
  });

  it('single types need no documentId', async () => {
    const r = await folio(['docs', 'create', 'global', '--data', '{"siteName":"My site"}', ...dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse((await folio(['docs', 'get', 'global', ...dir])).stdout).siteName).toBe('My site');
    expect((await folio(['docs', 'update', 'global', '--data', '{"siteName":"Renamed"}', ...dir])).code).toBe(0);
    expect(readdirSync(docsDir('globals'))).toHaveLength(1);
    expect(JSON.parse((await folio(['docs', 'get', 'global', ...dir])).stdout).siteName).toBe('Renamed');
    expect((await folio(['docs', 'delete', 'global', ...dir])).code).toBe(0);
    expect(readdirSync(docsDir('globals'))).toHaveLength(0);
  });

  it.each([
    ['an unknown type', ['docs', 'list', 'nopes'], /Unknown content-type "nopes"/],
    [
      'an unknown type on create',
      ['docs', 'create', 'nopes', '--data', '{"name":"x"}'],
      /Unknown content-type "nopes"/,
    ],
    ['invalid JSON', ['docs', 'create', 'authors', '--data', '{oops'], /--data is not valid JSON/],
    ['a JSON array', ['docs', 'create', 'authors', '--data', '[1,2]'], /must be a JSON object/],
    [
      'a missing required attribute',
      ['docs', 'create', 'authors', '--data', '{"bio":"no name"}'],
      /ValidationError: name is required\n/,
    ],
    [
      'a value over its maximum',
      ['docs', 'create', 'articles', '--data', JSON.stringify({ title: 'x'.repeat(121) })],
      /title must be at most 120 characters/,
    ],
    [
      'a wrong number',
      ['docs', 'create', 'articles', '--data', '{"title":"t","views":"abc"}'],
      /views must be a number, not the string "abc"/,
    ],
    [
      'an unknown attribute',
      ['docs', 'create', 'authors', '--data', '{"name":"x","nope":1}'],
      /author has no field "nope"\. Its fields: name, /,
    ],
    [
      'a duplicate unique value',
      ['docs', 'create', 'categories', '--data', '{"name":"Tech"}'],
      /ValidationError: name: "Tech" is already used by category \w+\n/,
    ],
    [
      'an update that breaks validation',
      ['docs', 'update', 'categories', '__TECH__', '--data', '{"name":null}'],
      /ValidationError: name is required\n/,
    ],
    ['an unknown filter key', ['docs', 'list', 'articles', '--filter', 'nope=1'], /Invalid key nope/],
    [
      'a bad --status',
      ['docs', 'create', 'articles', '--status', 'maybe', '--data', '{"title":"t"}'],
      /--status must be "draft" or "published"/,
    ],
  ])('%s: a clear message on stderr, a non-zero exit, nothing written', async (_label, args, message) => {
    const before = ['authors', 'articles', 'categories'].map((p) =>
      existsSync(docsDir(p)) ? readdirSync(docsDir(p)).map((f) => readFileSync(join(docsDir(p), f), 'utf8')) : [],
    );
    const r = await folio([...args.map((a) => (a === '__TECH__' ? techId : a)), ...dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/); // no stack trace
    expect(r.stdout).toBe('');
    const after = ['authors', 'articles', 'categories'].map((p) =>
      existsSync(docsDir(p)) ? readdirSync(docsDir(p)).map((f) => readFileSync(join(docsDir(p), f), 'utf8')) : [],
    );
    expect(after).toEqual(before);
  });

  it('lists every field problem of a refused write', async () => {
    const r = await folio([
      'docs',
      'create',
      'articles',
      '--data',
      JSON.stringify({ title: 'x'.repeat(121), views: 'abc' }),
      ...dir,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/2 errors occurred/);
    expect(r.stderr).toMatch(/^\s+title: title must be at most 120 characters$/m);
    expect(r.stderr).toMatch(/^\s+views: views must be a number, not the string "abc"$/m);
  });

  it('explains what to do when there is no project', async () => {
    const r = await folio(['types', 'list', '--dir', join(project.dir, 'not-a-project')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/no content\/ folder/);
    expect(r.stderr).toMatch(/folio init/);
  });
});

describe('folio CLI over a project with a broken schema', () => {
  const project = makeProject();
  afterAll(() => project.cleanup());

  it('still lists the good types and reports the broken one on stderr', async () => {
    writeFileSync(
      join(project.contentDir, 'types', 'broken.json'),
      JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'broken', pluralName: 'brokens', displayName: 'Broken' },
        attributes: { x: { type: 'hologram' } },
      }),
    );
    const r = await folio(['types', 'list', '--json', '--dir', project.dir]);
    expect(r.code).toBe(0);
    const uids = (JSON.parse(r.stdout) as Array<{ uid: string }>).map((t) => t.uid);
    expect(uids).toContain('api::article.article');
    expect(uids).not.toContain('api::broken.broken');
    expect(r.stderr).toMatch(/broken\.json: attribute "x": unknown attribute type "hologram"/);
    const create = await folio(['docs', 'create', 'brokens', '--data', '{"x":1}', '--dir', project.dir]);
    expect(create.code).not.toBe(0);
    expect(create.stderr).toMatch(/Unknown content-type "brokens"/);
  });
});

describe('folio serve', () => {
  const project = makeProject();
  let child: ReturnType<typeof spawn> | undefined;
  beforeAll(async () => {
    const r = await folio(['docs', 'create', 'categories', '--data', '{"name":"Served"}', '--dir', project.dir]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    project.cleanup();
  });

  it('prints its URL and serves the documents the CLI wrote', async () => {
    child = spawn('node', [BIN, 'serve', '--port', '0', '--no-watch', '--dir', project.dir], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 15_000);
      child!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/[^\s]+)\/api\b/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code}: ${out}`));
      });
    });
    expect(url).toMatch(/^http:\/\/localhost:\d+$/);
    // The public role may find categories (fixtures/blog/README.md).
    const res = await fetch(`${url}/api/categories`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ name: string }>; meta: unknown };
    expect(body.data.map((d) => d.name)).toEqual(['Served']);
    expect(body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } });
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
