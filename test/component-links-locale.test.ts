import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addComponent, addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';

type Row = { title: string; locale: string };
const shown = (rows: Row[] | Row | null | undefined) =>
  (Array.isArray(rows) ? rows : rows ? [rows] : []).map((r) => `${r.title} [${r.locale}]`);

/**
 * The blog model where the localized article holds a component (`pointer`) whose `related` relation links
 * articles: alone, repeatable (`pointers`), nested in another component (`shelf`) and in the `blocks` zone;
 * the author (a type without locales) holds one too.
 */
function projectWithPointers() {
  const p = makeProject();
  const component = (name: string, attributes: Record<string, unknown>) => addComponent(p.contentDir, name, attributes);
  component('pointer', {
    label: { type: 'string' },
    related: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
  });
  component('shelf', {
    name: { type: 'string' },
    pointer: { type: 'component', component: 'shared.pointer', repeatable: false },
  });
  addAttributes(p.contentDir, 'article', {
    pointer: { type: 'component', component: 'shared.pointer', repeatable: false },
    pointers: { type: 'component', component: 'shared.pointer', repeatable: true },
    shelf: { type: 'component', component: 'shared.shelf', repeatable: false },
    blocks: { type: 'dynamiczone', components: ['shared.rich-text', 'shared.pointer'] },
  });
  addAttributes(p.contentDir, 'author', {
    pointer: { type: 'component', component: 'shared.pointer', repeatable: false },
  });
  return p;
}

