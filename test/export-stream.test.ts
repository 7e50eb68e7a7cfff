import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import qs from 'qs';
import { FIXTURE_CONFIG, FIXTURES, makeProject, startTestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

interface Schema {
  kind: string;
  info: { singularName: string; pluralName: string };
  pluginOptions?: { i18n?: { localized?: boolean } };
  attributes: Record<string, { type: string; mappedBy?: string }>;
}
const schemas: Schema[] = readdirSync(join(FIXTURES, 'types')).map((f) =>
  JSON.parse(readFileSync(join(FIXTURES, 'types', f), 'utf8')),
);

/** What the export populates, read from the schema: all `populate=*` does but the inverse sides of relations. */
function populateOf(s: Schema): Record<string, true> {
  const p: Record<string, true> = {};
  for (const [name, a] of Object.entries(s.attributes))
    if (a.type === 'relation' ? !a.mappedBy : ['media', 'component', 'dynamiczone'].includes(a.type)) p[name] = true;
  if (s.pluginOptions?.i18n?.localized) p.localizations = true;
  return p;
}

/** The API URL each exported file stands for (the layout of `folio export --help`). */
function urlOf(file: string): string {
  const parts = file.replace(/\.json$/, '').split('/');
  const single = schemas.find((s) => s.kind === 'singleType' && parts[0].split('.')[0] === s.info.singularName);
  if (single) {
    const [, locale] = parts[0].split('.');
    return `/api/${single.info.singularName}?${qs.stringify({ populate: populateOf(single), locale })}`;
  }
  const s = schemas.find((x) => x.info.pluralName === parts[0])!;
  let rest = parts.slice(1);
  const locale = FIXTURE_CONFIG.locales.some((l) => l.code === rest[0]) && rest.length > 1 ? rest[0] : undefined;
  if (locale) rest = rest.slice(1);
  const q = (extra: object) => qs.stringify({ populate: populateOf(s), locale, ...extra });
  if (rest[0] === 'index') return `/api/${parts[0]}?${q({})}`;
  if (rest[0] === 'page') return `/api/${parts[0]}?${q({ pagination: { page: rest[1] } })}`;
  return `/api/${parts[0]}/${rest[0]}?${q({})}`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('folio export, page by page', () => {
  it(
    'writes every answer however large the read limits make it, each file equal to the API answer it stands for, ' +
      'and never the inverse side of a relation',
    async () => {
      // One author's page, populated with all its articles as `populate=*` does, is past these bounds: an
      // export that reads through them fails ("answer is too large").
      const p = makeProject({ withExampleDocuments: true, config: { read: { maxResponseBytes: 3000, maxRows: 40 } } });
      try {
        const out = join(p.dir, 'public');
        const r = await runFolio(['export', '--out', out, '--dir', p.dir]);
        expect(r.stderr).not.toContain('too large');
        expect(r.code).toBe(0);
        const api = join(out, 'api');
        const files = filesUnder(api);
        expect(r.stderr).toContain(`exported ${files.length} files`);
        // The server answers with the usual bounds, to compare every file with it.
        writeFileSync(join(p.contentDir, 'folio.json'), JSON.stringify(FIXTURE_CONFIG));
        const s = await startTestServer({ dir: p.dir });
        try {
          for (const file of files) {
            const live = await s.api(urlOf(file));
            expect(live.status, file).toBe(200);
            expect(JSON.parse(readFileSync(join(api, file), 'utf8')), file).toEqual(live.body);
          }
        } finally {
          await s.stop();
        }
        const authors = JSON.parse(readFileSync(join(api, 'authors', 'index.json'), 'utf8'));
        expect(authors.data.length).toBeGreaterThan(0);
        for (const a of authors.data) expect(a).not.toHaveProperty('articles');
        const articles = JSON.parse(readFileSync(join(api, 'articles', 'index.json'), 'utf8'));
        expect(articles.data.some((a: { author: unknown }) => a.author !== null)).toBe(true);
        expect(files.filter((f) => /^articles\/[a-z0-9]{24}\.json$/.test(f)).length).toBe(
          articles.meta.pagination.total,
        );
      } finally {
        p.cleanup();
      }
    },
    60_000,
  );

  it('writes every page when lists are not counted (rest.withCount false)', async () => {
    const p = makeProject({ withExampleDocuments: true, config: { rest: { defaultLimit: 4, withCount: false } } });
    try {
      const out = join(p.dir, 'public');
      expect((await runFolio(['export', '--out', out, '--dir', p.dir])).code).toBe(0);
      const docs = filesUnder(join(out, 'api', 'articles')).filter((f) => /^[a-z0-9]{24}\.json$/.test(f));
      const pages = readdirSync(join(out, 'api', 'articles', 'page'));
      expect(docs.length).toBeGreaterThan(8);
      // Full pages, then the one that shows the list is over (possibly empty).
      expect(pages.length).toBe(Math.floor(docs.length / 4) + 1);
      const listed = pages.flatMap(
        (f) => JSON.parse(readFileSync(join(out, 'api', 'articles', 'page', f), 'utf8')).data as unknown[],
      );
      expect(listed.length).toBe(docs.length);
    } finally {
      p.cleanup();
    }
  });

  it('replaces the previous export whole: a deleted document leaves it; what a stopped export left goes', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const out = join(p.dir, 'public');
      expect((await runFolio(['export', '--out', out, '--dir', p.dir])).code).toBe(0);
      const [gone] = readdirSync(join(p.contentDir, 'documents', 'tags'));
      expect(existsSync(join(out, 'api', 'tags', gone))).toBe(true);
      rmSync(join(p.contentDir, 'documents', 'tags', gone));
      writeFileSync(join(out, 'site.html'), '<!doctype html>');
      // Left by an export whose process is gone (no process has this id).
      mkdirSync(join(out, '.folio-tmp-export-99999999', 'articles'), { recursive: true });
      expect((await runFolio(['export', '--out', out, '--dir', p.dir])).code).toBe(0);
      expect(existsSync(join(out, 'api', 'tags', gone))).toBe(false);
      expect(readdirSync(out).sort()).toEqual(['api', 'site.html']);
    } finally {
      p.cleanup();
    }
  });
});
