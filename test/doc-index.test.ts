import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadSchemas } from '../src/schema/registry.js';
import { DocumentIndex, type UndecodedHook, renumberedId } from '../src/documents/doc-index.js';
import { type DocumentRecord, type Version, SlotMap } from '../src/documents/model.js';
import { REPO } from './helpers/project.js';

/**
 * The index keeps versions by id in an array with a status/locale number beside each (ids past its
 * dense range in a Map), and lists rows by walking it: the lists must be those of a plain sort.
 */
const schemas = loadSchemas(join(REPO, 'content'));
const article = [...schemas.contentTypes.values()].find((ct) => ct.pluralName === 'articles')!;
const ts = '2025-01-01T00:00:00.000Z';

function doc(n: number, slots: Array<[string, number, number]>): DocumentRecord {
  const documentId = `d${n}`;
  const map = new SlotMap();
  const version = (id: number, locale: string, status: 'draft' | 'published'): Version => ({
    id,
    documentId,
    locale,
    status,
    createdAt: ts,
    updatedAt: ts,
    publishedAt: status === 'draft' ? null : ts,
    data: {},
  });
  for (const [locale, draft, published] of slots) {
    map.set(locale, {
      draft: version(draft, locale, 'draft'),
      ...(published ? { published: version(published, locale, 'published') } : {}),
    });
  }
  return { uid: article.uid, documentId, slots: map };
}

/** An index holding only the article type. */
/** Documents marked as not decoded yet (as from a snapshot), with their link mark: the start path's hook. */
const undecoded = new Map<DocumentRecord, boolean>();
const undecodedHook: UndecodedHook = {
  undecoded: (d) => undecoded.has(d),
  linkPending: (d) => undecoded.get(d) === true,
  setLinkPending: (d, pending) => {
    if (undecoded.has(d)) undecoded.set(d, pending);
  },
  decode: (d) => undecoded.delete(d),
};

function articleIndex(): DocumentIndex {
  const index = new DocumentIndex();
  index.undecoded = undecodedHook;
  index.addType(article);
  return index;
}

describe('rows in id order', () => {
  it.each(['put', 'add'] as const)(
    'across the array and the Map, by status and locale, after deletes and replacements (%s)',
    (how) => {
      const index = articleIndex();
      const all: Array<{ id: number; locale: string; status: string; documentId: string }> = [];
      // Ids on both sides of the array's default range (65,536), given in a scrambled order.
      const order = Array.from({ length: 36_000 }, (_, i) => (i * 7919) % 36_000);
      for (const i of order) {
        const base = 2 * i + 1 + (i % 2 ? 0 : 1000);
        const d = doc(
          i,
          i % 3
            ? [['en', base, base + 1]]
            : [
                ['en', base, 0],
                ['fr', base + 100_000, base + 100_001],
              ],
        );
        index[how](d);
      }
      expect(index.count(article.uid)).toBe(36_000);
      index.remove(article.uid, 'd4');
      index.put(doc(9, [['fr', 5, 6]]));
      for (const d of index.documents(article.uid)) {
        d.slots.forEach((slot, locale) => {
          for (const v of [slot.draft, slot.published])
            if (v) all.push({ id: v.id, locale, status: v.status, documentId: d.documentId });
        });
      }
      for (const [status, locale] of [
        ['published', 'en'],
        ['draft', 'fr'],
        ['published', '*'],
        ['draft', 'de'],
      ] as const) {
        const expected = all
          .filter((v) => v.status === status && (locale === '*' || v.locale === locale))
          .sort((a, b) => a.id - b.id);
        const rows = index.rows(article.uid, { status, locale }).slice();
        const got = rows.map((v) => [v.id, v.documentId]);
        const want = expected.map((v) => [v.id, v.documentId]);
        // The matcher's deep comparison of tens of thousands of rows is slow: it runs only when they differ.
        if (!isDeepStrictEqual(got, want)) expect(got, `${status} ${locale}`).toEqual(want);
        if (locale === 'de') expect(rows).toEqual([]);
        else expect(rows.length).toBeGreaterThan(1000);
      }
      expect(all.some((v) => v.id >= 65_536)).toBe(true);
      expect(index.byId(article.uid, 5)?.documentId).toBe('d9');
      // The removed document's ids and the replaced one's old ids (one of them in the Map) are free again.
      for (const id of [1009, 1010, 19, 100_019, 100_020])
        expect(index.byId(article.uid, id), String(id)).toBeUndefined();
      expect(index.byId(article.uid, 101_025)?.documentId).toBe('d12');
    },
  );

  it('keeps every id reachable when the array range widens after ids went to the Map', () => {
    const index = articleIndex();
    index.put(doc(1, [['en', 70_000, 70_001]]));
    index.put(doc(2, [['en', 3, 4]]));
    index.expect(article.uid, 20_000);
    index.put(doc(3, [['en', 5, 6]]));
    expect(index.byId(article.uid, 70_001)?.documentId).toBe('d1');
    expect(
      index
        .rows(article.uid, { status: 'published', locale: 'en' })
        .slice()
        .map((v) => v.id),
    ).toEqual([4, 6, 70_001]);
    index.remove(article.uid, 'd1');
    expect(index.byId(article.uid, 70_000)).toBeUndefined();
    expect(
      index
        .rows(article.uid, { status: 'draft', locale: 'en' })
        .slice()
        .map((v) => v.id),
    ).toEqual([3, 5]);
  });
});

