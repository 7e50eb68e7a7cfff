import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, makeProject, startTestServer } from './helpers/project.js';
import { RED_PNG } from './helpers/media.js';
import { runFolio } from './helpers/cli.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI run in this process (see helpers/cli.ts), the messages being what these tests are about; with
 * `spawned`, as a user runs it in a process of its own, `input` piped on its standard input.
 */
async function folio(dir: string, args: string[], input?: string, spawned = false): Promise<Run> {
  if (!spawned) return runFolio([...args, '--dir', dir], { input });
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, '--dir', dir], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('messages a user can act on', () => {
  let project: ReturnType<typeof makeProject>;
  let dir: string;
  let author: string;
  let textFile: number;
  const ok = async (args: string[], input?: string) => {
    const r = await folio(dir, args, input);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const fails = async (args: string[], input?: string, spawned = false) => {
    const r = await folio(dir, args, input, spawned);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toBe('');
    return r.stderr;
  };

  beforeAll(async () => {
    project = makeProject();
    dir = project.dir;
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    writeFileSync(join(dir, 'red.png'), RED_PNG);
    author = JSON.parse((await ok(['docs', 'create', 'authors', '--data', '{"name":"Ada"}', '--json'])).stdout).data
      .documentId;
    const added = JSON.parse((await ok(['media', 'add', join(dir, 'notes.txt'), '--json'])).stdout);
    textFile = added[0].id;
  }, 60_000);
  afterAll(() => project.cleanup());

  it('a missing required field says it is required (--json keeps the API wording)', async () => {
    expect(await fails(['docs', 'create', 'articles', '--data', '{"description":"x"}'])).toBe(
      'ValidationError: title is required\n',
    );
    const json = await folio(dir, ['docs', 'create', 'articles', '--data', '{"description":"x"}', '--json']);
    expect(JSON.parse(json.stderr).error.message).toBe(
      'title must be a `string` type, but the final value was: `null`.',
    );
  });

  it('an enum error lists the values without a trailing comma', async () => {
    await ok(['types', 'add-field', 'article', 'stage', '--type', 'enumeration', '--enum', 'draft,review,done']);
    const err = await fails(['docs', 'create', 'articles', '--data', '{"title":"t","stage":"nope"}']);
    expect(err).toBe('ValidationError: stage must be one of: draft, review, done\n');
  });

  it('a relation to a document that does not exist names the field and the id', async () => {
    const err = await fails(['docs', 'create', 'articles', '--data', '{"title":"t","author":"nope"}']);
    expect(err).toBe('ValidationError: author: no author with id "nope" (see "folio docs list authors")\n');
    expect(err).not.toContain('locale "null"');
  });

  it('a media id that is not in the library names the field', async () => {
    const err = await fails(['docs', 'create', 'articles', '--data', '{"title":"t","cover":999}']);
    expect(err).toBe('ValidationError: cover: no media file with id or documentId 999 (see "folio media list")\n');
  });

  it('an unknown documentId, and a draft read as published, say what to do', async () => {
    expect(await fails(['docs', 'get', 'articles', 'nope'])).toBe(
      'Error: No article with documentId "nope" (see "folio docs list articles")\n',
    );
    const draft = JSON.parse(
      (await ok(['docs', 'create', 'articles', '--status', 'draft', '--data', '{"title":"WIP"}', '--json'])).stdout,
    ).data.documentId;
    expect(await fails(['docs', 'get', 'articles', draft])).toMatch(
      new RegExp(`^Error: article ${draft} has no published version in en, only a draft: pass --status draft`),
    );
    expect((await ok(['docs', 'get', 'articles', draft, '--status', 'draft'])).stdout).toContain('"WIP"');
  });

  it('JSON piped on standard input is reported as such, with its line and column', async () => {
    expect(await fails(['docs', 'create', 'authors'], '{\n  "name": "x",\n}\n', true)).toBe(
      'Error: The JSON on standard input is not valid JSON (line 3, column 1: trailing comma)\n',
    );
    expect(await fails(['docs', 'create', 'authors', '--data', '{"name" "x"}'])).toBe(
      'Error: --data is not valid JSON (line 1, column 9: expected ":")\n',
    );
  });

  it('docs list --fields (or fields in --query) still shows the status and locale of each row', async () => {
    await ok(['docs', 'create', 'articles', '--data', '{"title":"Shown"}']);
    for (const args of [
      ['--fields', 'title'],
      ['--query', 'fields[0]=title'],
    ]) {
      const r = await ok(['docs', 'list', 'articles', ...args, '--filter', 'title=Shown']);
      expect(r.stdout).toMatch(/^[a-z0-9]{24}\s+en\s+published\s+Shown/m);
    }
  });

  it('docs update on an empty single type creates its content', async () => {
    const r = await ok(['docs', 'update', 'global', '--data', '{"siteName":"Folio"}']);
    expect(r.stdout).toMatch(/^updated global \w+/);
    expect(JSON.parse((await ok(['docs', 'get', 'global'])).stdout)).toMatchObject({ siteName: 'Folio' });
  });

  it('validate reports every problem of a file, with line:column for JSON syntax', async () => {
    const other = makeProject();
    try {
      const folder = join(other.contentDir, 'documents', 'categories');
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, 'brokencategory0000000000.json'),
        JSON.stringify({
          documentId: 'brokencategory0000000000',
          published: { id: 1, name: 'A', bogus: 1, other: 2, slug: 'a b' },
        }),
      );
      writeFileSync(join(folder, 'brokenjson00000000000000.json'), '{\n  "documentId": "x"\n  "published": {},\n}\n');
      const r = await folio(other.dir, ['validate']);
      expect(r.code).toBe(1);
      const file = 'content/documents/categories';
      expect(r.stdout.trim().split('\n').sort()).toEqual(
        [
          `${file}/brokencategory0000000000.json: published.bogus: is not an attribute of api::category.category`,
          `${file}/brokencategory0000000000.json: published.other: is not an attribute of api::category.category`,
          `${file}/brokencategory0000000000.json: published.slug: ` +
            'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"',
          `${file}/brokenjson00000000000000.json: 3:3: invalid JSON: expected a comma`,
          `${file}/brokenjson00000000000000.json: 4:1: invalid JSON: trailing comma`,
        ].sort(),
      );
    } finally {
      other.cleanup();
    }
  });

  describe('names are checked where they are created', () => {
    it('a role with a typo is an error unless --create-role', async () => {
      const before = readFileSync(join(project.contentDir, 'permissions.json'), 'utf8');
      const err = await fails(['permissions', 'grant', 'article.find', '--role', 'authenticatd']);
      expect(err).toBe(
        'Error: No role "authenticatd" (roles: authenticated, public); pass --create-role to create it\n',
      );
      expect(readFileSync(join(project.contentDir, 'permissions.json'), 'utf8')).toBe(before);
      await ok(['permissions', 'grant', 'article.find', '--role', 'editor', '--create-role']);
      const roles = JSON.parse(readFileSync(join(project.contentDir, 'permissions.json'), 'utf8')).roles;
      expect(roles.editor.permissions).toEqual(['api::article.article.find']);
    });

    it.each([
      ['xx-YY', '"xx" in "xx-YY" is not a known language'],
      ['fr-XX', '"XX" in "fr-XX" is not a known region'],
      ['en_US', '"en_US" is not a locale code'],
      ['pt-br', '"pt-br" is written "pt-BR" as a locale code'],
    ])('the locale code %s is refused', async (code, message) => {
      expect(await fails(['locales', 'add', code])).toContain(message);
    });

    it('a registered locale code with a script or region is accepted', async () => {
      await ok(['locales', 'add', 'zh-Hans']);
      await ok(['locales', 'add', 'pt-BR']);
    });

    it.each([
      ['1x,b', 'The enumeration value "1x" must start with a letter'],
      ['a b', '"a b" is one value: separate the values with commas (--enum a,b)'],
      ['draft,draft!', 'are the same name'],
    ])('the enum values %j are refused as Strapi refuses them', async (values, message) => {
      const err = await fails(['types', 'add-field', 'tag', 'kind', '--type', 'enumeration', '--enum', values]);
      expect(err).toContain(message);
    });

    it(
      'a text file is refused by an images-only media field, on the CLI and the API alike',
      { timeout: 60_000 },
      async () => {
        const err = await fails([
          'docs',
          'create',
          'articles',
          '--data',
          JSON.stringify({ title: 't', cover: textFile }),
        ]);
        expect(err).toBe('ValidationError: cover only accepts images: this file is text/plain (files)\n');
        // author.avatar takes files too.
        await ok(['docs', 'update', 'authors', author, '--data', JSON.stringify({ avatar: textFile })]);
        const image = JSON.parse((await ok(['media', 'add', join(dir, 'red.png'), '--json'])).stdout)[0];
        const server = await startTestServer({ dir });
        try {
          const refused = await server.api('/api/articles', {
            method: 'POST',
            body: { data: { title: 't', cover: textFile } },
          });
          expect(refused.status).toBe(400);
          expect(refused.body.error).toMatchObject({
            name: 'ValidationError',
            message: 'cover only accepts images: this file is text/plain (files)',
            details: { errors: [{ path: ['cover'] }] },
          });
          const taken = await server.api('/api/articles', {
            method: 'POST',
            body: { data: { title: 't', cover: image.id } },
          });
          expect(taken.status, taken.text).toBe(201);
        } finally {
          await server.stop();
        }
      },
    );
  });
});
