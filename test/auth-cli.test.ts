import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';
import { bearer, filesHolding } from './helpers/auth.js';

/** The CLI, run in this process by its main(argv) (see helpers/cli.ts), with optional standard input. */
const folio = (args: string[], input?: string) => runFolio(args, { input });

describe('folio permissions, users and tokens', () => {
  let p: ReturnType<typeof makeProject>;
  let s: TestServer;
  const run = (...args: string[]) => folio([...args, '--dir', p.dir]);
  const permissions = () => JSON.parse(readFileSync(join(p.contentDir, 'permissions.json'), 'utf8')).roles;

  beforeAll(async () => {
    p = makeProject();
    s = await startTestServer({ dir: p.dir });
  });
  afterAll(async () => {
    await s.stop();
    p.cleanup();
  });

  it("lists, grants and revokes actions, storing Strapi's full names", async () => {
    const list = await run('permissions', 'list', '--role', 'public', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).public.permissions).toContain('api::article.article.find');

    expect((await run('permissions', 'grant', 'tag.find', 'tags:findOne')).code).toBe(0);
    expect(permissions().public.permissions).toEqual(
      expect.arrayContaining(['api::tag.tag.find', 'api::tag.tag.findOne']),
    );
    expect((await run('permissions', 'revoke', 'api::tag.tag.find')).code).toBe(0);
    expect(permissions().public.permissions).not.toContain('api::tag.tag.find');

    // `type.*` is every action of the type: three for a single type.
    expect(
      (
        await run(
          'permissions',
          'grant',
          '--role',
          'editor',
          '--create-role',
          'global.*',
          'plugin::upload.content-api.upload',
        )
      ).code,
    ).toBe(0);
    expect(permissions().editor.permissions).toEqual([
      'api::global.global.delete',
      'api::global.global.find',
      'api::global.global.update',
      'plugin::upload.content-api.upload',
    ]);

    for (const [args, message] of [
      [['grant', 'nope.find'], '"nope" is not a content-type'],
      [['grant', 'global.findOne'], '"findOne" is not an action of api::global.global'],
      [['grant', 'plugin::upload.content-api.uplod'], 'not a plugin action'],
      [['grant', 'api::nope.nope.find'], 'does not name a content-type'],
      [['grant', '--role', 'Bad Role', 'tag.find'], 'is not a role key'],
      [['revoke', '--role', 'ghost', 'tag.find'], 'No role "ghost"'],
    ] as const) {
      const r = await run('permissions', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
    }
  });

  it('creates, lists and deletes users; passwords are never printed or stored in clear', async () => {
    const created = await run(
      'users',
      'create',
      '--username',
      'ada',
      '--email',
      'Ada@Example.com',
      '--password',
      'ada-cli-pass',
      '--json',
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      username: 'ada',
      email: 'ada@example.com',
      role: 'authenticated',
    });
    // As a user runs it: the password piped into a process of its own.
    const piped = await spawnFolio(
      ['users', 'create', '--username', 'grace', '--email', 'grace@example.com', '--dir', p.dir],
      { input: 'grace-cli-pass\n' },
    );
    expect(piped.code).toBe(0);
    // The user logs in on the running server at once.
    const login = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier: 'grace', password: 'grace-cli-pass' },
    });
    expect(login.status).toBe(200);

    const list = await run('users', 'list', '--json');
    const users = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(users.map((u) => u.username)).toEqual(['ada', 'grace']);
    expect(list.stdout).not.toContain('scrypt');
    expect((await run('users', 'list')).stdout).toMatch(/ada@example\.com/);

    const taken = await run(
      'users',
      'create',
      '--username',
      'ada',
      '--email',
      'other@example.com',
      '--password',
      'whatever1',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('Email or Username are already taken');
    for (const role of ['public', 'ghost']) {
      const r = await run(
        'users',
        'create',
        '--username',
        'x-user',
        '--email',
        'x@example.com',
        '--password',
        'whatever1',
        '--role',
        role,
      );
      expect(r.code, role).toBe(1);
      expect(r.stderr).toContain(`No role "${role}"`);
    }

    expect((await run('users', 'delete', 'grace')).code).toBe(0);
    expect((await s.api('/api/users/me', { anonymous: true, headers: bearer(login.body.jwt) })).status).toBe(401);
    expect((await run('users', 'delete', 'grace')).code).toBe(1);
    expect(filesHolding(p.dir, ['ada-cli-pass', 'grace-cli-pass'])).toEqual([]);
  });

  it('creates tokens printed once, lists them without values, revokes them; the running server follows', async () => {
    const ro = await run('tokens', 'create', '--name', 'site-build', '--type', 'read-only');
    expect(ro.code).toBe(0);
    const key = ro.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{256}$/);
    expect(ro.stderr).toContain('not shown again');
    expect((await s.api('/api/tags', { anonymous: true, headers: bearer(key) })).status).toBe(200);
    expect(
      (
        await s.api('/api/tags', {
          anonymous: true,
          method: 'POST',
          headers: bearer(key),
          body: { data: { name: 'x' } },
        })
      ).status,
    ).toBe(403);

    const custom = await run(
      'tokens',
      'create',
      '--name',
      'importer',
      '--type',
      'custom',
      '--actions',
      'tag.create,tags:find',
      '--lifespan',
      '7d',
      '--json',
    );
    expect(custom.code).toBe(0);
    const c = JSON.parse(custom.stdout);
    expect(c).toMatchObject({ name: 'importer', type: 'custom', accessKey: expect.stringMatching(/^[0-9a-f]{256}$/) });
    expect(Date.parse(c.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86400_000);
    expect(
      (
        await s.api('/api/tags', {
          anonymous: true,
          method: 'POST',
          headers: bearer(c.accessKey),
          body: { data: { name: 'imported' } },
        })
      ).status,
    ).toBe(201);
    expect((await s.api('/api/articles', { anonymous: true, headers: bearer(c.accessKey) })).status).toBe(403);

    const list = await run('tokens', 'list', '--json');
    const tokens = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(tokens.map((t) => t.name)).toEqual(expect.arrayContaining(['site-build', 'importer']));
    expect(tokens.find((t) => t.name === 'importer')!.actions).toEqual(['api::tag.tag.create', 'api::tag.tag.find']);
    expect(list.stdout).not.toContain(key);
    expect(tokens.every((t) => !('accessKey' in t))).toBe(true);

    for (const [args, message] of [
      [['--name', 'site-build'], 'already exists'],
      [['--name', 'x', '--lifespan', '1y'], 'The lifespan must be 7d, 30d, 90d or unlimited'],
      [['--name', 'x', '--type', 'admin'], 'read-only, full-access or custom'],
      [['--name', 'x', '--type', 'custom'], 'at least one action'],
      [['--name', 'x', '--actions', 'tag.find'], 'Only custom tokens'],
    ] as const) {
      const r = await run('tokens', 'create', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
    }

    expect((await run('tokens', 'revoke', 'site-build')).code).toBe(0);
    expect((await s.api('/api/tags', { anonymous: true, headers: bearer(key) })).body.error.message).toBe(
      'Missing or invalid credentials',
    );
    expect((await run('tokens', 'revoke', 'site-build')).code).toBe(1);
    expect(filesHolding(p.dir, [key, c.accessKey])).toEqual([]);
  });
});