describe('ids that clash', () => {
  const view = (index: DocumentIndex, status: 'draft' | 'published') =>
    index
      .rows(article.uid, { status, locale: '*' })
      .slice()
      .map((v) => `${v.documentId}/${v.locale}/${v.status}#${v.id}`);

  it('are renumbered without losing a version, whether added at load or put', () => {
    // d2's en draft clashes with d1's: d1 comes first, so d2's gets an id of its own, from its documentId,
    // locale and status alone. d3's draft has none. d4's two versions hold the same id: the draft keeps it.
    const docs = () => [
      doc(1, [['en', 3, 4]]),
      doc(2, [
        ['en', 3, 5],
        ['fr', 6, 0],
      ]),
      doc(3, [['en', 0, 7]]),
      doc(4, [['en', 10, 10]]),
    ];
    const own = (documentId: string, locale: string, status: 'draft' | 'published') =>
      [renumberedId({ documentId, locale, status }), `${documentId}/${locale}/${status}`] as const;
    const inOrder = (list: Array<readonly [number, string]>) =>
      [...list].sort((a, b) => a[0] - b[0]).map(([id, name]) => `${name}#${id}`);
    // In any order, added at load or put: the same ids.
    for (const order of [
      [0, 1, 2, 3],
      [3, 2, 1, 0],
      [1, 3, 0, 2],
    ])
      for (const how of ['add', 'put'] as const) {
        const index = articleIndex();
        const list = docs();
        if (how === 'add')
          for (const d of [...list].sort((a, b) => (a.documentId < b.documentId ? -1 : 1))) index.add(d);
        else for (const i of order) index.put(list[i]);
        expect(view(index, 'draft'), how).toEqual(
          inOrder([
            [3, 'd1/en/draft'],
            [6, 'd2/fr/draft'],
            [10, 'd4/en/draft'],
            own('d2', 'en', 'draft'),
            own('d3', 'en', 'draft'),
          ]),
        );
        expect(view(index, 'published'), how).toEqual(
          inOrder([
            [4, 'd1/en/published'],
            [5, 'd2/en/published'],
            [7, 'd3/en/published'],
            own('d4', 'en', 'published'),
          ]),
        );
        expect(index.byId(article.uid, 7)?.status).toBe('published');
        expect(index.isRenumbered(article.uid, index.byId(article.uid, own('d2', 'en', 'draft')[0])!)).toBe(true);
      }
  });

  it('give a renumbered version its own id back when the version that kept it goes', () => {
    const index = articleIndex();
    index.put(doc(2, [['en', 3, 4]]));
    index.put(doc(1, [['en', 3, 5]]));
    // d1 comes first: d2's draft gave 3 up.
    expect(index.byId(article.uid, 3)?.documentId).toBe('d1');
    expect(index.byId(article.uid, renumberedId({ documentId: 'd2', locale: 'en', status: 'draft' }))).toBeDefined();
    index.remove(article.uid, 'd1');
    expect(index.byId(article.uid, 3)?.documentId).toBe('d2');
    expect(index.renumberedVersions(article.uid)).toEqual([]);
    expect(view(index, 'draft')).toEqual(['d2/en/draft#3']);
  });

  it('keep their ids when a document is put again with new version objects', () => {
    const index = articleIndex();
    index.put(doc(1, [['en', 3, 4]]));
    index.put(doc(1, [['en', 3, 4]]));
    expect(view(index, 'draft')).toEqual(['d1/en/draft#3']);
    expect(view(index, 'published')).toEqual(['d1/en/published#4']);
  });

  it('refuse a documentId added twice at load, when documents are first looked up', () => {
    const index = articleIndex();
    index.add(doc(2, [['en', 1, 2]]));
    index.add(doc(2, [['en', 10, 11]]));
    expect(() => index.get(article.uid, 'd2')).toThrow('document d2 indexed twice');
    // Once: the first one stays, and look-ups go on.
    expect(index.get(article.uid, 'd2')?.slots.get('en')?.draft?.id).toBe(1);
  });
});

