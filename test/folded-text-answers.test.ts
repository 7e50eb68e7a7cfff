import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { makeProject } from './helpers/project.js';
import { fromIndexes, scanned, served } from './helpers/indexed-reads.js';
import { articleVersion } from './helpers/article-files.js';

/**
 * The case-insensitive text filters (`$containsi`, `$startsWithi`, `$endsWithi`, read from the folded texts of the
 * query indexes; `$eqi`, `$nei`, `$notContainsi`, read row by row) answer as a plain reading of the documents,
 * before and after every kind of change: writes through the service, hand edits and removals of files, locales and
 * drafts. Titles are chosen where folding is not one character for one ("İ" folds to two), where it is not undone
 * ("ß" is not "ss"), with accents, with a NUL character (the separator of the folded texts) and with a needle found
 * several times in a title; ids sit on both sides of the 4,096-id boundaries the folded texts are cut at.
 */

const TS = '2025-01-01T00:00:00.000Z';
const documentId = (i: number) => `folded${String(i).padStart(18, '0')}`;

/** Each document: its title per locale, and the ids of its draft and published versions (no published: a draft). */
const DOCUMENTS: Array<{ en: string | null; fr?: string; ids: [draft: number, published?: number] }> = [
  { en: 'İstanbul guide', fr: 'Guide d’İstanbul', ids: [1, 2] },
  { en: 'Straße nach Köln', ids: [3] },
  { en: 'STRASSE of the ß', ids: [4, 5] },
  { en: 'Café Élan', fr: 'Café', ids: [4094, 4095] },
  { en: 'cafe elan', ids: [4096, 4097] },
  { en: 'banana band', fr: 'Ananas', ids: [4095 + 4096, 4096 + 4096] },
  // Its published id is also the draft's of the document above (as a merge of two branches can leave them): one
  // of the two is renumbered in memory, far past the others.
  { en: 'ab\u0000ba', ids: [8190, 8191] },
  { en: 'ΟΔΟΣ ΣΟΦΙΑΣ', ids: [12000] },
  { en: null, ids: [12286, 12287] },
];

/** The needles each operator is tried with: folded texts unlike the plain ones, needles found twice in a title. */
const NEEDLES = [
  'ΟΔΟΣ Σ',
  'İstanbul',
  'ISTANBUL',
  'i̇',
  'straße',
  'STRASSE',
  'ß',
  'É',
  'café',
  'CAFE',
  'an',
  'AB',
  'ba',
  'a',
  // The separator of the folded texts, and nothing.
  '\u0000',
  'b\u0000B',
  '',
];
const OPERATORS = ['$containsi', '$startsWithi', '$endsWithi', '$eqi', '$nei', '$notContainsi'];
const ROWS = [{}, { status: 'draft' }, { locale: 'fr' }, { locale: 'fr', status: 'draft' }];
// In id order (no sort asked), and sorted.
const SORTS = [[], ['title:desc', 'id:asc']];
const INDEXED = new Set(['$containsi', '$startsWithi', '$endsWithi']);

function version(id: number, title: string | null, published: boolean) {
  return articleVersion(id, { title, views: id % 7 }, TS, published);
}

