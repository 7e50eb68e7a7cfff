import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';

/** The CLI, run in this process by its main(argv) (see helpers/cli.ts). */
const folio = (args: string[]) => runFolio(args);
/** The CLI as a user runs it, in a process of its own: the end-to-end run of the locales commands. */
const spawned = (args: string[]) => spawnFolio(args);

describe('draft & publish lifecycle and locales', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });
  const file = (id: string) =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));

  const lifecycleTitle =
    'draft -> invisible -> publish -> visible -> edit draft -> unpublish -> discard, over HTTP and the CLI';
  it(lifecycleTitle, async () => {
    const id = (await s.api('/api/articles?status=draft', { method: 'POST', body: { data: { title: 'Life' } } })).body
      .data.documentId;
    expect((await s.api(`/api/articles/${id}`, { anonymous: true })).status).toBe(404);
    expect((await folio(['docs', 'publish', 'articles', id, '--dir', s.dir])).code).toBe(0);
    const fresh = await startTestServer({ dir: s.dir });
    try {
      expect((await fresh.api(`/api/articles/${id}`, { anonymous: true })).body.data.title).toBe('Life');
      await fresh.api(`/api/articles/${id}?status=draft`, { method: 'PUT', body: { data: { title: 'Life, edited' } } });
      expect((await fresh.api(`/api/articles/${id}`)).body.data.title).toBe('Life');
      expect((await fresh.api(`/api/articles/${id}?status=draft`)).body.data.title).toBe('Life, edited');
      const en = JSON.parse(readFileSync(join(fresh.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales
        .en;
      expect([en.draft.title, en.published.title]).toEqual(['Life, edited', 'Life']);
    } finally {
      await fresh.stop();
    }
    const discard = await folio(['docs', 'discard-draft', 'articles', id, '--dir', s.dir]);
    expect(discard.code).toBe(0);
    expect(file(id).locales.en.draft.title).toBe('Life');
    const unpub = await folio(['docs', 'unpublish', 'articles', id, '--dir', s.dir]);
    expect(unpub.code).toBe(0);
    expect(Object.keys(file(id).locales.en)).toEqual(['draft']);
  });

  const localizedTitle =
    'keeps a localized article in en and fr in one file, shares non-localized ' +
    'fields, and never changes a locale by update';
  it(localizedTitle, async () => {
    const id = (
      await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Hello', views: 5, featured: true } } })
    ).body.data.documentId;
    const fr = await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { title: 'Bonjour' } } });
    expect(fr.status).toBe(200);
    expect(fr.body.data).toMatchObject({ title: 'Bonjour', views: 5, featured: true, locale: 'fr' });
    await s.api(`/api/articles/${id}?locale=fr`, { method: 'PUT', body: { data: { views: 9 } } });
    expect((await s.api(`/api/articles/${id}`)).body.data).toMatchObject({ title: 'Hello', views: 9, locale: 'en' });
    const body = file(id);
    expect(Object.keys(body.locales)).toEqual(['en', 'fr']);
    expect(body.locales.en.published.views).toBe(9);
    const attempt = await s.api(`/api/articles/${id}`, {
      method: 'PUT',
      body: { data: { locale: 'fr', title: 'Still English' } },
    });
    expect(attempt.body.data.locale).toBe('en');
    expect(file(id).locales.fr.published.title).toBe('Bonjour');
    expect(
      (await s.api('/api/articles?locale=*&fields[0]=title&filters[documentId]=' + id)).body.data
        .map((a: { title: string }) => a.title)
        .sort(),
    ).toEqual(['Bonjour', 'Still English']);
    expect((await s.api(`/api/articles/${id}?locale=de`)).status).toBe(404);
    expect(
      (await s.api(`/api/articles/${id}?locale=de`, { method: 'PUT', body: { data: { title: 'x' } } })).status,
    ).toBe(400);
    await s.api(`/api/articles/${id}?locale=fr`, { method: 'DELETE' });
    expect(Object.keys(file(id).locales)).toEqual(['en']);
    const loc = await s.api('/api/i18n/locales');
    expect(loc.body.map((l: { code: string; isDefault: boolean }) => [l.code, l.isDefault])).toEqual([
      ['en', true],
      ['fr', false],
    ]);
  });

  it('ignores locale on types that are not localized', async () => {
    const res = await s.api('/api/authors?locale=fr', { method: 'POST', body: { data: { name: 'Nobody' } } });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('locale');
    expect((await s.api(`/api/authors/${res.body.data.documentId}?locale=de`)).status).toBe(200);
  });

  it('manages locales from the CLI', async () => {
    const add = await spawned(['locales', 'add', 'de', '--name', 'German (de)', '--dir', s.dir]);
    expect(add.code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(s.contentDir, 'folio.json'), 'utf8')).locales.map((l: { code: string }) => l.code),
    ).toEqual(['en', 'fr', 'de']);
    // The rest in this process: the answers, not the process, are checked.
    const list = JSON.parse((await folio(['locales', 'list', '--json', '--dir', s.dir])).stdout);
    expect(list.find((l: { code: string }) => l.code === 'de')).toEqual({
      code: 'de',
      name: 'German (de)',
      isDefault: false,
    });
    expect((await folio(['locales', 'remove', 'en', '--dir', s.dir])).stderr).toMatch(/default locale/);
    expect((await folio(['locales', 'add', 'not a code', '--dir', s.dir])).code).toBe(1);
    expect((await folio(['locales', 'remove', 'de', '--dir', s.dir])).code).toBe(0);
  });
});
