import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSchemas } from '../src/schema/registry.js';
import { DocumentIndex } from '../src/documents/doc-index.js';
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
  const version = (id: number, locale: string, status: 'draft' | 'published'): Version =>
    ({ id, documentId, locale, status, createdAt: ts, updatedAt: ts, publishedAt: status === 'draft' ? null : ts, data: {} });
  for (const [locale, draft, published] of slots) {
    map.set(locale, { draft: version(draft, locale, 'draft'), ...(published ? { published: version(published, locale, 'published') } : {}) });
  }
  return { uid: article.uid, documentId, slots: map };
}

/** An index holding only the article type. */
function articleIndex(): DocumentIndex {
  const index = new DocumentIndex();
  index.addType(article);
  return index;
}

describe('rows in id order', () => {
  it.each(['put', 'add'] as const)('across the array and the Map, by status and locale, after deletes and replacements (%s)', (how) => {
    const index = articleIndex();
    const all: Array<{ id: number; locale: string; status: string; documentId: string }> = [];
    // Ids on both sides of the array's default range (65,536), given in a scrambled order.
    const order = Array.from({ length: 36_000 }, (_, i) => (i * 7919) % 36_000);
    for (const i of order) {
      const base = 2 * i + 1 + (i % 2 ? 0 : 1000);
      const d = doc(i, i % 3 ? [['en', base, base + 1]] : [['en', base, 0], ['fr', base + 100_000, base + 100_001]]);
      index[how](d);
    }
    expect(index.count(article.uid)).toBe(36_000);
    index.remove(article.uid, 'd4');
    index.put(doc(9, [['fr', 5, 6]]));
    for (const d of index.documents(article.uid)) {
      d.slots.forEach((slot, locale) => {
        for (const v of [slot.draft, slot.published]) if (v) all.push({ id: v.id, locale, status: v.status, documentId: d.documentId });
      });
    }
    for (const [status, locale] of [['published', 'en'], ['draft', 'fr'], ['published', '*'], ['draft', 'de']] as const) {
      const expected = all.filter((v) => v.status === status && (locale === '*' || v.locale === locale)).sort((a, b) => a.id - b.id);
      const rows = index.rows(article.uid, { status, locale });
      expect(rows.map((v) => [v.id, v.documentId]), `${status} ${locale}`).toEqual(expected.map((v) => [v.id, v.documentId]));
      if (locale === 'de') expect(rows).toEqual([]);
      else expect(rows.length).toBeGreaterThan(1000);
    }
    expect(all.some((v) => v.id >= 65_536)).toBe(true);
    expect(index.byId(article.uid, 5)?.documentId).toBe('d9');
    // The removed document's ids and the replaced one's old ids (one of them in the Map) are free again.
    for (const id of [1009, 1010, 19, 100_019, 100_020]) expect(index.byId(article.uid, id), String(id)).toBeUndefined();
    expect(index.byId(article.uid, 101_025)?.documentId).toBe('d12');
  });

  it('keeps every id reachable when the array range widens after ids went to the Map', () => {
    const index = articleIndex();
    index.put(doc(1, [['en', 70_000, 70_001]]));
    index.put(doc(2, [['en', 3, 4]]));
    index.expect(article.uid, 20_000);
    index.put(doc(3, [['en', 5, 6]]));
    expect(index.byId(article.uid, 70_001)?.documentId).toBe('d1');
    expect(index.rows(article.uid, { status: 'published', locale: 'en' }).map((v) => v.id)).toEqual([4, 6, 70_001]);
    index.remove(article.uid, 'd1');
    expect(index.byId(article.uid, 70_000)).toBeUndefined();
    expect(index.rows(article.uid, { status: 'draft', locale: 'en' }).map((v) => v.id)).toEqual([3, 5]);
  });
});

describe('ids that clash', () => {
  const view = (index: DocumentIndex, status: 'draft' | 'published') =>
    index.rows(article.uid, { status, locale: '*' }).map((v) => `${v.documentId}/${v.locale}/${v.status}#${v.id}`);

  it('are renumbered without losing a version, whether added at load or put', () => {
    // d2's en draft clashes with d1's: the fresh id it gets is past d2's own published id (5) and fr draft
    // id (6). d3's draft has none, and its published id (7) is taken by then. d4's two versions hold the same id.
    const docs = () => [doc(1, [['en', 3, 4]]), doc(2, [['en', 3, 5], ['fr', 6, 0]]), doc(3, [['en', 0, 7]]), doc(4, [['en', 10, 10]])];
    for (const how of ['add', 'put'] as const) {
      const index = articleIndex();
      for (const d of docs()) index[how](d);
      expect(view(index, 'draft'), how).toEqual(['d1/en/draft#3', 'd2/fr/draft#6', 'd2/en/draft#7', 'd3/en/draft#8', 'd4/en/draft#10']);
      expect(view(index, 'published'), how).toEqual(['d1/en/published#4', 'd2/en/published#5', 'd3/en/published#9', 'd4/en/published#11']);
      expect(index.byId(article.uid, 7)?.status).toBe('draft');
    }
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
  });
});

describe('documents added at load', () => {
  /** A document not decoded yet (as from a snapshot) whose draft points at author `author`. */
  const lazy = (n: number, author: string): DocumentRecord => {
    const d = doc(n, [['en', 2 * n + 1, 2 * n + 2]]);
    d.slots.get('en')!.draft!.data = { author };
    d.lazy = { loaded: false, load() {}, linkPending: false };
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
    expect(index.rows(article.uid, { status: 'draft', locale: 'en' }).map((v) => v.id)).toEqual([3, 7, 9, 11, 13]);
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
