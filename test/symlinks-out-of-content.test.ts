import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiToken } from '../src/auth/service.js';
import { git } from './helpers/git.js';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { runFolio } from './helpers/cli.js';

/**
 * A symbolic link committed under `content/uploads/` must not be followed when the file is served. A
 * replica that follows a remote (`folio serve --read-only --pull`, issue 33) checks out whatever was merged there,
 * so one commit whose "image" is a link to `../../.folio/secrets.json` hands anyone the server's JWT secret (and
 * with it a JWT of any user, the owner included). Git stores the link as a one-line blob: a review of the pull
 * request sees a changed image, not a file read outside the project.
 */
describe('a symlink in content/uploads on a --pull replica', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-review-symlink-'));
  const remote = join(root, 'remote.git');
  const replicaDir = join(root, 'replica');
  let contributor: ReturnType<typeof makeProject>;
  let replica: ServeProcess;
  let image = '';

  beforeAll(async () => {
    await git(root, 'init', '-q', '--bare', '-b', 'main', remote);
    contributor = makeProject({ withExampleDocuments: true });
    const dir = contributor.dir;
    writeFileSync(join(dir, '.gitignore'), '.folio/\n');
    await git(dir, 'init', '-q', '-b', 'main');
    await git(dir, 'config', 'user.name', 'Contributor');
    await git(dir, 'config', 'user.email', 'contributor@example.com');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-qm', 'the example');
    await git(dir, 'remote', 'add', 'origin', remote);
    await git(dir, 'push', '-q', '-u', 'origin', 'main');
    await git(root, 'clone', '-q', remote, replicaDir);
    // The replica has its local state (users, tokens, the JWT secret), as any server that signed someone in.
    await createApiToken(replicaDir, { name: 'Site build', type: 'read-only' });
    replica = await spawnServe(replicaDir, ['--read-only', '--pull', '1s']);
    image = readdirSync(join(contributor.contentDir, 'uploads')).find((f) => /^content_in_git_.*\.jpg$/.test(f))!;
    expect((await fetch(`${replica.base}/uploads/${image}`)).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await replica?.stop();
    contributor?.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it("serves no file from outside content/ (the replica's .folio/secrets.json) through a symlink", async () => {
    const file = join(contributor.contentDir, 'uploads', image);
    unlinkSync(file);
    symlinkSync('../../.folio/secrets.json', file);
    await git(contributor.dir, 'commit', '-qam', 'a better cover');
    await git(contributor.dir, 'push', '-q', 'origin', 'main');
    const head = await git(remote, 'rev-parse', 'main');
    await expect.poll(() => git(replicaDir, 'rev-parse', 'HEAD'), { timeout: 20_000 }).toBe(head);
    const served = await fetch(`${replica.base}/uploads/${image}`);
    expect(await served.text()).not.toContain('jwtSecret');
  });
});

/** A project whose files point out of content/ in every way git can commit, and the server and CLI reading it. */
describe('symbolic links under content/', () => {
  let made: ReturnType<typeof makeProject>;
  let outside = '';
  let token = '';
  let serve: ServeProcess | undefined;
  const get = async (path: string) => {
    const res = await fetch(`${serve!.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };
  const docFile = (plural: string, id: string) => join(made.contentDir, 'documents', plural, `${id}.json`);
  /** A document file of `plural` made into a link to a copy of it outside content/ whose values say so. */
  const linkOut = (plural: string, id: string, field: string) => {
    const body = JSON.parse(readFileSync(docFile(plural, id), 'utf8'));
    body.published[field] = `outside ${id}`;
    writeFileSync(join(outside, `${id}.json`), JSON.stringify(body));
    unlinkSync(docFile(plural, id));
    symlinkSync(join(outside, `${id}.json`), docFile(plural, id));
  };
  const ids = (plural: string) =>
    readdirSync(join(made.contentDir, 'documents', plural))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();

  beforeAll(async () => {
    made = makeProject({ withExampleDocuments: true });
    outside = mkdtempSync(join(tmpdir(), 'folio-outside-'));
    token = (await createApiToken(made.dir, { name: 'reader', type: 'full-access' })).accessKey;
  });
  afterAll(async () => {
    await serve?.stop();
    made?.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it('reads, indexes and serves no document, folder or schema a link leads out of content/ to', async () => {
    const [tag] = ids('tags');
    linkOut('tags', tag, 'name');
    // A collection folder that is a link: to a copy of the authors outside.
    const authors = join(made.contentDir, 'documents', 'authors');
    cpSync(authors, join(outside, 'authors'), { recursive: true });
    writeFileSync(
      join(outside, 'authors', `${ids('authors')[0]}.json`),
      readFileSync(join(authors, `${ids('authors')[0]}.json`), 'utf8').replace(/"name": "[^"]*"/, '"name": "outside"'),
    );
    rmSync(authors, { recursive: true });
    symlinkSync(join(outside, 'authors'), authors);
    // A schema file that is a link.
    const categoryType = join(made.contentDir, 'types', 'category.json');
    cpSync(categoryType, join(outside, 'category.json'));
    unlinkSync(categoryType);
    symlinkSync(join(outside, 'category.json'), categoryType);

    serve = await spawnServe(made.dir);
    const tags = await get('/api/tags?pagination[pageSize]=100');
    expect(tags.status).toBe(200);
    expect(tags.text).not.toContain('outside');
    expect((await get(`/api/tags/${tag}`)).status).toBe(404);
    expect((await get('/api/authors')).text).not.toContain('outside');
    expect((await get('/api/categories')).status).toBe(404);
    const said = serve.stderr();
    for (const file of [`documents/tags/${tag}.json`, 'documents/authors', 'types/category.json'])
      expect(said).toMatch(new RegExp(`${file.replace(/\./g, '\\.')}.*leads out of content/`));
  }, 60_000);

  it('lets go of a document whose file becomes a link out of content/ while it serves', async () => {
    const [, second] = ids('tags');
    // An edit seen first: the watcher is at work (it starts after the ready line, so the edit is made again
    // until it is seen).
    const body = JSON.parse(readFileSync(docFile('tags', second), 'utf8'));
    let edits = 0;
    const edited = async () => {
      body.published.name = `watched ${++edits}`;
      writeFileSync(docFile('tags', second), JSON.stringify(body));
      return (await get(`/api/tags/${second}`)).text;
    };
    await expect.poll(edited, { timeout: 10_000, interval: 200 }).toContain('watched');
    linkOut('tags', second, 'name');
    await expect.poll(async () => (await get(`/api/tags/${second}`)).status, { timeout: 10_000 }).toBe(404);
    expect(serve!.stderr()).toContain(`documents/tags/${second}.json`);
  });

  it('follows a link that stays inside content/', async () => {
    const [, , third] = ids('tags');
    const kept = join(made.contentDir, 'kept');
    mkdirSync(kept, { recursive: true });
    const body = JSON.parse(readFileSync(docFile('tags', third), 'utf8'));
    body.published.name = 'kept inside';
    writeFileSync(join(kept, `${third}.json`), JSON.stringify(body));
    unlinkSync(docFile('tags', third));
    symlinkSync(join('..', '..', 'kept', `${third}.json`), docFile('tags', third));
    await expect.poll(async () => (await get(`/api/tags/${third}`)).text, { timeout: 10_000 }).toContain('kept inside');
  });

  it('keeps them out on a start with reader threads, and on the next from its snapshot', async () => {
    await serve!.stop();
    const config = join(made.contentDir, 'folio.json');
    const settings = JSON.parse(readFileSync(config, 'utf8'));
    writeFileSync(config, JSON.stringify({ ...settings, server: { readThreadsFrom: 1, snapshotFrom: 1 } }));
    for (let start = 0; start < 2; start++) {
      serve = await spawnServe(made.dir);
      const tags = await get('/api/tags?pagination[pageSize]=100');
      expect(tags.status).toBe(200);
      expect(tags.text).toContain('kept inside');
      expect(tags.text).not.toContain('outside');
      expect((await get('/api/authors')).text).not.toContain('outside');
      // The snapshot is written after the start, once the server is quiet.
      if (start === 0) {
        const snapshot = join(made.dir, '.folio', 'cache', 'documents.snapshot');
        await expect.poll(() => existsSync(snapshot), { timeout: 20_000 }).toBe(true);
        await serve.stop();
      }
    }
  }, 60_000);

  it('is reported by folio validate: every link out of content/, where it points, and exit 1', async () => {
    const image = readdirSync(join(made.contentDir, 'uploads')).find((f) => f.endsWith('.jpg'))!;
    unlinkSync(join(made.contentDir, 'uploads', image));
    symlinkSync('../../.folio/secrets.json', join(made.contentDir, 'uploads', image));
    expect((await get(`/uploads/${image}`)).status).toBe(404);
    const r = await runFolio(['validate', '--dir', made.dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `content/uploads/${image}: is a symbolic link to ../../.folio/secrets.json, out of content/`,
    );
    expect(r.stdout).toMatch(/content\/documents\/authors: .*leads out of content\//);
    expect(r.stdout).toMatch(/content\/types\/category\.json: .*leads out of content\//);
    expect(r.stdout).not.toContain('kept');
    expect(r.stdout + r.stderr).not.toContain('jwtSecret');
  });

  it('writes no document and no upload where a link out of content/ leads', async () => {
    const send = (path: string, body: BodyInit, json = true) =>
      fetch(`${serve!.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
        body,
      });
    const before = readdirSync(join(outside, 'authors')).sort();
    const author = await send('/api/authors', JSON.stringify({ data: { name: 'New', email: 'new@example.com' } }));
    expect(author.status).toBe(500);
    expect(readdirSync(join(outside, 'authors')).sort()).toEqual(before);
    // The whole uploads/ folder a link to a folder outside.
    const uploads = join(made.contentDir, 'uploads');
    cpSync(uploads, join(outside, 'uploads'), { recursive: true });
    rmSync(uploads, { recursive: true });
    symlinkSync(join(outside, 'uploads'), uploads);
    const files = readdirSync(join(outside, 'uploads')).sort();
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'hello.txt');
    expect((await send('/api/upload', form, false)).status).toBe(500);
    expect(readdirSync(join(outside, 'uploads')).sort()).toEqual(files);
    const served = files.find((f) => f.endsWith('.jpg'))!;
    expect((await get(`/uploads/${served}`)).status).toBe(404);
  });
});
