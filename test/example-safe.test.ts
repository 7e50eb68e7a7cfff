import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './helpers/auth.js';
import { runFolio } from './helpers/cli.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/** The actions Folio Studio uses on the blog example, beyond each type's document actions. */
const STUDIO_ACTIONS = [
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
  'plugin::i18n.locales.listLocales',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.destroy',
];
const COLLECTIONS = ['article', 'author', 'category', 'tag'];
const SINGLES = ['about', 'global'];

/**
 * `folio init --example blog`, served as it comes, is safe to expose: a stranger cannot register, a signed-in
 * user of the default role writes nothing, and the `editor` role has what Folio Studio needs.
 */
describe('the blog example', () => {
  let root: string;
  let s: TestServer;
  const signIn = async (identifier: string) => {
    const r = await s.api('/api/auth/local', {
      anonymous: true,
      method: 'POST',
      body: { identifier, password: 'secret-pass' },
    });
    expect(r.status).toBe(200);
    return bearer(r.body.jwt as string);
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'folio-example-'));
    expect((await runFolio(['init', root, '--example', 'blog'])).code).toBe(0);
    for (const [username, role] of [
      ['reader', 'authenticated'],
      ['edith', 'editor'],
    ]) {
      const made = await runFolio(
        ['users', 'create', '--username', username, '--email', `${username}@example.com`, '--role', role],
        { cwd: root, input: 'secret-pass\n' },
      );
      expect(made.code, made.stderr).toBe(0);
    }
    s = await startTestServer({ dir: root });
  });
  afterAll(async () => {
    await s?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets no stranger register', async () => {
    const r = await s.api('/api/auth/local/register', {
      anonymous: true,
      method: 'POST',
      body: { username: 'mallory', email: 'mallory@example.com', password: 'mallory-pass' },
    });
    expect(r.status).toBe(403);
    expect((await s.api('/api/users?filters[username]=mallory')).body).toEqual([]);
  });

  it('lets a user of the default role read and write nothing', async () => {
    const h = await signIn('reader');
    expect((await s.api('/api/articles', { anonymous: true, headers: h })).status).toBe(200);
    const writes: Array<[string, string]> = [
      ['POST', '/api/tags'],
      ['POST', '/api/articles'],
      ['PUT', '/api/global'],
      ['DELETE', '/api/about'],
    ];
    for (const [method, path] of writes) {
      const r = await s.api(path, { anonymous: true, headers: h, method, body: { data: { name: 'x' } } });
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const upload = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: h, body: form });
    expect(upload.status).toBe(403);
    const mine = (await s.api('/_folio/studio/permissions', { anonymous: true, headers: h })).body.data as string[];
    expect(mine.filter((a) => /\.(create|update|delete|upload|destroy)$/.test(a))).toEqual([]);
  });

  it('gives the editor role every action of the Studio, and the writes work', async () => {
    const h = await signIn('edith');
    const mine = (await s.api('/_folio/studio/permissions', { anonymous: true, headers: h })).body.data as string[];
    const expected = [
      ...COLLECTIONS.flatMap((t) =>
        ['find', 'findOne', 'create', 'update', 'delete'].map((v) => `api::${t}.${t}.${v}`),
      ),
      ...SINGLES.flatMap((t) => ['find', 'update', 'delete'].map((v) => `api::${t}.${t}.${v}`)),
      ...STUDIO_ACTIONS,
    ];
    expect([...mine].sort()).toEqual([...expected].sort());
    const tag = await s.api('/api/tags', {
      anonymous: true,
      headers: h,
      method: 'POST',
      body: { data: { name: 'new' } },
    });
    expect(tag.status).toBe(201);
    const article = (await s.api('/api/articles', { anonymous: true, headers: h })).body.data[0].documentId;
    const unpublish = await s.api(`/_folio/content/articles/${article}/unpublish`, {
      anonymous: true,
      headers: h,
      method: 'POST',
    });
    expect(unpublish.status).toBe(200);
    expect((await s.api('/api/users/me', { anonymous: true, headers: h })).body.username).toBe('edith');
    // The editor manages content, not accounts or roles.
    expect((await s.api('/api/users', { anonymous: true, headers: h })).status).toBe(403);
    expect((await s.api('/api/users-permissions/roles', { anonymous: true, headers: h })).status).toBe(403);
  });
});
