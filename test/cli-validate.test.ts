import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** The CLI in this process (see helpers/cli.ts): what is checked is the report it prints and its status. */
const folio = (args: string[]) => runFolio(args);

describe('folio validate', () => {
  it('passes a clean tree and reports one line per problem in a seeded one, exiting 1', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      const clean = await folio(['validate', '--dir', p.dir]);
      expect(clean.stdout).toBe('');
      expect(clean.code).toBe(0);
      expect(clean.stderr).toMatch(/^ok: \d+ documents/);

      const dir = (plural: string) => join(p.contentDir, 'documents', plural);
      const first = (plural: string) =>
        readdirSync(dir(plural))
          .filter((f) => f.endsWith('.json'))
          .sort();
      type Fields = Record<string, unknown>;
      const edit = (
        plural: string,
        file: string,
        fn: (d: { published: Fields; locales: Record<string, { published: Fields }> }) => void,
      ) => {
        const path = join(dir(plural), file);
        const doc = JSON.parse(readFileSync(path, 'utf8'));
        fn(doc);
        writeFileSync(path, JSON.stringify(doc, null, 2));
      };
      const [a1, a2, a3] = first('authors');
      const [c1, c2] = first('categories');
      const [art1] = first('articles');
      writeFileSync(join(dir('tags'), 'brokenjsonfile0000000000.json'), '{ "documentId": ');
      edit('authors', a1, (d) => {
        d.published.nickname = 'x';
      });
      edit('authors', a2, (d) => {
        d.published.email = 'not-an-email';
      });
      edit('authors', a3, (d) => {
        d.published.id = JSON.parse(readFileSync(join(dir('authors'), a2), 'utf8')).published.id;
      });
      edit('categories', c2, (d) => {
        d.published.name = JSON.parse(readFileSync(join(dir('categories'), c1), 'utf8')).published.name;
      });
      edit('articles', art1, (d) => {
        d.locales.en.published.author = 'nosuchauthor000000000000';
        d.locales.en.published.cover = 'nosuchfile00000000000000';
        d.locales.en.published.title = null;
      });
      const stray = join(dir('tags'), '.folio-tmp-x.json.123');
      writeFileSync(stray, '{');
      const old = new Date(Date.now() - 10_000);
      utimesSync(stray, old, old);

      const r = await folio(['validate', '--dir', p.dir]);
      expect(r.code).toBe(1);
      const lines = r.stdout.trim().split('\n');
      const expectLine = (pattern: RegExp) =>
        expect(
          lines.some((l) => pattern.test(l)),
          `no line matches ${pattern}:\n${r.stdout}`,
        ).toBe(true);
      expectLine(/documents\/tags\/brokenjsonfile0000000000\.json: \d+:\d+: invalid JSON: /);
      expectLine(
        new RegExp(`documents/authors/${a1}: published\\.nickname: is not an attribute of api::author\\.author`),
      );
      expectLine(new RegExp(`documents/authors/${a2}: published\\.email: email must be a valid email`));
      // An id used twice is a notice (every process numbers it alike), on standard error.
      expect(r.stderr).toMatch(
        new RegExp(`notice: content/documents/authors/${a3}: published\\.id: id \\d+ is also used by`),
      );
      expectLine(new RegExp(`documents/categories/${c2}: published\\.name: .* is not unique`));
      expectLine(
        new RegExp(
          `documents/articles/${art1}: locales\\.en\\.published\\.author: ` +
            'points at author "nosuchauthor000000000000", which does not exist',
        ),
      );
      expectLine(
        new RegExp(
          `documents/articles/${art1}: locales\\.en\\.published\\.cover: uses media file "nosuchfile00000000000000"`,
        ),
      );
      expectLine(
        new RegExp(`documents/articles/${art1}: locales\\.en\\.published\\.title: title must be a \`string\` type`),
      );
      expect(r.stdout).not.toContain('.folio-tmp-');
      const json = JSON.parse((await folio(['validate', '--json', '--dir', p.dir])).stdout);
      expect(json.ok).toBe(false);
      expect(json.problems.length).toBe(lines.length);
    } finally {
      p.cleanup();
    }
  });
});
