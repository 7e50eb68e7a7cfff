import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toNodeListener } from 'h3';
import { FolioError, openFolio, type Folio } from '../src/index.js';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** The package's programmatic API (src/index.ts, docs/api.md), as a program that embeds Folio uses it. */
describe('openFolio', () => {
  let project: ReturnType<typeof makeProject>;
  let folio: Folio;
  let ada: string;

  beforeAll(async () => {
    project = makeProject();
    folio = await openFolio(project.dir);
    ada = (await folio.create('authors', { name: 'Ada' })).data.documentId as string;
  });
  afterAll(() => project.cleanup());

  it('lists the content-types', () => {
    expect(folio.root).toBe(project.dir);
    expect(folio.types().find((t) => t.pluralName === 'articles')).toEqual({
      uid: 'api::article.article',
      kind: 'collectionType',
      singularName: 'article',
      pluralName: 'articles',
      displayName: 'Article',
      draftAndPublish: true,
      localized: true,
    });
  });

  it('writes and reads documents as the REST API answers them, and as the CLI sees them', async () => {
    const created = await folio.create('articles', { title: 'Hello', views: 700, author: ada }, { populate: 'author' });
    const id = created.data.documentId as string;
    expect(created.data).toMatchObject({ title: 'Hello', views: 700, locale: 'en', author: { name: 'Ada' } });
    expect(created.meta).toEqual({});
    await folio.create('articles', { title: 'Draft only' }, { status: 'draft' });

    // A query string or the object qs makes of it: the same read.
    const byString = folio.find('articles', 'filters[views][$gt]=500&populate=author&sort=title');
    const byObject = folio.find('articles', { filters: { views: { $gt: 500 } }, populate: 'author', sort: 'title' });
    expect(byObject).toEqual(byString);
    expect(byString.data.map((a) => a.title)).toEqual(['Hello']);
    expect(byString.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } });
    expect(
      folio
        .find('articles', { status: 'draft' })
        .data.map((a) => a.title)
        .sort(),
    ).toEqual(['Draft only', 'Hello']);

    // The files are the truth: the CLI, another process, reads what the API wrote.
    const listed = await runFolio(['docs', 'list', 'articles', '--json', '--dir', project.dir]);
    expect(JSON.parse(listed.stdout).data.map((a: { documentId: string }) => a.documentId)).toEqual([id]);

    const fr = await folio.update('articles', id, { title: 'Bonjour' }, { locale: 'fr' });
    expect(fr?.data).toMatchObject({ title: 'Bonjour', locale: 'fr' });
    expect(folio.findOne('articles', id, { locale: 'fr' })?.data.title).toBe('Bonjour');
    expect(folio.findOne('articles', 'nosuchdocument0000000000')).toBeNull();
    expect(await folio.update('articles', 'nosuchdocument0000000000', { title: 'x' })).toBeNull();

    expect((await folio.unpublish('articles', id))?.data.publishedAt).toBeNull();
    expect(folio.findOne('articles', id)).toBeNull();
    expect((await folio.publish('articles', id))?.data.publishedAt).toEqual(expect.any(String));
    expect(await folio.delete('articles', id, { locale: '*' })).toBeGreaterThan(0);
    expect(folio.findOne('articles', id, { status: 'draft' })).toBeNull();
  });

  it('a single type is read and written without a documentId', async () => {
    expect(folio.findOne('global')).toBeNull();
    await folio.create('global', { siteName: 'Folio' });
    await folio.create('global', { siteName: 'Folio, again' });
    expect(folio.findOne('global')?.data.siteName).toBe('Folio, again');
  });

  it('refuses what the REST API refuses, with its status, name and message', async () => {
    const refused = async (p: Promise<unknown> | (() => unknown)) => {
      try {
        await (typeof p === 'function' ? p() : p);
      } catch (err) {
        return err as FolioError;
      }
      throw new Error('not refused');
    };
    const invalid = await refused(folio.create('articles', { title: 5 }));
    expect(invalid).toBeInstanceOf(FolioError);
    expect([invalid.status, invalid.errorName, invalid.message]).toEqual([
      400,
      'ValidationError',
      'title must be a `string` type, but the final value was: `5`.',
    ]);
    const unknown = await refused(() => folio.find('nosuchtypes'));
    expect([unknown.status, unknown.message]).toEqual([404, 'Unknown content-type "nosuchtypes"']);
    const badQuery = await refused(() => folio.find('articles', 'filters[nope]=1'));
    expect([badQuery.status, badQuery.message]).toEqual([400, 'Invalid key nope']);
  });

  it('makes the h3 app folio serve runs, permissions included, to mount in a server of your own', async () => {
    const app = await folio.app({ log: () => undefined });
    const server = createServer(toNodeListener(app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/api/authors`)).status).toBe(200);
      // Content is private unless content/permissions.json grants it: the public role may not list tags.
      expect((await fetch(`${base}/api/tags`)).status).toBe(403);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('listens as folio serve does, following changes on disk, until closed', async () => {
    const logged: string[] = [];
    const server = await folio.listen({ port: 0, host: '127.0.0.1', log: (m) => logged.push(m) });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const names = async () =>
        ((await (await fetch(`${server.url}/api/authors`)).json()) as { data: Array<{ name: string }> }).data.map(
          (a) => a.name,
        );
      expect(await names()).toEqual(['Ada']);
      // Another process writes a document: the server follows.
      await runFolio(['docs', 'create', 'authors', '--data', '{"name":"Grace"}', '--dir', project.dir]);
      for (let i = 0; i < 400 && (await names()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await names()).sort()).toEqual(['Ada', 'Grace']);
      // permissions.json is followed too: granting tags.find opens the route.
      const file = join(project.contentDir, 'permissions.json');
      const permissions = JSON.parse(readFileSync(file, 'utf8'));
      permissions.roles.public.permissions.push('api::tag.tag.find');
      writeFileSync(file, JSON.stringify(permissions, null, 2));
      for (let i = 0; i < 400 && (await fetch(`${server.url}/api/tags`)).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/api/authors`)).rejects.toThrow();
    expect(logged).toEqual([]);
  });
});