/** Writes document `i` in Folio's file format, as a checkout brings it (fr ids far past the en ones). */
function writeDocument(contentDir: string, i: number) {
  const dir = join(contentDir, 'documents', 'articles');
  mkdirSync(dir, { recursive: true });
  const d = DOCUMENTS[i];
  const slot = (title: string | null, shift: number) => {
    const [draft, published] = d.ids;
    const s: Record<string, unknown> = { draft: version(draft + shift, title, false) };
    if (published !== undefined) s.published = version(published + shift, title, true);
    return s;
  };
  const locales: Record<string, unknown> = { en: slot(d.en, 0) };
  if (d.fr) locales.fr = slot(d.fr, 20_000);
  const doc = { documentId: documentId(i), locales };
  writeFileSync(join(dir, `${doc.documentId}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}

describe('case-insensitive text filters, from the folded texts and row by row', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    DOCUMENTS.forEach((_d, i) => writeDocument(made.contentDir, i));
    project = await openProject(made.dir);
  });
  afterAll(() => made.cleanup());

  const titles = (query: Record<string, unknown>) => {
    const { ids } = scanned(project, 'articles', query);
    const index = project.documents.index;
    return ids.map((id) => index.byId(project.schemas.find('articles')!.uid, id)!.data.title);
  };

  /** Every operator, needle and row set: from the indexes, as the server answers, as a plain reading says. */
  async function answersAsRead() {
    for (const rows of ROWS)
      for (const sort of SORTS)
        for (const op of OPERATORS)
          for (const needle of NEEDLES) {
            const query = { ...rows, filters: { title: { [op]: needle } }, sort };
            const plain = scanned(project, 'articles', query);
            const indexed = fromIndexes(project, 'articles', query);
            if (INDEXED.has(op)) expect(indexed, `${JSON.stringify(query)} from the indexes`).toBeDefined();
            if (indexed) expect(indexed, JSON.stringify(query)).toEqual(plain);
            expect(await served(project, 'articles', query), JSON.stringify(query)).toEqual(plain);
          }
  }

  it('folds as String#toLowerCase does, on both sides', async () => {
    const find = (op: string, needle: string, rows: Record<string, unknown> = {}) =>
      titles({ ...rows, filters: { title: { [op]: needle } } });
    expect(find('$containsi', 'İSTANBUL')).toEqual(['İstanbul guide']);
    expect(find('$containsi', 'İstanbul', { locale: 'fr' })).toEqual(['Guide d’İstanbul']);
    // "i̇stanbul" (folded "İ") does not hold "istanbul".
    expect(find('$containsi', 'istanbul')).toEqual([]);
    expect(find('$startsWithi', 'straße', { status: 'draft' })).toEqual(['Straße nach Köln']);
    expect(find('$endsWithi', 'SS')).toEqual([]);
    expect(find('$endsWithi', 'ß')).toEqual(['STRASSE of the ß']);
    expect(find('$containsi', 'élan')).toEqual(['Café Élan']);
    expect(find('$startsWithi', 'CAFE')).toEqual(['cafe elan']);
    expect(find('$endsWithi', 'an')).toEqual(['Café Élan', 'cafe elan']);
    expect(find('$startsWithi', 'an', { locale: 'fr' })).toEqual(['Ananas']);
    expect(find('$endsWithi', 'AS', { locale: 'fr' })).toEqual(['Ananas']);
    expect(find('$startsWithi', 'ba')).toEqual(['banana band']);
    expect(find('$endsWithi', 'ba')).toEqual(['ab\u0000ba']);
    expect(find('$startsWithi', 'ab')).toEqual(['ab\u0000ba']);
    // Σ folds to ς at the end of a word, on both sides alike.
    expect(find('$endsWithi', 'ΣΟΦΙΑΣ', { status: 'draft' })).toEqual(['ΟΔΟΣ ΣΟΦΙΑΣ']);
    expect(find('$containsi', 'οδοσ', { status: 'draft' })).toEqual([]);
    expect(find('$eqi', 'CAFÉ', { locale: 'fr' })).toEqual(['Café']);
    // A null title holds nothing and lacks nothing, as SQL's NOT LIKE says.
    const noAccent = ['İstanbul guide', 'STRASSE of the ß', 'cafe elan', 'banana band', 'ab\u0000ba'];
    expect(find('$notContainsi', 'É')).toEqual(noAccent);
    await answersAsRead();
  });

  const fileOf = (i: number) => project.documents.store.fileOf('articles', documentId(i));
  /** Edits a document's file as an editor would, and picks the change up as the watcher does. */
  async function edit(i: number, change: (locales: Record<string, Record<string, Record<string, unknown>>>) => void) {
    const body = JSON.parse(readFileSync(fileOf(i), 'utf8'));
    change(body.locales);
    writeFileSync(fileOf(i), `${JSON.stringify(body, null, 2)}\n`);
    await project.documents.reloadDocument(project.schemas.find('articles')!, documentId(i));
  }
  const retitle = (title: string | null) => (locales: Record<string, Record<string, Record<string, unknown>>>) => {
    for (const slot of Object.values(locales)) for (const v of Object.values(slot)) v.title = title;
  };

  const WRITES: Array<[name: string, write: () => Promise<unknown>]> = [
    [
      'a draft retitled',
      () => project.documents.update('articles', documentId(0), { title: 'ISTANBUL AB' }, { status: 'draft' }),
    ],
    ['its publication', () => project.documents.publish('articles', documentId(0), {})],
    [
      'a draft title set to null',
      () => project.documents.update('articles', documentId(4), { title: null }, { status: 'draft' }),
    ],
    ['a file edited to hold the separator', () => edit(3, retitle('ba\u0000ab\u0000BA'))],
    ['a file edited to fold to longer text', () => edit(5, retitle('İİ ba İ'))],
    [
      'a new locale',
      () => project.documents.update('articles', documentId(1), { title: 'Straßenbahn' }, { locale: 'fr' }),
    ],
    ['a locale deleted', () => project.documents.delete('articles', documentId(3), { locale: 'fr' })],
    ['an unpublication', () => project.documents.unpublish('articles', documentId(6), {})],
    ['a draft discarded', () => project.documents.discardDraft('articles', documentId(2), {})],
    ['a document deleted', () => project.documents.delete('articles', documentId(5), { locale: '*' })],
    [
      'documents created past the last ids held',
      async () => {
        for (const title of ['Banane', 'ÉCLAIR', 'straße', 'an ab ba'])
          await project.documents.create('articles', { title }, { status: 'draft' });
        await project.documents.create('articles', { title: 'Ça va' });
      },
    ],
    [
      'a document brought by a checkout, with ids between the others',
      async () => {
        DOCUMENTS.push({ en: 'Añadido ab', fr: 'Banane', ids: [16000, 16001] });
        writeDocument(made.contentDir, DOCUMENTS.length - 1);
        await project.documents.reloadDocument(project.schemas.find('articles')!, documentId(DOCUMENTS.length - 1));
      },
    ],
    [
      'a file removed',
      async () => {
        rmSync(fileOf(7));
        await project.documents.reloadDocument(project.schemas.find('articles')!, documentId(7));
      },
    ],
  ];

  it.each(WRITES)('answers as a plain reading after %s', async (_name, write) => {
    await write();
    await answersAsRead();
  });

  it('finds what the writes put in', () => {
    const find = (op: string, needle: string, rows: Record<string, unknown> = {}) =>
      titles({ ...rows, filters: { title: { [op]: needle } } });
    expect(find('$startsWithi', 'istanbul')).toEqual(['ISTANBUL AB']);
    expect(find('$startsWithi', 'STRASSE', { status: 'draft' })).toEqual(['STRASSE of the ß']);
    expect(find('$containsi', 'straße', { locale: 'fr', status: 'draft' })).toEqual(['Straßenbahn']);
    expect(find('$endsWithi', 'ab', { status: 'draft' })).toEqual(['ISTANBUL AB', 'Añadido ab']);
    expect(find('$endsWithi', 'BA', { status: 'draft' })).toEqual(['ba\u0000ab\u0000BA', 'ab\u0000ba', 'an ab ba']);
  });
});
