import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_CONFIG, makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { openForValidation } from '../src/validate/open.js';
import { validateProject } from '../src/validate/validate.js';

type Fields = Record<string, unknown>;
type Body = { published: Fields; locales: Record<string, { published: Fields; draft?: Fields }> };

/** Seeds a problem of each kind validate finds into the example documents; answers the files it edited. */
function seed(contentDir: string) {
  const dir = (plural: string) => join(contentDir, 'documents', plural);
  const files = (plural: string) => readdirSync(dir(plural)).sort();
  const edit = (plural: string, file: string, fn: (d: Body) => void) => {
    const path = join(dir(plural), file);
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    fn(doc);
    writeFileSync(path, JSON.stringify(doc, null, 2));
  };
  const [a1, a2, a3] = files('authors');
  const [c1, c2] = files('categories');
  const [art1, art2, art3] = files('articles');
  writeFileSync(join(dir('tags'), 'brokenjsonfile0000000000.json'), '{ "documentId": ');
  edit('authors', a1, (d) => {
    d.published.id = -3;
    d.published.email = 'not-an-email';
  });
  edit('authors', a2, (d) => {
    d.published.name = null;
  });
  edit('authors', a3, (d) => {
    d.published.avatar = 42;
  });
  edit('categories', c2, (d) => {
    d.published.name = JSON.parse(readFileSync(join(dir('categories'), c1), 'utf8')).published.name;
  });
  edit('articles', art1, (d) => {
    d.locales.en.published.author = 'nosuchauthor000000000000';
    d.locales.en.published.cover = 'nosuchfile00000000000000';
    d.locales.en.published.title = null;
  });
  edit('articles', art2, (d) => {
    d.locales.en.published.rating = 'lots';
    d.locales.en.published.tags = 'brokenjsonfile0000000000';
  });
  edit('articles', art3, (d) => {
    d.locales.de = d.locales.en;
  });
}

/** `folio validate`'s report of the seeded example, as it was when every file was read twice. */
const at = (file: string, problem: string) => `content/documents/${file}.json: ${problem}`;
const EXPECTED: string[] = [
  at('tags/brokenjsonfile0000000000', '1:17: invalid JSON: expected a value'),
  at('tags/brokenjsonfile0000000000', '1:17: invalid JSON: expected "}"'),
  at(
    'articles/a0fe9ymlqsgkts25r1t67vp6',
    'locales.en.published.title: title must be a `string` type, but the ' + 'final value was: `null`.',
  ),
  at(
    'articles/a0fe9ymlqsgkts25r1t67vp6',
    'locales.en.published.cover: uses media file ' + '"nosuchfile00000000000000", which is not in the library',
  ),
  at(
    'articles/a0fe9ymlqsgkts25r1t67vp6',
    'locales.en.published.author: points at author ' + '"nosuchauthor000000000000", which does not exist',
  ),
  at('articles/ae8r40xy3wfrrnwq5tpnkfht', 'locales.en.published.tags: tags must be a list of documentIds'),
  at(
    'articles/ae8r40xy3wfrrnwq5tpnkfht',
    'locales.en.published.rating: rating must be a `number` type, but the ' +
      'final value was: `NaN` (cast from the value `"lots"`).',
  ),
  at(
    'articles/ae8r40xy3wfrrnwq5tpnkfht',
    'locales.en.published.tags: points at tag "brokenjsonfile0000000000", ' + 'whose file has problems (listed for it)',
  ),
  at('articles/av9ec7sk6zbhqjs4krbydwtl', 'locales.de: locale "de" is not configured in folio.json'),
  at('authors/a5vj85iact7xrd9fivbq8ckt', 'published.id: id must be a positive integer, not -3'),
  at('authors/a5vj85iact7xrd9fivbq8ckt', 'published.email: email must be a valid email'),
  at(
    'authors/cddem1qxta88ct8ds5om84kl',
    'published.name: name must be a `string` type, but the final value ' + 'was: `null`.',
  ),
  at('authors/eg52ev4x4asfi09n9nse3g6q', 'published.avatar: avatar must be a media file id'),
  at('authors/eg52ev4x4asfi09n9nse3g6q', 'published.avatar: uses media file 42, which is not in the library'),
  at(
    'categories/k40px0dyatosfd7zcl3x2axr',
    'published.name: "News" is not unique: ' + 'content/documents/categories/ggznjg80gtl48wue8hn5jpjb.json has it too',
  ),
];

describe('folio validate reads each file once', () => {
  it('reports the same lines whether folders are read one file at a time or on reader threads', async () => {
    const p = makeProject({ withExampleDocuments: true });
    try {
      seed(p.contentDir);
      const serial = await runFolio(['validate', '--dir', p.dir]);
      expect(serial.code).toBe(1);
      expect(serial.stdout.trim().split('\n')).toEqual(EXPECTED);
      writeFileSync(
        join(p.contentDir, 'folio.json'),
        JSON.stringify({ ...FIXTURE_CONFIG, server: { readThreadsFrom: 1 } }),
      );
      const threads = await runFolio(['validate', '--dir', p.dir]);
      expect(threads.stdout).toBe(serial.stdout);
      expect(threads.code).toBe(1);
    } finally {
      p.cleanup();
    }
  });

  it('checks what the load read: files removed once the project is open change nothing', async () => {
    const p = makeProject({ withExampleDocuments: true, config: { server: { readThreadsFrom: 1 } } });
    try {
      seed(p.contentDir);
      const { project, bodies } = await openForValidation(p.dir);
      for (const ct of project.schemas.contentTypes.values())
        for (const doc of project.documents.index.documents(ct.uid))
          rmSync(join(p.contentDir, 'documents', ct.pluralName, `${doc.documentId}.json`));
      const lines = validateProject(project, undefined, bodies).map(
        (x) => `${x.file}: ${x.path ? `${x.path}: ` : ''}${x.message}`,
      );
      expect(lines).toEqual(EXPECTED);
    } finally {
      p.cleanup();
    }
  });
});