describe('documents added at load', () => {
  /** A document not decoded yet (as from a snapshot) whose draft points at author `author`. */
  const lazy = (n: number, author: string): DocumentRecord => {
    const d = doc(n, [['en', 2 * n + 1, 2 * n + 2]]);
    d.slots.get('en')!.draft!.data = { author };
    undecoded.set(d, false);
    return d;
  };

  it('are counted, found, replaced and removed before and after the first look-up', () => {
    const index = articleIndex();
    for (let n = 1; n <= 5; n++) index.add(doc(n, [['en', 2 * n + 1, 2 * n + 2]]));
    expect(index.count(article.uid)).toBe(5);
    index.remove(article.uid, 'd2');
    expect(index.count(article.uid)).toBe(4);
    index.add(doc(6, [['en', 13, 14]]));
    expect(index.count(article.uid)).toBe(5);
    expect([...index.documents(article.uid)].map((d) => d.documentId)).toEqual(['d1', 'd3', 'd4', 'd5', 'd6']);
    index.put(doc(3, [['en', 7, 8]]));
    expect(index.get(article.uid, 'd6')?.documentId).toBe('d6');
    expect(index.count(article.uid)).toBe(5);
    expect(
      index
        .rows(article.uid, { status: 'draft', locale: 'en' })
        .slice()
        .map((v) => v.id),
    ).toEqual([3, 7, 9, 11, 13]);
  });

  it('have their relations linked when first asked for, unless removed before', () => {
    const index = articleIndex();
    index.add(lazy(1, 'a1'));
    index.add(lazy(2, 'a1'));
    index.add(lazy(3, 'a2'));
    index.remove(article.uid, 'd2');
    expect([...index.referrers(article.uid, 'author', 'a1')]).toEqual(['d1']);
    // Added after the first link: linked on the next ask, as one put is.
    index.add(lazy(4, 'a2'));
    index.put(lazy(5, 'a2'));
    expect([...index.referrers(article.uid, 'author', 'a2')].sort()).toEqual(['d3', 'd4', 'd5']);
  });
});

