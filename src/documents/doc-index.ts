import type { ContentType, RelationAttribute } from '../schema/types.js';
import { isRelation, isOwningSide } from '../schema/types.js';
import { type DocumentRecord, NO_LOCALE, type Status, type Version, versions } from './model.js';

/** Which versions a read sees: `locale` null on non-localized types, `'*'` for every locale. */
export interface VersionPick { status: Status; locale: string | null }

interface TypeIndex {
  ct: ContentType;
  docs: Map<string, DocumentRecord>;
  ids: IdTable;
  nextId: number;
  /** Rows per (status, locale), sorted by id, rebuilt lazily after a write. */
  rows: Map<string, Version[]>;
  /** For each owning relation attribute: target documentId -> source documentIds. */
  reverse: Map<string, Map<string, Set<string>>>;
  /**
   * Documents from the start-up snapshot or a reader thread, not decoded yet, whose relations are not in
   * `reverse` yet (their `lazy.linkPending` is set): linking them would decode them all at start.
   * `referrers` links them first.
   */
  unlinked: DocumentRecord[];
}

/**
 * Versions by id. Ids are almost always small and dense, and an array indexed by id costs far less to
 * fill at start than a Map of 200,000 entries; ids beyond `dense` (pasted in by hand, say) go to a Map.
 * Beside each version the array keeps a small number for its status and locale, so listing the rows
 * of one status and locale in id order reads two arrays in order instead of 200,000 objects scattered
 * over the heap (which is most of the cost of a first list request).
 */
class IdTable {
  private readonly array: Array<Version | undefined> = [];
  /** Per id below `dense`: 0 for none, else 2 * (locale's number + 1) + (1 if published). */
  private readonly tags: number[] = [];
  private readonly locales = new Map<string | null, number>();
  private readonly map = new Map<number, Version>();
  size = 0;
  /** Ids below this are kept in the array. */
  private dense = 1 << 16;

  /** Keeps ids below `limit` in the array from now on; those already in the Map move over. */
  widen(limit: number) {
    if (limit <= this.dense) return;
    const moving = [...this.map].filter(([id]) => id < limit);
    this.dense = limit;
    for (const [id, v] of moving) {
      this.map.delete(id);
      this.size--;
      this.set(id, v);
    }
  }

  get(id: number): Version | undefined {
    return id < this.dense ? this.array[id] : this.map.get(id);
  }

  private localeNumber(locale: string | null): number {
    let n = this.locales.get(locale);
    if (n === undefined) this.locales.set(locale, (n = this.locales.size));
    return n;
  }

  set(id: number, v: Version) {
    if (id < this.dense) {
      // Grown by pushes, so the arrays stay packed whatever order ids come in.
      while (this.array.length <= id) { this.array.push(undefined); this.tags.push(0); }
      if (this.array[id] === undefined) this.size++;
      this.array[id] = v;
      this.tags[id] = 2 * (this.localeNumber(v.locale) + 1) + (v.status === 'published' ? 1 : 0);
    } else {
      if (!this.map.has(id)) this.size++;
      this.map.set(id, v);
    }
  }

  delete(id: number) {
    if (id < this.dense) {
      if (this.array[id] !== undefined) { this.size--; this.array[id] = undefined; this.tags[id] = 0; }
    } else if (this.map.delete(id)) this.size--;
  }

  /**
   * Versions with ids below `until`, in id order: of `status` (undefined: either) and `locale`
   * (undefined: any).
   */
  inOrder(until: number, status: Status | undefined, locale: string | null | undefined): Version[] {
    const out: Version[] = [];
    const wantLocale = locale === undefined ? -1 : this.locales.get(locale);
    const wantPublished = status === undefined ? -1 : status === 'published' ? 1 : 0;
    const { array, tags } = this;
    const end = Math.min(until, array.length);
    if (wantLocale !== undefined) {
      for (let id = 1; id < end; id++) {
        const tag = tags[id];
        if (tag === 0) continue;
        if (wantPublished >= 0 && (tag & 1) !== wantPublished) continue;
        if (wantLocale >= 0 && (tag >> 1) - 1 !== wantLocale) continue;
        out.push(array[id]!);
      }
    }
    for (let id = Math.max(end, this.dense); id < until; id++) {
      const v = this.map.get(id);
      if (!v || (status !== undefined && v.status !== status) || (locale !== undefined && v.locale !== locale)) continue;
      out.push(v);
    }
    return out;
  }
}

