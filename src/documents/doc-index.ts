import type { ContentType, RelationAttribute } from '../schema/types.js';
import { isRelation, isOwningSide } from '../schema/types.js';
import { type DocumentRecord, NO_LOCALE, type Status, type Version, versions } from './model.js';

/** Which versions a read sees: `locale` null on non-localized types, `'*'` for every locale. */
export interface VersionPick { status: Status; locale: string | null }

interface TypeIndex {
  ct: ContentType;
  /** By documentId; holds `loaded` only once looked up (see `docsOf`). */
  docs: Map<string, DocumentRecord>;
  /**
   * Documents indexed at start (`add`), in order. A Map of 100,000 documentIds took 20 to 35 ms to fill on
   * the way to a first start's first answer, which reads rows by id and never looks a documentId up, so
   * they go into `docs` when one is first looked up; and relations are linked from here, as `unlinked`.
   */
  loaded: DocumentRecord[];
  /** How many of `loaded` are in `docs`, and how many had their relations linked (or were found linked). */
  mapped: number;
  linked: number;
  ids: IdTable;
  nextId: number;
  /** Rows per (status, locale), sorted by id, rebuilt lazily after a write. */
  rows: Map<string, Version[]>;
  /** For each owning relation attribute: target documentId -> source documentIds. */
  reverse: Map<string, Map<string, Set<string>>>;
  /**
   * Documents put (not loaded) not decoded yet, whose relations are not in `reverse` yet (their
   * `lazy.linkPending` is set), as some in `loaded`: linking them would decode them all at start.
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
  /**
   * Per id below `dense`: 0 for none, else 2 * (locale's number + 1) + (1 if published). Typed and grown
   * by doubling: with `claim`, filling 200,000 ids took a third to a half of the time it took as numbers
   * pushed one by one (a microbenchmark, 6 to 16 ms against 20 to 48).
   */
  private tags = new Uint32Array(64);
  private readonly locales = new Map<string | null, number>();
  /** The last locale numbered, and its number: versions come in runs of one locale. */
  private lastLocale: string | null | undefined;
  private lastNumber = 0;
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

  private tag(v: Version): number {
    if (v.locale !== this.lastLocale) {
      let n = this.locales.get(v.locale);
      if (n === undefined) this.locales.set(v.locale, (n = this.locales.size));
      this.lastLocale = v.locale;
      this.lastNumber = n;
    }
    return 2 * (this.lastNumber + 1) + (v.status === 'published' ? 1 : 0);
  }

  /** Makes room in `array` and `tags` for `id` (below `dense`). */
  private reach(id: number) {
    // Grown by pushes, so the array stays packed whatever order ids come in.
    while (this.array.length <= id) this.array.push(undefined);
    if (this.tags.length <= id) {
      const tags = new Uint32Array(Math.max(id + 1, 2 * this.tags.length));
      tags.set(this.tags);
      this.tags = tags;
    }
  }

  /** Sets `id` to `v` unless it is taken; answers whether it was free. */
  claim(id: number, v: Version): boolean {
    if (id >= this.dense) {
      if (this.map.has(id)) return false;
      this.size++;
      this.map.set(id, v);
      return true;
    }
    if (id < this.array.length) {
      if (this.array[id] !== undefined) return false;
    } else this.reach(id);
    this.size++;
    this.array[id] = v;
    this.tags[id] = this.tag(v);
    return true;
  }

