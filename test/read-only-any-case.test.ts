import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG, form } from './helpers/media.js';
import { treeListing } from './helpers/serve.js';
import { openProject } from '../src/project.js';

/**
 * `folio serve --read-only` refuses every write, however the path is spelled: routes match paths whatever their
 * case (as Strapi's router does), so the guard must too. Reads in any case still work.
 */
describe('a read-only server, whatever the case of the path', () => {
  const made = makeProject();
  let s: TestServer;
  let id = '';
  let tree: string[] = [];
  beforeAll(async () => {
    const project = await openProject(made.dir);
    id = (await project.documents.create('article', { title: 'Kept' })).documentId;
    s = await startTestServer({ dir: made.dir, app: { readOnly: true } });
    tree = treeListing(made.contentDir);
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  /** `:id` stands for the article's documentId. */
  const writes: Array<[method: string, path: string, body?: () => FormData | string]> = [
    ['POST', '/API/upload', () => form([{ name: 'a.png', type: 'image/png', data: RED_PNG }])],
    ['POST', '/Api/Upload', () => form([{ name: 'a.png', type: 'image/png', data: RED_PNG }])],
    ['POST', '/API/ARTICLES', () => JSON.stringify({ data: { title: 'New' } })],
    ['PUT', '/Api/Articles/:id', () => JSON.stringify({ data: { title: 'Changed' } })],
    ['DELETE', '/API/articles/:id'],
    ['POST', '/_FOLIO/content/articles/:id/unpublish'],
    [
      'POST',
      '/API/auth/local/register',
      () => JSON.stringify({ username: 'abc', email: 'a@b.cd', password: 'x1234567' }),
    ],
  ];

  it.each(writes)('refuses %s %s with 403 and changes no file', async (method, path, body) => {
    const payload = body?.();
    const headers: Record<string, string> = { ...s.auth };
    if (typeof payload === 'string') headers['content-type'] = 'application/json';
    const res = await fetch(`${s.url}${path.replace(':id', id)}`, { method, headers, body: payload });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'This server is read-only: writes are refused',
    );
    expect(treeListing(made.contentDir)).toEqual(tree);
  });

  it('still answers reads, in any case a route takes', async () => {
    expect((await s.api(`/api/articles/${id}`)).body.data.title).toBe('Kept');
    const files = await s.api('/API/Upload/Files');
    expect([files.status, files.body]).toEqual([200, []]);
  });
});
