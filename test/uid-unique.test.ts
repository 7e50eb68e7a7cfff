import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';

/**
 * `uid` fields are unique per type and locale among published versions, as Strapi 5 enforces them (its
 * entity validator checks `unique` and every `uid` the same way): on every write path.
 */
const UNIQUE = { status: 400, name: 'ValidationError', message: 'This attribute must be unique' };

describe('uid fields are unique', () => {
  let s: TestServer;
  let watcher: Watcher;
  beforeAll(async () => {
    s = await startTestServer();
    watcher = await watchProject(s.project);
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const article = (data: Record<string, unknown>, query = '') =>
    s.api(`/api/articles${query}`, { method: 'POST', body: { data } });
  const refused = (res: { status: number; body: { error: Record<string, unknown> } }, field: string, value: string) => {
    expect(res.status).toBe(UNIQUE.status);
    expect(res.body.error).toMatchObject({ name: UNIQUE.name, message: UNIQUE.message });
    expect((res.body.error.details as { errors: unknown[] }).errors).toEqual([
      { path: [field], message: UNIQUE.message, name: 'ValidationError', value },
    ]);
  };

  it('refuses a second published article with the same slug, in the same locale', async () => {
    expect((await article({ title: 'One', slug: 'same-slug' })).status).toBe(201);
    refused(await article({ title: 'Two', slug: 'same-slug' }), 'slug', 'same-slug');
    // Another locale, and a draft, may use it (Strapi compares published versions of one locale).
    expect((await article({ title: 'Un', slug: 'same-slug' }, '?locale=fr')).status).toBe(201);
    const draft = await article({ title: 'Draft', slug: 'same-slug' }, '?status=draft');
    expect(draft.status).toBe(201);
    // Publishing that draft is refused, and the draft stays unpublished.
    const id = draft.body.data.documentId;
    refused(await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: {} } }), 'slug', 'same-slug');
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);
  });

  it('refuses an update that takes another document’s slug, and lets a document keep its own', async () => {
    const a = await article({ title: 'Keep', slug: 'keep-me' });
    const b = await article({ title: 'Other', slug: 'other-one' });
    expect(
      (await s.api(`/api/articles/${a.body.data.documentId}`, { method: 'PUT', body: { data: { title: 'K2' } } }))
        .status,
    ).toBe(200);
    const clash = await s.api(`/api/articles/${b.body.data.documentId}`, {
      method: 'PUT',
      body: { data: { slug: 'keep-me' } },
    });
    refused(clash, 'slug', 'keep-me');
  });

  it('holds on types without draft & publish, where every write publishes', async () => {
    expect(
      (await s.api('/api/categories', { method: 'POST', body: { data: { name: 'A', slug: 'cat' } } })).status,
    ).toBe(201);
    const dup = await s.api('/api/categories', { method: 'POST', body: { data: { name: 'B', slug: 'cat' } } });
    refused(dup, 'slug', 'cat');
  });

  it('lets one of many writes side by side publish a slug', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => article({ title: `Race ${i}`, slug: 'raced-slug' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    const list = await s.api('/api/articles?filters[slug][$eq]=raced-slug');
    expect(list.body.data).toHaveLength(1);
  });

  it('frees a slug when its document is deleted, and sees slugs written to the files by others', async () => {
    const a = await article({ title: 'Gone', slug: 'freed' });
    expect((await s.api(`/api/articles/${a.body.data.documentId}`, { method: 'DELETE' })).status).toBe(204);
    const again = await article({ title: 'Back', slug: 'freed' });
    expect(again.status).toBe(201);

    // Another process writes a published article with a slug: once the server has seen the file, it is taken.
    const dir = join(s.contentDir, 'documents', 'articles');
    const t = '2024-01-01T00:00:00.000Z';
    const version = { id: 9001, title: 'From disk', slug: 'from-disk', createdAt: t, updatedAt: t };
    const file = join(dir, 'fromdiskdocument00000001.json');
    writeFileSync(
      file,
      `${JSON.stringify({
        documentId: 'fromdiskdocument00000001',
        locales: {
          en: { draft: { ...version, publishedAt: null }, published: { ...version, id: 9002, publishedAt: t } },
        },
      })}\n`,
    );
    await expect.poll(async () => (await s.api('/api/articles/fromdiskdocument00000001')).status).toBe(200);
    refused(await article({ title: 'Clash', slug: 'from-disk' }), 'slug', 'from-disk');
    // Renamed in the file: the old value is free, the new one taken.
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"from-disk"', '"renamed-on-disk"'));
    await expect
      .poll(async () => (await s.api('/api/articles/fromdiskdocument00000001')).body.data?.slug)
      .toBe('renamed-on-disk');
    refused(await article({ title: 'Clash', slug: 'renamed-on-disk' }), 'slug', 'renamed-on-disk');
    const freed = await article({ title: 'Freed', slug: 'from-disk' });
    expect(freed.status).toBe(201);
    expect((await s.api(`/api/articles/${freed.body.data.documentId}`, { method: 'DELETE' })).status).toBe(204);
    rmSync(file);
    await expect.poll(async () => (await s.api('/api/articles/fromdiskdocument00000001')).status).toBe(404);
    expect((await article({ title: 'Free again', slug: 'from-disk' })).status).toBe(201);
  });

  it('refuses it from the CLI (folio docs create / update) with the message and exit code 1', async () => {
    await s.project.documents.idle();
    const r = await runFolio([
      'docs',
      'create',
      'articles',
      '--data',
      JSON.stringify({ title: 'CLI', slug: 'same-slug' }),
      '--dir',
      s.dir,
    ]);
    expect(r.code).toBe(1);
    const holder = (await s.api('/api/articles?filters[slug][$eq]=same-slug')).body.data[0].documentId;
    expect(r.stderr).toContain(`slug: "same-slug" is already used by article ${holder} (en); "same-slug-1" is free`);
    const files = readdirSync(join(s.contentDir, 'documents', 'articles'));
    const again = await runFolio([
      'docs',
      'create',
      'articles',
      '--data',
      '{"title":"CLI","slug":"cli-own"}',
      '--dir',
      s.dir,
    ]);
    expect(again.code).toBe(0);
    expect(readdirSync(join(s.contentDir, 'documents', 'articles'))).toHaveLength(files.length + 1);
  });

  describe("the availability routes (Strapi content manager's uid/check-availability and uid/generate)", () => {
    const check = (body: Record<string, unknown>, query = '') =>
      s.api(`/_folio/uid/check-availability${query}`, { method: 'POST', body });
    const generate = (body: Record<string, unknown>, query = '') =>
      s.api(`/_folio/uid/generate${query}`, { method: 'POST', body });
    const ARTICLE = { contentTypeUID: 'api::article.article', field: 'slug' };

    it('says whether a value is free in a locale, and suggests the next free one', async () => {
      await article({ title: 'Taken', slug: 'taken' });
      await article({ title: 'Taken 1', slug: 'taken-1' }, '?status=draft');
      expect((await check({ ...ARTICLE, value: 'taken' })).body).toEqual({ isAvailable: false, suggestion: 'taken-2' });
      expect((await check({ ...ARTICLE, value: 'never-used' })).body).toEqual({ isAvailable: true, suggestion: null });
      expect((await check({ ...ARTICLE, value: 'taken' }, '?locale=fr')).body).toEqual({
        isAvailable: true,
        suggestion: null,
      });
      // The document that holds it may keep it.
      const holder = (await s.api('/api/articles?filters[slug][$eq]=taken')).body.data[0].documentId;
      expect((await check({ ...ARTICLE, value: 'taken', documentId: holder })).body.isAvailable).toBe(true);
    });

    it('generates a free value from the target field, as Strapi slugifies it', async () => {
      expect((await generate({ ...ARTICLE, data: { title: 'Taken' } })).body).toEqual({ data: 'taken-2' });
      expect((await generate({ ...ARTICLE, data: { title: 'Ça va, Wörld fooBar' } })).body).toEqual({
        data: 'ca-va-woerld-foo-bar',
      });
      // No target value: the type's name.
      expect((await generate({ ...ARTICLE, data: {} })).body).toEqual({ data: 'article' });
    });

    it('checks the body and the field as Strapi does', async () => {
      const missing = await check({ contentTypeUID: 'api::article.article' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({
        name: 'ValidationError',
        message: 'Invalid input: expected string, received undefined',
        details: {
          errors: [
            { path: ['field'], message: 'Invalid input: expected string, received undefined', name: 'ValidationError' },
            { path: ['value'], message: 'Invalid input: expected string, received undefined', name: 'ValidationError' },
          ],
        },
      });
      const pattern = await check({ ...ARTICLE, value: 'not a slug!' });
      expect(pattern.status).toBe(400);
      expect(pattern.body.error.message).toBe('Must match the custom regex or the default one "/^[A-Za-z0-9-_.~]*$/"');
      const notUid = await check({ ...ARTICLE, field: 'title', value: 'x' });
      expect(notUid.body.error).toMatchObject({ status: 400, message: 'title must be a valid `uid` attribute' });
      const noType = await generate({ contentTypeUID: 'api::nope.nope', field: 'slug', data: {} });
      expect(noType.body.error).toMatchObject({ status: 400, message: 'ContentType not found' });
    });

    it('answers only callers who may create or update the type', async () => {
      const anonymous = await s.api('/_folio/uid/generate', {
        method: 'POST',
        anonymous: true,
        body: { ...ARTICLE, data: { title: 'x' } },
      });
      expect(anonymous.status).toBe(403);
      const reader = await s.api('/_folio/uid/check-availability', {
        method: 'POST',
        as: 'read-only',
        body: { ...ARTICLE, value: 'taken' },
      });
      expect(reader.status).toBe(403);
    });
  });
});

describe('folio validate reports uid values held twice', () => {
  it('names each document that shares a published slug in a locale, and not drafts that share one', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const dir = join(p.contentDir, 'documents', 'articles');
      const files = readdirSync(dir).sort();
      const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const [a, b, c] = files.filter((f) => read(f).locales?.en?.published);
      const slug = read(a).locales.en.published.slug as string;
      // What a merge of two branches can leave: b's published slug is a's; c's draft only.
      for (const [f, status] of [
        [b, 'published'],
        [c, 'draft'],
      ] as const) {
        const doc = read(f);
        doc.locales.en[status].slug = slug;
        writeFileSync(join(dir, f), `${JSON.stringify(doc, null, 2)}\n`);
      }
      const r = await runFolio(['validate', '--dir', p.dir]);
      expect(r.code).toBe(1);
      const lines = r.stdout
        .trim()
        .split('\n')
        .filter((l) => l.includes(' is not unique'));
      expect(lines).toHaveLength(1);
      const [held, other] = lines[0].includes(`articles/${b}`) ? [a, b] : [b, a];
      expect(lines[0]).toBe(
        `content/documents/articles/${other}: locales.en.published.slug: ${JSON.stringify(slug)} is not unique: ` +
          `content/documents/articles/${held} has it too`,
      );
    } finally {
      p.cleanup();
    }
  });
});