/** Whether `v` is one of `doc`'s versions now. */
function isVersionOf(doc: DocumentRecord, v: Version): boolean {
  const slot = doc.slots.get(v.locale ?? NO_LOCALE);
  return !!slot && (slot.draft === v || slot.published === v);
}

/**
 * The in-memory index the server answers from: documents by type and documentId, versions by id,
 * ordered row lists per status/locale, and reverse relation links for the inverse side.
 */
export class DocumentIndex {
  private types = new Map<string, TypeIndex>();
  /** Bumped on every change; caches of query results and responses are valid for one generation. */
  generation = 0;

  addType(ct: ContentType) {
    const reverse = new Map<string, Map<string, Set<string>>>();
    for (const [name, a] of Object.entries(ct.attributes)) if (isRelation(a) && isOwningSide(a)) reverse.set(name, new Map());
    this.types.set(ct.uid, { ct, docs: new Map(), ids: new IdTable(), nextId: 1, rows: new Map(), reverse, unlinked: [] });
  }

  /** A hint before loading: about how many documents a type will hold, so their ids are kept densely. */
  expect(uid: string, documents: number) {
    // Two versions per document and locale; room for a few locales before ids spill into the Map.
    this.t(uid).ids.widen(Math.min(documents * 8, 1 << 24));
  }

  private t(uid: string): TypeIndex {
    const t = this.types.get(uid);
    if (!t) throw new Error(`Unknown content-type ${uid}`);
    return t;
  }

  has(uid: string) { return this.types.has(uid); }
  get(uid: string, documentId: string) { return this.t(uid).docs.get(documentId); }
  documents(uid: string): IterableIterator<DocumentRecord> { return this.t(uid).docs.values(); }
  count(uid: string) { return this.t(uid).docs.size; }
  byId(uid: string, id: number) { return this.t(uid).ids.get(id); }

  allocateId(uid: string): number {
    return this.t(uid).nextId++;
  }

  /** Adds or replaces a document. Versions whose id is missing or already taken get a fresh id. */
  put(doc: DocumentRecord) {
    const t = this.t(doc.uid);
    const old = t.docs.get(doc.documentId);
    if (old) this.unlink(t, old);
    t.docs.set(doc.documentId, doc);
    this.insert(t, doc);
  }

  /**
   * Adds a document while the index is filled at start, each documentId once: as `put`, without looking
   * for one to replace (that lookup was half the time `put` took on 100,000 documents).
   */
  add(doc: DocumentRecord) {
    const t = this.t(doc.uid);
    const size = t.docs.size;
    t.docs.set(doc.documentId, doc);
    if (t.docs.size === size) throw new Error(`document ${doc.documentId} indexed twice`);
    this.insert(t, doc);
  }

  private insert(t: TypeIndex, doc: DocumentRecord) {
    // The ids the document holds first, then fresh ones for those it lacks or that are taken: a fresh id
    // is past every id seen, this document's own included.
    let renumber = false;
    doc.slots.forEach((slot) => {
      if (slot.draft && !this.keepId(t, slot.draft, doc)) renumber = true;
      if (slot.published && !this.keepId(t, slot.published, doc)) renumber = true;
    });
    if (renumber) {
      const fresh = (v: Version | undefined) => { if (v && v.id <= 0) t.ids.set((v.id = t.nextId++), v); };
      doc.slots.forEach((slot) => { fresh(slot.draft); fresh(slot.published); });
    }
    if (doc.lazy && !doc.lazy.loaded && t.reverse.size) {
      doc.lazy.linkPending = true;
      t.unlinked.push(doc);
    } else this.link(t, doc);
    // Clearing a Map allocates it a new table even when empty: 100,000 of them at start.
    if (t.rows.size) t.rows.clear();
    this.generation++;
  }

