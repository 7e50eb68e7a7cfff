import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiToken } from '../src/auth/service.js';
import { spawnFolio } from './helpers/cli.js';
import { makeGitProject } from './helpers/git.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

type Entry = { commit: string; author: { name: string; email: string }; date: string; message: string };

/**
 * A document's history from git: the API under `/_folio/history/` (the caller's `find` on the type; a restore
 * needs `update` too) and `folio docs history`. Private fields never show; a restore is a write, so committed.
 */
describe('document history', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let server: ServeProcess;
  let id = '';
  let first = '';
  let full = '';
  let reader = '';
  let tagsOnly = '';

  beforeAll(async () => {
    repo = await makeGitProject();
    await repo.edit(async (p) => {
      id = (await p.documents.create('article', { title: 'One', secretNote: 'hidden one' })).documentId;
    });
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'first version');
    first = await repo.git('rev-parse', 'HEAD');
    await repo.edit((p) => p.documents.update('article', id, { title: 'Two', secretNote: 'hidden two' }));
    await repo.git('commit', '-qam', 'second version');
    full = (await createApiToken(repo.dir, { name: 'Editor', type: 'full-access' })).accessKey;
    reader = (await createApiToken(repo.dir, { name: 'Reader', type: 'read-only' })).accessKey;
    tagsOnly = (await createApiToken(repo.dir, { name: 'Tags', type: 'custom', actions: ['api::tag.tag.find'] }))
      .accessKey;
    server = await spawnServe(repo.dir, ['--commit']);
  });
  afterAll(async () => {
    await server.stop();
    repo.cleanup();
  });

  const get = async (path: string, token = full) => {
    const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { data: unknown; error?: { message: string } } };
  };

  it('lists the commits of the document, newest first, for a caller who may find the type', async () => {
    const r = await get(`/_folio/history/articles/${id}`, reader);
    expect(r.status).toBe(200);
    const entries = r.body.data as Entry[];
    expect(entries.map((e) => e.message)).toEqual(['second version', 'first version']);
    expect(entries[1]).toMatchObject({ commit: first, author: { name: 'Test Owner', email: 'owner@example.com' } });
    expect((await get(`/_folio/history/articles/${id}?limit=1&start=1`, reader)).body.data).toHaveLength(1);
    expect((await get(`/_folio/history/articles/${id}`, tagsOnly)).status).toBe(403);
  });

  it('shows the document at a commit and its fields that differ now, never its private fields', async () => {
    const r = await get(`/_folio/history/articles/${id}/${first.slice(0, 10)}`, reader);
    expect(r.status).toBe(200);
    const data = r.body.data as Entry & {
      document: { locales: { en: { draft: Record<string, unknown> } } };
      changes: Array<{ path: string; then: unknown; now: unknown }>;
    };
    expect(data.commit).toBe(first);
    expect(data.document.locales.en.draft.title).toBe('One');
    expect(JSON.stringify(data)).not.toContain('hidden');
    expect(data.changes).toContainEqual({ path: 'locales.en.draft.title', then: 'One', now: 'Two' });
    expect(data.changes.map((c) => c.path)).not.toContain('locales.en.draft.secretNote');
  });

  it('refuses what is not a commit id or a document, as a 404', async () => {
    for (const commit of ['--output=x', 'HEAD~1', 'main', `${first.slice(0, 6)}`, '0'.repeat(40)])
      expect((await get(`/_folio/history/articles/${id}/${encodeURIComponent(commit)}`)).status, commit).toBe(404);
    expect((await get(`/_folio/history/articles/${encodeURIComponent('../tags')}`)).status).toBe(404);
    expect((await get(`/_folio/history/nothing/${id}`)).status).toBe(404);
  });

  it('restores a locale to a commit as a write: the draft gets its values, committed by the caller', async () => {
    const path = `/_folio/history/articles/${id}/${first}/restore?locale=en`;
    const denied = await fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(denied.status).toBe(403);
    const before = Number(await repo.git('rev-list', '--count', 'HEAD'));
    const res = await fetch(`${server.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${full}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({
      documentId: id,
      locale: 'en',
      status: 'draft',
      restored: first,
    });
    const doc = JSON.parse(readFileSync(join(repo.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));
    expect(doc.locales.en.draft).toMatchObject({ title: 'One', secretNote: 'hidden one' });
    expect(doc.locales.en.published.title).toBe('Two');
    for (let i = 0; i < 200 && Number(await repo.git('rev-list', '--count', 'HEAD')) === before; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await repo.git('log', '-1', '--format=%an|%s')).toBe(
      `Editor|article "One": restore from ${first.slice(0, 12)} (en)`,
    );
  });

  it('folio docs history prints the same, with --json', async () => {
    const list = await spawnFolio(['docs', 'history', 'articles', id, '--dir', repo.dir, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const api = (await get(`/_folio/history/articles/${id}`)).body.data as Entry[];
    expect(JSON.parse(list.stdout).data).toEqual(api);
    const text = await spawnFolio(['docs', 'history', 'articles', id, '--dir', repo.dir]);
    expect(text.stdout).toContain('restore from');
    expect(text.stdout).toContain('Test Owner <owner@example.com>');
    const at = await spawnFolio(['docs', 'history', 'articles', id, '--at', first, '--dir', repo.dir, '--json']);
    const shown = JSON.parse(at.stdout) as { commit: string; changes: Array<{ path: string }> };
    expect(shown.commit).toBe(first);
    expect(shown).toEqual((await get(`/_folio/history/articles/${id}/${first}`)).body.data);
    const bad = await spawnFolio(['docs', 'history', 'articles', id, '--at', '--upload-pack=x', '--dir', repo.dir]);
    expect(bad.code).not.toBe(0);
  });
});

/**
 * What the history API tells a caller who may only `find` the type (the fixture's public role): what the API itself
 * would tell them, and no more. Authors' e-mail addresses go only to callers who may read users; a document (or a
 * locale) deleted since goes only to callers who could write it again (`create`); fields go only as the current
 * schema shows them.
 */
describe('document history, as the public reads it', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let server: ServeProcess;
  let jwt = '';
  const email = 'jane.private@example.com';
  const json = async (res: Response) => JSON.stringify(await res.json());
  const asEditor = () => ({ authorization: `Bearer ${jwt}`, 'content-type': 'application/json' });
  const lastSubject = () => repo.git('log', '-1', '--format=%s');

  beforeAll(async () => {
    repo = await makeGitProject();
    server = await spawnServe(repo.dir, ['--commit']);
    // An editor's account, made by the owner (so its address is proven, and its commits carry it): the e-mail is
    // theirs, private as every user's is (users.find is granted to nobody).
    const made = await spawnFolio(['users', 'create', '--dir', repo.dir, '--username', 'jane', '--email', email], {
      input: 'Passw0rd!\n',
    });
    expect(made.code, made.stderr).toBe(0);
    const login = await fetch(`${server.base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: email, password: 'Passw0rd!' }),
    });
    expect(login.status).toBe(200);
    ({ jwt } = (await login.json()) as { jwt: string });
  });
  afterAll(async () => {
    await server.stop();
    repo.cleanup();
  });

  const create = async (data: Record<string, unknown>, query = '') => {
    const res = await fetch(`${server.base}/api/articles${query}`, {
      method: 'POST',
      headers: asEditor(),
      body: JSON.stringify({ data }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: { documentId: string } }).data.documentId;
    await expect.poll(lastSubject, { timeout: 15_000 }).toContain(`"${String(data.title)}": create`);
    return { id, commit: await repo.git('rev-parse', 'HEAD') };
  };

  it("does not hand out editors' account e-mail addresses (commit authors) to the public role", async () => {
    const { id } = await create({ title: 'Hello' });
    // The server commits the write as its caller.
    expect(await repo.git('log', '-1', '--format=%ae')).toBe(email);
    // The public role cannot list users, so it cannot read Jane's address there.
    expect((await fetch(`${server.base}/api/users`)).status).toBe(403);
    // Anonymously, through the history API.
    const history = await fetch(`${server.base}/_folio/history/articles/${id}`);
    expect(history.status).toBe(200);
    const text = await json(history);
    expect(text).not.toContain(email);
    expect(JSON.parse(text).data[0].author).toEqual({ name: 'jane' });
    const commit = await repo.git('rev-parse', 'HEAD');
    expect(await json(await fetch(`${server.base}/_folio/history/articles/${id}/${commit}`))).not.toContain(email);
    // A caller who may read users (a read-only token) reads the address here too.
    const reader = (await createApiToken(repo.dir, { name: 'Reader', type: 'read-only' })).accessKey;
    const read = await fetch(`${server.base}/_folio/history/articles/${id}`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(((await read.json()) as { data: Entry[] }).data[0].author).toEqual({ name: 'jane', email });
  });

  it('stops answering a document to the public once it was deleted through the API', async () => {
    const { id, commit } = await create({ title: 'Layoffs: the list of names' });
    // Published by mistake, then deleted: gone from the API, for the public as for everyone.
    const deleted = await fetch(`${server.base}/api/articles/${id}`, { method: 'DELETE', headers: asEditor() });
    expect(deleted.status).toBe(204);
    await expect.poll(lastSubject, { timeout: 15_000 }).toContain('delete');
    expect((await fetch(`${server.base}/api/articles/${id}`)).status).toBe(404);
    const then = await fetch(`${server.base}/_folio/history/articles/${id}/${commit}`);
    expect(await json(then)).not.toContain('the list of names');
    expect(then.status).toBe(404);
    const list = await fetch(`${server.base}/_folio/history/articles/${id}`);
    expect(list.status).toBe(404);
    expect(await json(list)).not.toContain('the list of names');
    // An editor who could write it again (create on the type) still reads it, to bring it back.
    const editor = await fetch(`${server.base}/_folio/history/articles/${id}/${commit}`, { headers: asEditor() });
    expect(editor.status).toBe(200);
    expect(await json(editor)).toContain('the list of names');
  });

  it('shows the public no locale deleted since, and an editor every one', async () => {
    const { id } = await create({ title: 'Bilingual' });
    const fr = await fetch(`${server.base}/api/articles/${id}?locale=fr`, {
      method: 'PUT',
      headers: asEditor(),
      body: JSON.stringify({ data: { title: 'Plan social confidentiel' } }),
    });
    expect(fr.status).toBe(200);
    await expect.poll(lastSubject, { timeout: 15_000 }).toContain('(fr)');
    const commit = await repo.git('rev-parse', 'HEAD');
    const gone = await fetch(`${server.base}/api/articles/${id}?locale=fr`, { method: 'DELETE', headers: asEditor() });
    expect(gone.status).toBe(204);
    await expect.poll(lastSubject, { timeout: 15_000 }).toContain('delete');
    const then = await fetch(`${server.base}/_folio/history/articles/${id}/${commit}`);
    expect(then.status).toBe(200);
    const shown = (await then.json()) as { data: { document: { locales: Record<string, unknown> } } };
    expect(Object.keys(shown.data.document.locales)).toEqual(['en']);
    // The commit's message names the title its write gave (as git keeps it); the document shows no such locale.
    expect(JSON.stringify(shown.data.document)).not.toContain('confidentiel');
    expect(JSON.stringify((shown.data as { changes?: unknown }).changes)).not.toContain('confidentiel');
    const editor = await fetch(`${server.base}/_folio/history/articles/${id}/${commit}`, { headers: asEditor() });
    expect(await json(editor)).toContain('Plan social confidentiel');
  });

  it('answers the history of a document whose file holds a merge conflict (there, but unreadable)', async () => {
    const { id } = await create({ title: 'Conflicted' });
    const file = join(repo.contentDir, 'documents', 'articles', `${id}.json`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.replace('"title": "Conflicted",', '<<<<<<< ours\n"title": "A",\n=======\n"title": "B",\n>>>>>>> theirs'),
    );
    try {
      const list = await fetch(`${server.base}/_folio/history/articles/${id}`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: Entry[] }).data[0].message).toContain('"Conflicted": create');
    } finally {
      writeFileSync(file, text);
    }
  });
});

