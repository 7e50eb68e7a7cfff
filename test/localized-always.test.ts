import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/**
 * On a localized type, uid fields and relations differ per locale even when their schema does not say so (Strapi's
 * rule); other fields are shared by the locales unless marked localized. The blog fixture marks its slug localized
 * explicitly, so this type leaves every flag out.
 */
describe('fields of a localized type that say nothing of i18n', () => {
  const made = makeProject();
  let s: TestServer;
  beforeAll(async () => {
    const page = {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: false },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        slug: { type: 'uid', targetField: 'title' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
        views: { type: 'integer' },
      },
    };
    writeFileSync(join(made.contentDir, 'types', 'page.json'), `${JSON.stringify(page, null, 2)}\n`);
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  it('keep the English slug and author when the French version sets its own; share the rest', async () => {
    const author = async (name: string) =>
      (await s.api('/api/authors', { method: 'POST', body: { data: { name } } })).body.data.documentId as string;
    const [ada, bob] = [await author('Ada'), await author('Bob')];
    const en = await s.api('/api/pages', {
      method: 'POST',
      body: { data: { title: 'Hello', slug: 'hello', author: ada, views: 1 } },
    });
    expect(en.status).toBe(201);
    const id = en.body.data.documentId;
    const fr = await s.api(`/api/pages/${id}?locale=fr`, {
      method: 'PUT',
      body: { data: { title: 'Bonjour', slug: 'bonjour', author: bob, views: 2 } },
    });
    expect(fr.status).toBe(200);
    const read = async (locale: string) => {
      const res = await s.api(`/api/pages/${id}?locale=${locale}&populate[author][fields][0]=name`);
      const { title, slug, author, views } = res.body.data;
      return { title, slug, author: author?.name, views };
    };
    expect(await read('en')).toEqual({ title: 'Hello', slug: 'hello', author: 'Ada', views: 2 });
    expect(await read('fr')).toEqual({ title: 'Bonjour', slug: 'bonjour', author: 'Bob', views: 2 });
  });
});