  /**
   * Gives `v` its own id unless it has none or another version holds it: another document's, or another
   * of `doc`'s (a version of `doc` that `doc` no longer has is being replaced). Else sets it to 0 for a
   * fresh one and answers false.
   */
  private keepId(t: TypeIndex, v: Version, doc: DocumentRecord): boolean {
    const id = v.id;
    const holder = id > 0 ? t.ids.get(id) : undefined;
    if (id <= 0 || (holder && holder !== v && (holder.documentId !== doc.documentId || isVersionOf(doc, holder)))) {
      v.id = 0;
      return false;
    }
    if (id >= t.nextId) t.nextId = id + 1;
    t.ids.set(id, v);
    return true;
  }

  remove(uid: string, documentId: string) {
    const t = this.t(uid);
    const old = t.docs.get(documentId);
    if (!old) return;
    this.unlink(t, old);
    t.docs.delete(documentId);
    if (t.rows.size) t.rows.clear();
    this.generation++;
  }

  private unlink(t: TypeIndex, doc: DocumentRecord) {
    for (const v of versions(doc)) if (t.ids.get(v.id) === v) t.ids.delete(v.id);
    if (doc.lazy?.linkPending) {
      // Never linked: nothing to take out of `reverse` (and `referrers` will skip it).
      doc.lazy.linkPending = false;
      return;
    }
    for (const [attr, map] of t.reverse) {
      for (const target of relationTargets(doc, attr)) map.get(target)?.delete(doc.documentId);
    }
  }

  private link(t: TypeIndex, doc: DocumentRecord) {
    for (const [attr, map] of t.reverse) {
      for (const target of relationTargets(doc, attr)) {
        let set = map.get(target);
        if (!set) map.set(target, (set = new Set()));
        set.add(doc.documentId);
      }
    }
  }

  /** Source documentIds whose owning relation `attr` (on `uid`) points at `target` in any version. */
  referrers(uid: string, attr: string, target: string): Set<string> {
    const t = this.t(uid);
    if (t.unlinked.length) {
      for (const doc of t.unlinked) {
        if (!doc.lazy!.linkPending) continue;
        doc.lazy!.linkPending = false;
        this.link(t, doc);
      }
      t.unlinked.length = 0;
    }
    return t.reverse.get(attr)?.get(target) ?? new Set();
  }

  /** The versions a read sees, in id order (Strapi's default order). Cached until the next write. */
  rows(uid: string, pick: VersionPick): Version[] {
    const t = this.t(uid);
    const key = `${pick.status}|${pick.locale ?? ''}`;
    let rows = t.rows.get(key);
    if (rows) return rows;
    const everyLocale = !t.ct.localized || pick.locale === '*';
    if (t.nextId <= 2 * t.ids.size + 64) {
      // Dense ids (the usual case): walking them in order gives id order without sorting 100,000 rows.
      rows = t.ids.inOrder(t.nextId, t.ct.draftAndPublish ? pick.status : undefined, everyLocale ? undefined : pick.locale);
    } else {
      rows = [];
      for (const doc of t.docs.values()) {
        for (const [code, slot] of doc.slots) {
          if (!everyLocale && code !== pick.locale) continue;
          const v = pickVersion(t.ct, slot, pick.status);
          if (v) rows.push(v);
        }
      }
      rows.sort((a, b) => a.id - b.id);
    }
    t.rows.set(key, rows);
    return rows;
  }
}

/** Non-D&P types have one version, visible to draft and published reads alike. */
export function pickVersion(ct: ContentType, slot: { draft?: Version; published?: Version }, status: Status) {
  if (!ct.draftAndPublish) return slot.published ?? slot.draft;
  return status === 'draft' ? slot.draft : slot.published;
}

function relationTargets(doc: DocumentRecord, attr: string): string[] {
  const out: string[] = [];
  for (const v of versions(doc)) {
    const value = v.data[attr];
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) for (const x of value) if (typeof x === 'string') out.push(x);
  }
  return out;
}

export type { RelationAttribute };