describe('document history, once the schema changed', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>> | undefined;
  let server: ServeProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    repo?.cleanup();
  });

  it('keeps a private field private once the schema no longer has it (removed or renamed)', async () => {
    repo = await makeGitProject();
    const id = await repo.edit(
      async (p) =>
        (await p.documents.create('article', { title: 'Launch', secretNote: 'the launch code is 0451', views: 7 }))
          .documentId,
    );
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'article with a private note');
    const first = await repo.git('rev-parse', 'HEAD');
    // The private field goes from the model (dropped, or renamed to another private field); a public one goes too.
    const schemaFile = join(repo.contentDir, 'types', 'article.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { attributes: Record<string, unknown> };
    schema.attributes.internalNote = schema.attributes.secretNote;
    delete schema.attributes.secretNote;
    delete schema.attributes.views;
    writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
    // The document file follows its model (as a migration would): the note under its new name.
    const docFile = join(repo.contentDir, 'documents', 'articles', `${id}.json`);
    writeFileSync(docFile, readFileSync(docFile, 'utf8').replace('"secretNote"', '"internalNote"'));
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'private note renamed');
    server = await spawnServe(repo.dir);
    // The public role may find articles; it never read secretNote through the API.
    const then = await fetch(`${server.base}/_folio/history/articles/${id}/${first}`);
    expect(then.status).toBe(200);
    const text = JSON.stringify(await then.json());
    expect(text).not.toContain('0451');
    // Only what the type has now, as the API shows it: no field the schema lost, private or not.
    const draft = (JSON.parse(text) as { data: { document: { locales: { en: { draft: object } } } } }).data.document
      .locales.en.draft;
    expect(draft).toMatchObject({ title: 'Launch' });
    expect(Object.keys(draft)).not.toContain('views');
  });
});