/** Issue 24 §2: a link inside a component of a localized document names the target version of that locale. */
describe('relations inside components of a localized document', () => {
  const project = projectWithPointers();
  let s: TestServer;
  let target: string;
  let enOnly: string;
  let source: string;
  let ann: string;
  const json = async (path: string, init?: Parameters<TestServer['api']>[1]) => {
    const r = await s.api(path, init);
    expect(r.status, JSON.stringify(r.body?.error)).toBeLessThan(300);
    return r.body;
  };
  const stored = (documentId: string) =>
    JSON.parse(readFileSync(join(project.contentDir, 'documents', 'articles', `${documentId}.json`), 'utf8'));
  const links = (related: unknown) => ({
    pointer: { label: 'one', related },
    pointers: [{ label: 'first', related }, { label: 'second' }],
    shelf: { name: 'shelf', pointer: { label: 'nested', related } },
    blocks: [{ __component: 'shared.pointer', label: 'zone', related }],
  });
  const titles = (body: { data: Array<{ title: string }> }) => body.data.map((a) => a.title);
  const q = encodeURIComponent;

  beforeAll(async () => {
    s = await startTestServer({ dir: project.dir });
    ann = (await json('/api/authors', { method: 'POST', body: { data: { name: 'Ann' } } })).data.documentId;
    target = (await json('/api/articles', { method: 'POST', body: { data: { title: 'Target one' } } })).data.documentId;
    await json(`/api/articles/${target}?locale=fr`, { method: 'PUT', body: { data: { title: 'Cible un' } } });
    enOnly = (await json('/api/articles', { method: 'POST', body: { data: { title: 'English only' } } })).data
      .documentId;
    source = (
      await json('/api/articles', {
        method: 'POST',
        body: { data: { title: 'Source', author: ann, ...links({ connect: [target] }) } },
      })
    ).data.documentId;
    await json(`/api/articles/${source}?locale=fr`, {
      method: 'PUT',
      body: { data: { title: 'Source fr', author: ann, ...links([target]) } },
    });
  });
  afterAll(async () => {
    await s.stop();
    project.cleanup();
  });

  it('stores the documentId alone in every locale', () => {
    const file = stored(source);
    for (const locale of ['en', 'fr']) {
      const v = file.locales[locale].published;
      expect(v.pointer.related).toEqual([target]);
      expect(v.shelf.pointer.related).toEqual([target]);
    }
  });

  it('populate reads the target version of the locale of the version holding the component', async () => {
    const read = async (locale: string) =>
      (
        await json(
          `/api/articles/${source}?locale=${locale}&populate[pointer][populate]=related` +
            '&populate[pointers][populate]=related&populate[shelf][populate][pointer][populate]=related' +
            '&populate[blocks][on][shared.pointer][populate]=related',
        )
      ).data;
    const fr = await read('fr');
    expect(shown(fr.pointer.related)).toEqual(['Cible un [fr]']);
    expect(shown(fr.pointers[0].related)).toEqual(['Cible un [fr]']);
    expect(shown(fr.pointers[1].related)).toEqual([]);
    expect(shown(fr.shelf.pointer.related)).toEqual(['Cible un [fr]']);
    expect(shown(fr.blocks[0].related)).toEqual(['Cible un [fr]']);
    const en = await read('en');
    expect(shown(en.pointer.related)).toEqual(['Target one [en]']);
    expect(shown(en.shelf.pointer.related)).toEqual(['Target one [en]']);
    expect(shown(en.blocks[0].related)).toEqual(['Target one [en]']);
  });

  it('populate=* one level down, dotted populate and a zone populated with * follow the locale too', async () => {
    const star = (await json(`/api/articles/${source}?locale=fr&populate[pointer][populate]=*`)).data;
    expect(shown(star.pointer.related)).toEqual(['Cible un [fr]']);
    const dotted = (await json(`/api/articles/${source}?locale=fr&populate=shelf.pointer.related,pointers.related`))
      .data;
    expect(shown(dotted.shelf.pointer.related)).toEqual(['Cible un [fr]']);
    expect(shown(dotted.pointers[0].related)).toEqual(['Cible un [fr]']);
    const zone = (await json(`/api/articles/${source}?locale=fr&populate[blocks][populate]=*`)).data;
    expect(shown(zone.blocks[0].related)).toEqual(['Cible un [fr]']);
    // Lists too: each article of the list reads its own locale's targets.
    const list = await json(`/api/articles?locale=fr&filters[documentId][$eq]=${source}&populate=pointer.related`);
    expect(shown(list.data[0].pointer.related)).toEqual(['Cible un [fr]']);
  });

  it('filters through the component relation test the target version of that locale', async () => {
    const find = async (locale: string, path: string, title: string) =>
      titles(await json(`/api/articles?locale=${locale}&filters${path}[title][$eq]=${q(title)}`));
    for (const path of ['[pointer][related]', '[pointers][related]', '[shelf][pointer][related]']) {
      expect(await find('fr', path, 'Cible un'), path).toEqual(['Source fr']);
      expect(await find('fr', path, 'Target one'), path).toEqual([]);
      expect(await find('en', path, 'Target one'), path).toEqual(['Source']);
      expect(await find('en', path, 'Cible un'), path).toEqual([]);
    }
  });

  it('sort through the component relation reads the target version of that locale', async () => {
    // "Alpha" in en and "Zulu" in fr: in fr, the article linking it sorts after the one linking "Cible un".
    const alpha = (await json('/api/articles', { method: 'POST', body: { data: { title: 'Alpha' } } })).data.documentId;
    await json(`/api/articles/${alpha}?locale=fr`, { method: 'PUT', body: { data: { title: 'Zulu' } } });
    const other = (
      await json('/api/articles?locale=fr', {
        method: 'POST',
        body: { data: { title: 'Autre', pointer: { label: 'x', related: [alpha] } } },
      })
    ).data.documentId;
    try {
      const sorted = async (dir: string) =>
        titles(
          await json(
            `/api/articles?locale=fr&sort=pointer.related.title:${dir}&filters[pointer][related][id][$notNull]=true`,
          ),
        );
      expect(await sorted('asc')).toEqual(['Source fr', 'Autre']);
      expect(await sorted('desc')).toEqual(['Autre', 'Source fr']);
    } finally {
      await json(`/api/articles/${other}?locale=fr`, { method: 'DELETE' });
      await json(`/api/articles/${alpha}?locale=*`, { method: 'DELETE' });
    }
  });

  it("a populate filter on a repeatable component's items tests that locale's targets", async () => {
    const read = async (locale: string, title: string) =>
      (
        await json(
          `/api/articles/${source}?locale=${locale}&populate[pointers][filters][related][title][$eq]=${q(title)}` +
            '&populate[pointers][populate]=related',
        )
      ).data.pointers.map((p: { label: string }) => p.label);
    expect(await read('fr', 'Cible un')).toEqual(['first']);
    expect(await read('fr', 'Target one')).toEqual([]);
    expect(await read('en', 'Target one')).toEqual(['first']);
  });

  it('reached through a relation from a type without locales, each article reads its own locale', async () => {
    const got = (await json(`/api/authors/${ann}?populate[articles][populate][pointer][populate]=related`)).data;
    const seen = got.articles
      .map((a: { title: string; pointer: { related: Row[] } }) => `${a.title}: ${shown(a.pointer.related).join()}`)
      .sort();
    expect(seen).toEqual(['Source fr: Cible un [fr]', 'Source: Target one [en]']);
    const zone = (await json(`/api/authors/${ann}?populate[articles][populate][blocks][populate]=*`)).data;
    expect(
      zone.articles.map((a: { title: string; blocks: Array<{ related: Row[] }> }) =>
        [a.title, ...shown(a.blocks[0].related)].join(': '),
      ),
    ).toEqual(expect.arrayContaining(['Source fr: Cible un [fr]', 'Source: Target one [en]']));
    const byTitle = async (title: string) =>
      (await json(`/api/authors?filters[articles][pointer][related][title][$eq]=${q(title)}`)).data.map(
        (a: { name: string }) => a.name,
      );
    expect(await byTitle('Cible un')).toEqual(['Ann']);
    expect(await byTitle('Target one')).toEqual(['Ann']);
  });

  it("a link to a target without that locale's version is refused, as Strapi answers it", async () => {
    const r = await s.api(`/api/articles/${source}?locale=fr`, {
      method: 'PUT',
      body: { data: { pointer: { label: 'one', related: { connect: [enOnly] } } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(`Document with id "${enOnly}", locale "fr" not found`);
  });

  it("a locale named in a link from a localized version is that version's locale, as in Strapi", async () => {
    await json(`/api/articles/${source}?locale=fr`, {
      method: 'PUT',
      body: { data: { pointer: { label: 'one', related: { connect: [{ documentId: target, locale: 'en' }] } } } },
    });
    expect(stored(source).locales.fr.published.pointer.related).toEqual([target]);
    const got = (await json(`/api/articles/${source}?locale=fr&populate=pointer.related`)).data;
    expect(shown(got.pointer.related)).toEqual(['Cible un [fr]']);
  });

  it('a type without locales keeps linking the version its link names', async () => {
    await json(`/api/authors/${ann}`, {
      method: 'PUT',
      body: { data: { pointer: { label: 'p', related: [{ documentId: target, locale: 'fr' }, target] } } },
    });
    const got = (await json(`/api/authors/${ann}?populate[pointer][populate]=related`)).data;
    expect(shown(got.pointer.related)).toEqual(['Cible un [fr]', 'Target one [en]']);
    const names = async (title: string) =>
      (await json(`/api/authors?filters[pointer][related][title][$eq]=${q(title)}`)).data.map(
        (a: { name: string }) => a.name,
      );
    expect(await names('Cible un')).toEqual(['Ann']);
  });
});
