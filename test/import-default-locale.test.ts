import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

const EN = { code: 'en', name: 'English (en)' };
const FR = { code: 'fr', name: 'French (fr)' };

/** The blog model, whose authors (without locales) pick an article (localized). */
function project(config: Record<string, unknown>) {
  const p = makeProject({ config });
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

async function stop(s: TestServer) {
  await s.stop();
  servers.splice(servers.indexOf(s), 1);
}

const ok = async (s: TestServer, path: string, init?: Parameters<TestServer['api']>[1]) => {
  const r = await s.api(path, init);
  expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
  return r.body;
};

/**
 * A Strapi (here Folio speaking its API) with the `source` settings, and a project whose folio.json is the
 * `settings` given, with an author picking the English version of an article (translated to French if `french`).
 */
async function scenario(
  source: Record<string, unknown>,
  settings: (written: Record<string, unknown>) => object,
  french = true,
) {
  const from = project(source);
  projects.push(from);
  const strapi = await serve(from.dir);

  const target = project({ locales: [EN, FR], defaultLocale: 'en' });
  projects.push(target);
  const file = join(target.contentDir, 'folio.json');
  writeFileSync(file, `${JSON.stringify(settings(JSON.parse(readFileSync(file, 'utf8'))), null, 2)}\n`);
  const s = await serve(target.dir);
  const article = (await ok(s, '/api/articles?locale=en', { method: 'POST', body: { data: { title: 'Hello' } } })).data
    .documentId as string;
  if (french)
    await ok(s, `/api/articles/${article}?locale=fr`, { method: 'PUT', body: { data: { title: 'Bonjour' } } });
  const author = (await ok(s, '/api/authors', { method: 'POST', body: { data: { name: 'Ann', pick: article } } })).data
    .documentId as string;
  expect((await ok(s, `/api/authors/${author}?populate=pick`)).data.pick).toMatchObject({ locale: 'en' });
  await stop(s);

  const args = ['import', 'strapi', '--url', strapi.url, '--token', strapi.token, '--dir', target.dir];
  return { target, article, author, imported: await runFolio(args) };
}

/** The author's pick as stored and as served, after the import. */
async function picked(target: { dir: string; contentDir: string }, author: string) {
  const stored = JSON.parse(readFileSync(join(target.contentDir, 'documents', 'authors', `${author}.json`), 'utf8'));
  const s = await serve(target.dir);
  expect(s.project.report.problems).toEqual([]);
  const served = (await ok(s, `/api/authors/${author}?populate=pick`)).data.pick;
  return { stored: stored.published.pick as string, served };
}

const settingsOf = (target: { contentDir: string }) =>
  JSON.parse(readFileSync(join(target.contentDir, 'folio.json'), 'utf8'));

describe('folio import strapi into a project whose default locale is another', () => {
  it('rewrites the links already stored so each keeps naming the same version', async () => {
    const { target, article, author, imported } = await scenario({ locales: [EN, FR], defaultLocale: 'fr' }, (w) => w);
    expect(imported.code, imported.stderr).toBe(0);
    expect(settingsOf(target).defaultLocale).toBe('fr');
    const pick = await picked(target, author);
    expect(pick.stored).toBe(`${article}@en`);
    expect(pick.served).toMatchObject({ title: 'Hello', locale: 'en' });
  });

  it('takes the default the project used when its folio.json names none', async () => {
    // No "defaultLocale": the first locale (en) is the default.
    const { target, article, author, imported } = await scenario(
      { locales: [EN, FR], defaultLocale: 'fr' },
      ({ defaultLocale: _default, ...rest }) => rest,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(settingsOf(target).defaultLocale).toBe('fr');
    const pick = await picked(target, author);
    expect(pick.stored).toBe(`${article}@en`);
    expect(pick.served).toMatchObject({ title: 'Hello', locale: 'en' });
  });

  it('keeps the locales the project used when its folio.json lists none', async () => {
    // No "locales" and no "defaultLocale": the project uses the defaults (en alone). The source has fr alone.
    const { target, article, author, imported } = await scenario(
      { locales: [FR], defaultLocale: 'fr' },
      ({ locales: _locales, defaultLocale: _default, ...rest }) => rest,
      false,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const settings = settingsOf(target);
    expect(settings.defaultLocale).toBe('fr');
    expect(settings.locales.map((l: { code: string }) => l.code)).toEqual(['en', 'fr']);
    const pick = await picked(target, author);
    expect(pick.stored).toBe(`${article}@en`);
    expect(pick.served).toMatchObject({ title: 'Hello', locale: 'en' });
  });

  it('refuses while a document file cannot be read, and changes nothing', async () => {
    const { target, imported } = await scenario({ locales: [EN, FR], defaultLocale: 'fr' }, (w) => w);
    // The first import went through; break a file, then import from a source whose default is en again.
    expect(imported.code, imported.stderr).toBe(0);
    const broken = join(target.contentDir, 'documents', 'authors', 'zzzbroken00000000000000000.json');
    writeFileSync(broken, '{ "documentId": ');
    const settings = readFileSync(join(target.contentDir, 'folio.json'), 'utf8');
    const back = project({ locales: [EN, FR], defaultLocale: 'en' });
    projects.push(back);
    const strapi = await serve(back.dir);
    const r = await runFolio(['import', 'strapi', '--url', strapi.url, '--token', strapi.token, '--dir', target.dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot make en the default locale while 1 file(s) cannot be loaded');
    expect(r.stderr).toContain('zzzbroken00000000000000000.json');
    expect(readFileSync(join(target.contentDir, 'folio.json'), 'utf8')).toBe(settings);
  });
});

describe('folio locales default and remove with a file that cannot be loaded', () => {
  it('refuse, name the file and change nothing', async () => {
    const p = project({ locales: [EN, FR], defaultLocale: 'en' });
    projects.push(p);
    const broken = join(p.contentDir, 'documents', 'authors', 'zzzbroken00000000000000000.json');
    mkdirSync(join(p.contentDir, 'documents', 'authors'), { recursive: true });
    writeFileSync(broken, '{ "documentId": ');
    const settings = readFileSync(join(p.contentDir, 'folio.json'), 'utf8');
    for (const [args, said] of [
      [['locales', 'default', 'fr'], 'Cannot make fr the default locale'],
      [['locales', 'add', 'de', '--default'], 'Cannot make de the default locale'],
      [['locales', 'remove', 'fr', '--force'], 'Cannot remove the locale fr'],
    ] as const) {
      const r = await runFolio([...args, '--dir', p.dir]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(said);
      expect(r.stderr).toContain('zzzbroken00000000000000000.json');
      expect(readFileSync(join(p.contentDir, 'folio.json'), 'utf8')).toBe(settings);
    }
  });
});
