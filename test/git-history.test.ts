import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
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
