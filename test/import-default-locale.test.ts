import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

const LOCALES = [
  { code: 'en', name: 'English (en)' },
  { code: 'fr', name: 'French (fr)' },
];

/** The blog model with locales en and fr, whose authors (without locales) pick an article. */
function project(defaultLocale: string) {
  const p = makeProject({ config: { locales: LOCALES, defaultLocale } });
  addAttributes(p.contentDir, 'author', {
    pick: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' },
  });
  return p;
}

const servers: TestServer[] = [];
const projects: Array<ReturnType<typeof project>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const p of projects.splice(0)) p.cleanup();
});

async function serve(dir: string) {
  const s = await startTestServer({ dir });
  servers.push(s);
  return s;
}

const ok = async (s: TestServer, path: string, init?: Parameters<TestServer['api']>[1]) => {
  const r = await s.api(path, init);
  expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
  return r.body;
};

describe('folio import strapi into a project whose default locale is another', () => {
  it('rewrites the links already stored so each keeps naming the same version', async () => {
    // The source: a Strapi (here Folio speaking its API) whose default locale is fr.
    const source = project('fr');
    projects.push(source);
    const from = await serve(source.dir);

    // The project imported into: default en, an author picking the English version of an article.
    const target = project('en');
    projects.push(target);
    let s = await serve(target.dir);
    const article = (await ok(s, '/api/articles?locale=en', { method: 'POST', body: { data: { title: 'Hello' } } }))
      .data.documentId as string;
    await ok(s, `/api/articles/${article}?locale=fr`, { method: 'PUT', body: { data: { title: 'Bonjour' } } });
    const author = (await ok(s, '/api/authors', { method: 'POST', body: { data: { name: 'Ann', pick: article } } }))
      .data.documentId as string;
    const picked = async () => (await ok(s, `/api/authors/${author}?populate=pick`)).data.pick;
    expect(await picked()).toMatchObject({ title: 'Hello', locale: 'en' });
    await s.stop();
    servers.splice(servers.indexOf(s), 1);

    const r = await runFolio(['import', 'strapi', '--url', from.url, '--token', from.token, '--dir', target.dir]);
    expect(r.code, r.stderr).toBe(0);

    const settings = JSON.parse(readFileSync(join(target.contentDir, 'folio.json'), 'utf8'));
    expect(settings.defaultLocale).toBe('fr');
    const stored = JSON.parse(readFileSync(join(target.contentDir, 'documents', 'authors', `${author}.json`), 'utf8'));
    expect(stored.published.pick).toBe(`${article}@en`);
    s = await serve(target.dir);
    expect(s.project.report.problems).toEqual([]);
    expect(await picked()).toMatchObject({ title: 'Hello', locale: 'en' });
  });
});
