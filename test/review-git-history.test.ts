import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitProject } from './helpers/git.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * Review findings on the history API (issue 33, `GET /_folio/history/:type/:documentId[/:commit]`), as an
 * anonymous caller of the fixture's permissions tries it: the public role may `find` articles.
 */

let repo: Awaited<ReturnType<typeof makeGitProject>> | undefined;
let server: ServeProcess | undefined;
afterEach(async () => {
  await server?.stop();
  repo?.cleanup();
  server = undefined;
  repo = undefined;
});

const json = (res: Response) => res.json() as Promise<{ data: unknown; error?: unknown }>;

describe('review: what the history API tells an anonymous reader', () => {
  it("does not hand out editors' account e-mail addresses (commit authors) to the public role", async () => {
    repo = await makeGitProject();
    server = await spawnServe(repo.dir, ['--commit']);
    const base = server.base;
    // An editor's account: the e-mail is theirs, private as every user's is (users.find is granted to nobody).
    const email = 'jane.private@example.com';
    const registered = await fetch(`${base}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'jane', email, password: 'Passw0rd!' }),
    });
    expect(registered.status).toBe(200);
    const { jwt } = (await registered.json()) as { jwt: string };
    const created = await fetch(`${base}/api/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Hello' } }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    // The server commits the write as its caller.
    await expect.poll(() => repo!.git('log', '-1', '--format=%ae'), { timeout: 15_000 }).toBe(email);
    // The public role cannot list users, so it cannot read Jane's address there.
    expect((await fetch(`${base}/api/users`)).status).toBe(403);
    // Anonymously, through the history API.
    const history = await fetch(`${base}/_folio/history/articles/${id}`);
    expect(history.status).toBe(200);
    expect(JSON.stringify(await json(history))).not.toContain(email);
  });

  it('keeps a private field private once the schema no longer has it (removed or renamed)', async () => {
    repo = await makeGitProject();
    const id = await repo.edit(
      async (p) =>
        (await p.documents.create('article', { title: 'Launch', secretNote: 'the launch code is 0451' })).documentId,
    );
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'article with a private note');
    const first = await repo.git('rev-parse', 'HEAD');
    // The private field goes from the model (dropped, or renamed to another private field).
    const schemaFile = join(repo.contentDir, 'types', 'article.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { attributes: Record<string, unknown> };
    schema.attributes.internalNote = schema.attributes.secretNote;
    delete schema.attributes.secretNote;
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
    expect(JSON.stringify(await json(then))).not.toContain('0451');
  });
  it('stops answering a document to the public once it was deleted through the API', async () => {
    repo = await makeGitProject();
    server = await spawnServe(repo.dir, ['--commit']);
    const base = server.base;
    const registered = await fetch(`${base}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'editor', email: 'editor@example.com', password: 'Passw0rd!' }),
    });
    const { jwt } = (await registered.json()) as { jwt: string };
    const auth = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/articles`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ data: { title: 'Layoffs: the list of names' } }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    await expect.poll(() => repo!.git('log', '-1', '--format=%s'), { timeout: 15_000 }).toContain('create');
    const commit = await repo.git('rev-parse', 'HEAD');
    // Published by mistake, then deleted: gone from the API, for the public as for everyone.
    expect((await fetch(`${base}/api/articles/${id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expect.poll(() => repo!.git('log', '-1', '--format=%s'), { timeout: 15_000 }).toContain('delete');
    expect((await fetch(`${base}/api/articles/${id}`)).status).toBe(404);
    const then = await fetch(`${base}/_folio/history/articles/${id}/${commit}`);
    expect(JSON.stringify(await json(then))).not.toContain('the list of names');
  });
});
