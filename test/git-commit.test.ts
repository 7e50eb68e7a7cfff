import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiToken } from '../src/auth/service.js';
import { openProject } from '../src/project.js';
import { spawnFolio } from './helpers/cli.js';
import { makeGitProject } from './helpers/git.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * `folio serve --commit`: each write through the API (a token, a user) or the CLI while it runs is one commit
 * of exactly the files it changed, by its author, named by type, document and action; git's failures never
 * fail a write; what users send is data in every git command.
 */
describe('folio serve --commit', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let server: ServeProcess;
  let token = '';
  let article = '';
  let tag = '';
  const pwned = join('/tmp', `folio-pwned-${process.pid}`);

  beforeAll(async () => {
    repo = await makeGitProject();
    await repo.edit(async (p) => {
      tag = (await p.documents.create('tag', { name: 'news' })).documentId;
      article = (await p.documents.create('article', { title: 'Hello' })).documentId;
    });
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'documents');
    token = (await createApiToken(repo.dir, { name: 'Deploy bot', type: 'full-access' })).accessKey;
    server = await spawnServe(repo.dir, ['--commit']);
  });
  afterAll(async () => {
    await server.stop();
    repo.cleanup();
    rmSync(pwned, { force: true });
  });

  const api = async (method: string, path: string, body?: unknown, auth = token) => {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };
  /** The newest commit once there are `count` commits: author, committer, message and files. */
  const commitNumber = async (count: number) => {
    for (let i = 0; i < 200; i++) {
      if (Number(await repo.git('rev-list', '--count', 'HEAD')) >= count) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Number(await repo.git('rev-list', '--count', 'HEAD'))).toBe(count);
    const [author, committer, message] = (await repo.git('log', '-1', '--format=%an <%ae>%n%cn <%ce>%n%s')).split('\n');
    const files = (await repo.git('show', '--name-only', '--format=', 'HEAD')).split('\n').filter(Boolean);
    return { author, committer, message, files };
  };
  const commits = async () => Number(await repo.git('rev-list', '--count', 'HEAD'));
  const fileOf = (plural: string, id: string) => `content/documents/${plural}/${id}.json`;

  it("commits a token's write as the token, with exactly the file it changed", async () => {
    const before = await commits();
    // An edit by hand beside it is not the server's: it stays uncommitted.
    writeFileSync(join(repo.contentDir, 'documents', 'tags', `${tag}.json`), '{"hand": "edit"}\n');
    expect(await repo.git('status', '--porcelain')).toBe(`M ${fileOf('tags', tag)}`);
    const r = await api('PUT', `/api/articles/${article}`, { data: { title: 'Hello there' } });
    expect(r.status).toBe(200);
    const c = await commitNumber(before + 1);
    expect(c.author).toBe('Deploy bot <deploy-bot@token.folio.invalid>');
    expect(c.committer).toBe('Test Owner <owner@example.com>');
    expect(c.message).toBe('article "Hello there": update and publish (en)');
    expect(c.files).toEqual([fileOf('articles', article)]);
    expect(await repo.git('status', '--porcelain')).toBe(`M ${fileOf('tags', tag)}`);
    await repo.git('checkout', '--', fileOf('tags', tag));
  });

  it('names the action and locale: a new locale, an unpublish', async () => {
    const before = await commits();
    expect((await api('PUT', `/api/articles/${article}?locale=fr`, { data: { title: 'Bonjour' } })).status).toBe(200);
    expect((await commitNumber(before + 1)).message).toBe('article "Bonjour": create and publish (fr)');
    const un = await api('POST', `/_folio/content/articles/${article}/unpublish?locale=fr`);
    expect(un.status).toBe(200);
    expect((await commitNumber(before + 2)).message).toBe('article "Bonjour": unpublish (fr)');
  });

  it("commits a user's write as the user, and a forged identity stays one plain name", async () => {
    const made = await spawnFolio(
      [
        'users',
        'create',
        '--dir',
        repo.dir,
        '--username',
        'Mallory <boss@example.com>',
        '--email',
        'mallory@example.com',
      ],
      { input: 'Passw0rd!\n' },
    );
    expect(made.code, made.stderr).toBe(0);
    const login = await fetch(`${server.base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'mallory@example.com', password: 'Passw0rd!' }),
    });
    const { jwt } = (await login.json()) as { jwt: string };
    const before = await commits();
    const r = await api('PUT', `/api/articles/${article}`, { data: { title: '$(touch /tmp/x)\nAuthor: x' } }, jwt);
    expect(r.status).toBe(200);
    const c = await commitNumber(before + 1);
    expect(c.author).toBe('Mallory boss@example.com <mallory@example.com>');
    const raw = await repo.git('cat-file', '-p', 'HEAD');
    expect(raw.match(/^author /gm)).toHaveLength(1);
    expect(raw).toContain('\nauthor Mallory boss@example.com <mallory@example.com> ');
    expect(c.message).toBe('article "$(touch /tmp/x) Author: x": update and publish (en)');
  });

  it('treats a title that is shell syntax as text', async () => {
    const before = await commits();
    const title = `$(touch ${pwned}); \`touch ${pwned}\``;
    const r = await api('POST', '/api/articles', { data: { title } });
    expect(r.status).toBe(201);
    const c = await commitNumber(before + 1);
    expect(c.message).toBe(`article ${JSON.stringify(title)}: create and publish (en)`);
    expect(existsSync(pwned)).toBe(false);
  });

  it('commits a media upload: the record and the file, as the token', async () => {
    const before = await commits();
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('hello, media')], { type: 'text/plain' }), 'notes.txt');
    const res = await fetch(`${server.base}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const [file] = (await res.json()) as Array<{ documentId: string; hash: string; ext: string }>;
    const c = await commitNumber(before + 1);
    expect(c.author).toBe('Deploy bot <deploy-bot@token.folio.invalid>');
    expect(c.message).toBe('media file "notes.txt": upload');
    expect(c.files.sort()).toEqual(
      [`content/uploads/${file.hash}${file.ext}`, `content/uploads/_records/${file.documentId}.json`].sort(),
    );
  });

  it('commits a change of the roles, as the caller', async () => {
    const before = await commits();
    const r = await api('POST', '/api/users-permissions/roles', { name: 'Reviewer', description: '', permissions: {} });
    expect(r.status).toBe(200);
    const c = await commitNumber(before + 1);
    expect(c).toMatchObject({
      author: 'Deploy bot <deploy-bot@token.folio.invalid>',
      message: 'permissions: create role "reviewer"',
      files: ['content/permissions.json'],
    });
  });

  it('commits a CLI write made while it runs, as the checkout owner', async () => {
    const before = await commits();
    const r = await spawnFolio(['docs', 'update', 'articles', article, '--dir', repo.dir, '--data', '{"views":7}']);
    expect(r.code, r.stderr).toBe(0);
    const c = await commitNumber(before + 1);
    expect(c.author).toBe('Test Owner <owner@example.com>');
    expect(c.message).toBe(`folio docs update articles ${article}`);
    expect(c.files).toEqual([fileOf('articles', article)]);
    expect(await repo.git('status', '--porcelain')).toBe('');
  });

  it('never fails a write when git cannot commit: the failure is logged and the commit made later', async () => {
    const before = await commits();
    const lock = join(repo.dir, '.git', 'refs', 'heads', 'main.lock');
    writeFileSync(lock, '');
    try {
      const r = await api('PUT', `/api/articles/${article}`, { data: { title: 'Locked out' } });
      expect(r.status).toBe(200);
      expect(
        JSON.parse(readFileSync(join(repo.contentDir, 'documents', 'articles', `${article}.json`), 'utf8')),
      ).toMatchObject({ locales: { en: { draft: { title: 'Locked out' } } } });
      for (let i = 0; i < 200 && !server.stderr().includes('git: could not commit a write'); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(server.stderr()).toContain('git: could not commit a write');
      expect(await commits()).toBe(before);
    } finally {
      rmSync(lock, { force: true });
    }
    const c = await commitNumber(before + 1);
    expect(c.message).toBe('article "Locked out": update and publish (en)');
  });

  it('opens a project the same way afterwards: every committed file is what the store wrote', async () => {
    expect(await repo.git('status', '--porcelain')).toBe('');
    const project = await openProject(repo.dir);
    expect(project.report.problems).toEqual([]);
  });
});

/**
 * Commit authors taken from accounts (issue 33: "an author line cannot be forged into another identity"). A user's
 * username and e-mail are whatever they registered with, and e-mail confirmation is off by default: their commits
 * carry the address only once it is proven (confirmed through its link, or given by the owner or an administrator);
 * until then, one of `user.folio.invalid` that names the account. The owner, signed in through its one-time link,
 * commits as the checkout's own identity.
 */
describe('folio serve --commit: authors taken from accounts', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let server: ServeProcess;
  beforeAll(async () => {
    repo = await makeGitProject();
    // Registration unlimited, as a test registers more than ten accounts in a minute.
    const config = join(repo.contentDir, 'folio.json');
    const settings = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    writeFileSync(config, `${JSON.stringify({ ...settings, users: { ratelimit: { enabled: false } } }, null, 2)}\n`);
    await repo.git('commit', '-qam', 'no rate limit');
    server = await spawnServe(repo.dir, ['--commit']);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    repo?.cleanup();
  });

  const post = (path: string, body: unknown, jwt?: string) =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
      body: JSON.stringify(body),
    });
  /** Creates an article as `jwt`'s caller; answers its commit's author. */
  const authorOfWrite = async (jwt: string, title: string) => {
    const before = await repo.git('rev-parse', 'HEAD');
    expect((await post('/api/articles', { data: { title } }, jwt)).status).toBe(201);
    await expect.poll(() => repo.git('rev-parse', 'HEAD'), { timeout: 15_000 }).not.toBe(before);
    return repo.git('log', '-1', '--format=%an <%ae>');
  };

  it("does not commit a stranger's write under the checkout owner's name and e-mail", async () => {
    const owner = await repo.git('log', '-1', '--format=%an <%ae>');
    expect(owner).toBe('Test Owner <owner@example.com>');
    const registered = await post('/api/auth/local/register', {
      username: 'Test Owner',
      email: 'owner@example.com',
      password: 'Passw0rd!',
    });
    expect(registered.status).toBe(200);
    const { jwt, user } = (await registered.json()) as { jwt: string; user: { id: number } };
    const author = await authorOfWrite(jwt, 'Prices go up tomorrow');
    expect(author).not.toBe(owner);
    expect(author).toBe(`Test Owner <test-owner.${user.id}@user.folio.invalid>`);
  });

  it("commits the owner's writes, signed in through its one-time link, as the checkout's identity", async () => {
    const code = /\/admin\/#sign-in=([\w-]+)/.exec(server.stdout())?.[1];
    expect(code).toBeDefined();
    const signedIn = await post('/_folio/studio/sign-in', { code });
    expect(signedIn.status).toBe(200);
    const { jwt } = (await signedIn.json()) as { jwt: string };
    expect(await authorOfWrite(jwt, 'From the owner')).toBe('Test Owner <owner@example.com>');
  });

  it('commits with the e-mail address an administrator confirmed, until the address changes', async () => {
    const admin = (await createApiToken(repo.dir, { name: 'Admin', type: 'full-access' })).accessKey;
    const registered = await post('/api/auth/local/register', {
      username: 'grace',
      email: 'grace@example.com',
      password: 'Passw0rd!',
    });
    const { jwt, user } = (await registered.json()) as { jwt: string; user: { id: number } };
    const unproven = `grace <grace.${user.id}@user.folio.invalid>`;
    expect(await authorOfWrite(jwt, 'Not yet')).toBe(unproven);
    const put = (data: object) =>
      fetch(`${server.base}/api/users/${user.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(data),
      }).then((r) => r.status);
    expect(await put({ confirmed: true })).toBe(200);
    expect(await authorOfWrite(jwt, 'Vouched for')).toBe('grace <grace@example.com>');
    expect(await put({ email: 'grace@elsewhere.example' })).toBe(200);
    expect(await authorOfWrite(jwt, 'Moved')).toBe(`grace <grace.${user.id}@user.folio.invalid>`);
  });

  it('commits with the e-mail address once the account confirmed it through its link', async () => {
    const config = join(repo.contentDir, 'folio.json');
    const settings = JSON.parse(readFileSync(config, 'utf8')) as { users: Record<string, unknown> };
    writeFileSync(
      config,
      `${JSON.stringify({ ...settings, users: { ...settings.users, emailConfirmation: true } })}\n`,
    );
    // Once the server applied the settings, registering answers no credentials until the address is confirmed.
    let n = 0;
    const register = () =>
      post('/api/auth/local/register', { username: `ada${++n}`, email: `ada${n}@example.com`, password: 'Passw0rd!' });
    await expect
      .poll(async () => Object.keys((await (await register()).json()) as object), { timeout: 15_000 })
      .toEqual(['user']);
    const link = new RegExp(`e-mail to ada${n}@example.com .*confirm your e-mail address: (\\S+)`).exec(
      server.stderr(),
    )?.[1];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect((await fetch(`${server.base}${url.pathname}${url.search}`, { redirect: 'manual' })).status).toBe(302);
    const login = await post('/api/auth/local', { identifier: `ada${n}`, password: 'Passw0rd!' });
    expect(login.status).toBe(200);
    const { jwt } = (await login.json()) as { jwt: string };
    expect(await authorOfWrite(jwt, 'Confirmed')).toBe(`ada${n} <ada${n}@example.com>`);
  });
});