describe('documents indexed by their summary alone', () => {
  const table = ['en', 'fr'];
  /**
   * Documents `n` with the given [locale position, draft id, published id] triples, as summaries and as
   * a source that makes them (lazy, like those read on threads) and counts what it made.
   */
  function summaries(list: Array<[number, number[]]>) {
    const summary: number[] = [];
    const at: number[] = [];
    const made: string[] = [];
    const byPlace = new Map<number, [number, number[]]>();
    for (const entry of list) {
      at.push(summary.length);
      byPlace.set(summary.length, entry);
      summary.push(...entry[1]);
    }
    const source = {
      make(place: number): DocumentRecord {
        const [n, triples] = byPlace.get(place)!;
        const slots: Array<[string, number, number]> = [];
        for (let i = 0; i < triples.length; i += 3)
          slots.push([table[triples[i]], triples[i + 1], triples[i + 2] < 0 ? 0 : triples[i + 2]]);
        const d = doc(n, slots);
        d.slots.get(table[triples[0]])!.draft!.data = { author: `a${n % 2}` };
        undecoded.set(d, false);
        made.push(d.documentId);
        return d;
      },
    };
    const addAll = (index: DocumentIndex) =>
      list.forEach((entry, k) =>
        index.addSummary(article.uid, source, at[k], summary, at[k], at[k] + entry[1].length, table),
      );
    return { addAll, made };
  }

  it('are listed by id without being made, and a page makes only its own documents', () => {
    const index = articleIndex();
    index.expect(article.uid, 1000);
    // Ids scrambled against the load order, as documentIds are against ids.
    const list: Array<[number, number[]]> = Array.from({ length: 1000 }, (_, n) => {
      const base = 2 * ((n * 389) % 1000) + 1;
      return [n, n % 4 ? [0, base, base + 1] : [0, base, -1, 1, base + 2000, base + 2001]];
    });
    const { addAll, made } = summaries(list);
    addAll(index);
    expect(index.count(article.uid)).toBe(1000);
    const published = index.rows(article.uid, { status: 'published', locale: 'en' });
    const drafts = index.rows(article.uid, { status: 'draft', locale: '*' });
    expect([published.length, drafts.length]).toEqual([750, 1250]);
    expect(made).toEqual([]);
    const page = published.slice(25, 50);
    expect(made.length).toBe(25);
    const expected = list
      .filter(([n]) => n % 4)
      .map(([n, t]) => ({ id: t[2], documentId: `d${n}` }))
      .sort((a, b) => a.id - b.id);
    expect(page.map((v) => ({ id: v.id, documentId: v.documentId }))).toEqual(expected.slice(25, 50));
    expect(page.every((v) => v.status === 'published' && v.locale === 'en')).toBe(true);
    // By id: the document holding it is made, once.
    expect(index.byId(article.uid, list[8][1][4])?.documentId).toBe('d8');
    expect(index.byId(article.uid, list[8][1][4])?.locale).toBe('fr');
    expect(made.filter((id) => id === 'd8')).toEqual(['d8']);
    // A warm-up makes them a slice at a time.
    expect(index.makeWaiting(article.uid, 100)).toBe(1000 - 126);
    expect(made.length).toBe(126);
    // A look-up by documentId makes the rest, in load order.
    expect(index.get(article.uid, 'd999')?.documentId).toBe('d999');
    expect(made.length).toBe(1000);
    expect([...index.documents(article.uid)].map((d) => d.documentId)).toEqual(list.map(([n]) => `d${n}`));
    expect(drafts.slice().map((v) => v.id)).toEqual(
      index
        .rows(article.uid, { status: 'draft', locale: '*' })
        .slice()
        .map((v) => v.id),
    );
    // Once every document is made, the rows are the versions themselves, not ids made into them on each read.
    expect(Array.isArray(index.rows(article.uid, { status: 'draft', locale: '*' }))).toBe(true);
  });

  it('are made at once, and renumbered as by `add`, when their ids are not all their own', () => {
    const index = articleIndex();
    index.add(doc(1, [['en', 3, 4]]));
    // d2 clashes with d1 on 3; d3 holds 7 twice; d4 has a version without an id (0); d5's ids are past the
    // array's range. Each is made as it is added, the versions that give an id up renumbered; d6 waits.
    const { addAll, made } = summaries([
      [2, [0, 3, 5]],
      [3, [0, 7, 7]],
      [4, [0, 0, 9]],
      [5, [0, 70_000, 70_001]],
      [6, [0, 11, 12]],
    ]);
    addAll(index);
    expect(made).toEqual(['d2', 'd3', 'd4', 'd5']);
    const view = (status: 'draft' | 'published') =>
      index
        .rows(article.uid, { status, locale: 'en' })
        .slice()
        .map((v) => `${v.documentId}#${v.id}`);
    const own = (documentId: string, status: 'draft' | 'published') =>
      [renumberedId({ documentId, locale: 'en', status }), documentId] as const;
    const inOrder = (list: Array<readonly [number, string]>) =>
      [...list].sort((a, b) => a[0] - b[0]).map(([id, name]) => `${name}#${id}`);
    expect(view('draft')).toEqual(
      inOrder([[3, 'd1'], own('d2', 'draft'), [7, 'd3'], own('d4', 'draft'), [11, 'd6'], [70_000, 'd5']]),
    );
    expect(view('published')).toEqual(
      inOrder([[4, 'd1'], [5, 'd2'], own('d3', 'published'), [9, 'd4'], [12, 'd6'], [70_001, 'd5']]),
    );
    expect(made).toEqual(['d2', 'd3', 'd4', 'd5', 'd6']);
  });

  it('make at once a summary naming a locale twice, which leaves no id without its version', () => {
    const index = articleIndex();
    // Made as a document keeps it (its last slot for the locale, as JSON.parse keeps the last key).
    const { addAll, made } = summaries([[1, [0, 1, 2, 0, 3, 4]]]);
    addAll(index);
    expect(made).toEqual(['d1']);
    expect(
      index
        .rows(article.uid, { status: 'draft', locale: '*' })
        .slice()
        .map((v) => v.id),
    ).toEqual([3]);
    expect(index.byId(article.uid, 1)).toBeUndefined();
  });

  it('can be removed, replaced and linked while still waiting', () => {
    const index = articleIndex();
    const { addAll, made } = summaries([
      [1, [0, 1, 2]],
      [2, [0, 3, 4]],
      [3, [0, 5, 6]],
    ]);
    addAll(index);
    index.remove(article.uid, 'd2');
    index.put(doc(3, [['en', 5, 8]]));
    expect(
      index
        .rows(article.uid, { status: 'published', locale: 'en' })
        .slice()
        .map((v) => `${v.documentId}#${v.id}`),
    ).toEqual(['d1#2', 'd3#8']);
    expect(index.byId(article.uid, 4)).toBeUndefined();
    expect(index.byId(article.uid, 6)).toBeUndefined();
    expect(index.count(article.uid)).toBe(2);
    expect(made).toEqual(['d1', 'd2', 'd3']);
    // Made lazily, their relations are linked when first asked for (d3 was replaced by one with none).
    const more = summaries([
      [7, [0, 20, 21]],
      [8, [0, 22, 23]],
    ]);
    more.addAll(index);
    expect(more.made).toEqual([]);
    expect([...index.referrers(article.uid, 'author', 'a1')].sort()).toEqual(['d1', 'd7']);
    expect([...index.referrers(article.uid, 'author', 'a0')].sort()).toEqual(['d8']);
    expect(more.made).toEqual(['d7', 'd8']);
  });
});
