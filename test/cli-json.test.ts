import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';

/**
 * In this process (see helpers/cli.ts): what is checked is the document each command prints. With `spawned`,
 * in a process of its own as a user runs it, its output read from a real pipe.
 */
const folio = (args: string[], spawned = false) => (spawned ? spawnFolio(args) : runFolio(args));

/** Runs a command with --json and returns the one JSON document it printed (nothing else on stdout or stderr). */
async function json(args: string[], spawned = false) {
  const r = await folio([...args, '--json'], spawned);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** Runs a command with --json that must fail: stdout stays empty, stderr holds one `{"error":…}` document. */
async function jsonError(args: string[], code: number, spawned = false) {
  const r = await folio([...args, '--json'], spawned);
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  const body = JSON.parse(r.stderr) as { error: { name: string; message: string; details: Record<string, unknown> } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error)).toEqual(['name', 'message', 'details']);
  return body.error;
}

describe('--json on every command', () => {
  let dir: string;
  let d: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'folio-json-'));
    d = ['--dir', dir];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one JSON document for each command that changes the project', { timeout: 120_000 }, async () => {
    expect(await json(['init', dir])).toMatchObject({ root: dir, contentDir: join(dir, 'content'), example: null });
    expect(await json(['types', 'create', '--display-name', 'Person', ...d])).toMatchObject({
      info: { singularName: 'person', displayName: 'Person' },
    });
    expect(await json(['types', 'add-field', 'person', 'name', '--type', 'string', ...d])).toEqual({
      uid: 'api::person.person',
      field: 'name',
      attribute: { type: 'string' },
      inverse: null,
      filled: 0,
    });
    expect(await json(['types', 'rename-field', 'person', 'name', 'fullName', ...d])).toEqual({
      uid: 'api::person.person',
      from: 'name',
      to: 'fullName',
      documentFiles: 0,
    });
    expect(await json(['types', 'remove-field', 'person', 'fullName', ...d])).toMatchObject({ field: 'fullName' });
    expect(await json(['components', 'create', 'shared.hero', ...d])).toMatchObject({
      uid: 'shared.hero',
      schema: { info: { displayName: 'Hero' } },
    });
    expect(await json(['components', 'add-field', 'shared.hero', 'heading', '--type', 'string', ...d])).toEqual({
      uid: 'shared.hero',
      field: 'heading',
      attribute: { type: 'string' },
    });
    expect(await json(['locales', 'add', 'de', ...d])).toMatchObject({ defaultLocale: 'en' });
    expect(await json(['locales', 'default', 'de', ...d])).toMatchObject({ defaultLocale: 'de' });
    expect(await json(['locales', 'default', 'en', ...d])).toMatchObject({ defaultLocale: 'en' });
    const removed = await json(['locales', 'remove', 'de', ...d]);
    expect((removed.locales as Array<{ code: string }>).map((l) => l.code)).toEqual(['en']);
    expect(await json(['permissions', 'grant', 'person.find', ...d])).toMatchObject({
      role: 'public',
      granted: ['api::person.person.find'],
    });
    expect(await json(['permissions', 'revoke', 'person.find', ...d])).toMatchObject({
      role: 'public',
      revoked: ['api::person.person.find'],
    });
    const types = await json(['generate', 'types', ...d]);
    expect(types.types).toContain('Person');
    expect(await json(['generate', 'types', '--out', join(dir, 'types.ts'), ...d])).toMatchObject({
      out: join(dir, 'types.ts'),
    });
    // Spawned: the largest document here, read whole from a real pipe once the process has ended.
    expect(await json(['generate', 'openapi', ...d], true)).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
    expect(await json(['export', '--out', join(dir, 'export'), ...d])).toMatchObject({ out: join(dir, 'export') });
    expect(await json(['types', 'delete', 'person', '--yes', ...d])).toEqual({
      uid: 'api::person.person',
      documents: 0,
      removedFields: [],
    });
    expect(existsSync(join(dir, 'content', 'types', 'person.json'))).toBe(false);
  });

  it('reports failures as {"error":{name,message,details}} on stderr with status 1', async () => {
    // One run spawned, for the status a shell sees; the others in this process.
    const unknown = await jsonError(['types', 'add-field', 'nope', 'x', '--type', 'string', ...d], 1, true);
    expect(unknown.message).toMatch(/Unknown content-type "nope"/);
    await json(['types', 'create', '--display-name', 'Note', ...d]);
    await json(['types', 'add-field', 'note', 'title', '--type', 'string', '--required', ...d]);
    const invalid = await jsonError(['docs', 'create', 'notes', '--data', '{}', ...d], 1);
    expect(invalid.name).toBe('ValidationError');
    expect(invalid.details.errors).toEqual([expect.objectContaining({ path: ['title'] })]);
    // --json never asks: the confirmation a terminal would get is an error naming --yes.
    expect((await jsonError(['types', 'delete', 'note', ...d], 1)).message).toMatch(/--yes/);
  });

  it('serve --json prints one JSON document when ready, with the routes', async () => {
    const child = spawn('node', [BIN, 'serve', '--port', '0', '--no-watch', '--json', ...d], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`nothing printed: ${out}`)), 20_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.endsWith('}\n')) {
            clearTimeout(timer);
            resolve(out);
          }
        });
      });
      const ready = JSON.parse(line) as { url: string; contentTypes: Array<{ uid: string; url: string }> };
      expect(ready.url).toMatch(/^http:\/\/localhost:\d+$/);
      expect(ready.contentTypes).toContainEqual(
        expect.objectContaining({ uid: 'api::note.note', route: '/api/notes', url: `${ready.url}/api/notes` }),
      );
      expect((await fetch(`${ready.url}/api`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('reports usage errors with status 2, in JSON with --json and as text without', async () => {
    // One run spawned, for the status a shell sees; the others in this process.
    const missing = await jsonError(['types', 'add-field', ...d], 2, true);
    expect(missing).toMatchObject({ name: 'UsageError', details: { code: 'commander.missingArgument' } });
    expect(missing.message).toMatch(/missing required argument 'type'/);
    expect((await jsonError(['typez', ...d], 2)).message).toMatch(/unknown command 'typez'/);
    expect((await jsonError(['types', 'list', '--bogus', ...d], 2)).details).toEqual({
      code: 'commander.unknownOption',
    });
    const text = await folio(['types', 'list', '--bogus', ...d]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^error: unknown option '--bogus'/);
    const help = await folio(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: folio');
  });
});