  set(id: number, v: Version) {
    if (id < this.dense) {
      this.reach(id);
      if (this.array[id] === undefined) this.size++;
      this.array[id] = v;
      this.tags[id] = this.tag(v);
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
    this.types.set(ct.uid, { ct, docs: new Map(), loaded: [], mapped: 0, linked: 0, ids: new IdTable(), nextId: 1, rows: new Map(), reverse, unlinked: [] });
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

  /** The type's documents by documentId, with those loaded since the last look-up put in first. */
  private docsOf(t: TypeIndex): Map<string, DocumentRecord> {
    const { docs, loaded } = t;
    if (t.mapped < loaded.length) {
      for (let i = t.mapped; i < loaded.length; i++) {
        const size = docs.size;
        docs.set(loaded[i].documentId, loaded[i]);
        if (docs.size === size) throw new Error(`document ${loaded[i].documentId} indexed twice`);
      }
      t.mapped = loaded.length;
      // Without owning relations there is nothing to link later.
      if (!t.reverse.size) t.linked = loaded.length;
      this.settle(t);
    }
    return docs;
  }

  /** Lets go of `loaded` once every document in it is mapped and linked. */
  private settle(t: TypeIndex) {
    if (t.mapped === t.loaded.length && t.linked === t.loaded.length) {
      t.loaded = [];
      t.mapped = t.linked = 0;
    }
  }

  has(uid: string) { return this.types.has(uid); }
  get(uid: string, documentId: string) { return this.docsOf(this.t(uid)).get(documentId); }
  documents(uid: string): IterableIterator<DocumentRecord> { return this.docsOf(this.t(uid)).values(); }
  count(uid: string) {
    const t = this.t(uid);
    return t.docs.size + t.loaded.length - t.mapped;
  }
  byId(uid: string, id: number) { return this.t(uid).ids.get(id); }

  allocateId(uid: string): number {
    return this.t(uid).nextId++;
  }

  /** Adds or replaces a document. Versions whose id is missing or already taken get a fresh id. */
  put(doc: DocumentRecord) {
    const t = this.t(doc.uid);
    const docs = this.docsOf(t);
    const old = docs.get(doc.documentId);
    if (old) this.unlink(t, old);
    docs.set(doc.documentId, doc);
    this.insert(t, doc, false);
  }

  /**
   * Adds a document while the index is filled at start, each documentId once (checked when a documentId
   * is first looked up): as `put`, without looking for one to replace.
   */
  add(doc: DocumentRecord) {
    const t = this.t(doc.uid);
    t.loaded.push(doc);
    this.insert(t, doc, true);
  }

  /** `loaded`: `doc` is the last of `t.loaded`, where `referrers` finds it if its relations wait to be linked. */
  private insert(t: TypeIndex, doc: DocumentRecord, loaded: boolean) {
    // The ids the document holds first, then fresh ones for those it lacks or that are taken: a fresh id
    // is past every id seen, this document's own included.
    let renumber = false;
    doc.slots.forEach((slot) => {
      if (slot.draft && !this.keepId(t, slot.draft, doc, loaded)) renumber = true;
      if (slot.published && !this.keepId(t, slot.published, doc, loaded)) renumber = true;
    });
    if (renumber) {
      const fresh = (v: Version | undefined) => { if (v && v.id <= 0) t.ids.set((v.id = t.nextId++), v); };
      doc.slots.forEach((slot) => { fresh(slot.draft); fresh(slot.published); });
    }
    if (doc.lazy && !doc.lazy.loaded && t.reverse.size) {
      doc.lazy.linkPending = true;
      if (!loaded) t.unlinked.push(doc);
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
  private keepId(t: TypeIndex, v: Version, doc: DocumentRecord, loaded: boolean): boolean {
    const id = v.id;
    if (loaded) {
      // A document added at start replaces none, so any holder is another version.
      if (id > 0 && t.ids.claim(id, v)) {
        if (id >= t.nextId) t.nextId = id + 1;
        return true;
      }
      v.id = 0;
      return false;
    }
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
    const docs = this.docsOf(t);
    const old = docs.get(documentId);
    if (!old) return;
    this.unlink(t, old);
    docs.delete(documentId);
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
    const linkPending = (doc: DocumentRecord) => {
      if (!doc.lazy?.linkPending) return;
      doc.lazy.linkPending = false;
      this.link(t, doc);
    };
    if (t.linked < t.loaded.length) {
      for (let i = t.linked; i < t.loaded.length; i++) linkPending(t.loaded[i]);
      t.linked = t.loaded.length;
      this.settle(t);
    }
    if (t.unlinked.length) {
      for (const doc of t.unlinked) linkPending(doc);
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
      for (const doc of this.docsOf(t).values()) {
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
