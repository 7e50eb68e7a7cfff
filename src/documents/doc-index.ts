import type { ContentType, RelationAttribute } from '../schema/types.js';
import { isRelation, isOwningSide } from '../schema/types.js';
import { IdTable, grown } from './id-table.js';
import { linkDocumentId } from './file-format.js';
import { readableSummary } from './summary.js';
import { type DocumentRecord, NO_LOCALE, type Status, type Version, versions } from './model.js';

/** Which versions a read sees: `locale` null on non-localized types, `'*'` for every locale. */
export interface VersionPick {
  status: Status;
  locale: string | null;
}

interface TypeIndex {
  ct: ContentType;
  /** By documentId; holds `loaded` only once looked up (see `docsOf`). */
  docs: Map<string, DocumentRecord>;
  /**
   * Documents indexed at start (`add`, `addSummary`), by load position; undefined while waiting to be
   * made. A first start's first answer reads rows by id and never looks a documentId up, so filling a Map
   * of every documentId waits: they go into `docs` when one is first looked up; and relations are linked
   * from here, as `unlinked`.
   */
  loaded: Array<DocumentRecord | undefined>;
  /** Per load position of a document waiting to be made: its source (in `sources`) and its place there. */
  sourceOf: Int32Array;
  placeOf: Int32Array;
  sources: SummarySource[];
  /** How many documents wait to be made, and the load position before which none does. */
  waiting: number;
  madeUpTo: number;
  /** How many of `loaded` are in `docs`, and how many had their relations linked (or were found linked). */
  mapped: number;
  linked: number;
  ids: IdTable;
  nextId: number;
  /**
   * Versions renumbered in memory because another version comes first for the id their file gives them
   * (see `place`): their id now -> their file's id; and per file id, the versions waiting for it.
   */
  renumbered: Map<number, number>;
  waitingFor: Map<number, Set<Version>>;
  /** Rows per (status, locale), sorted by id, rebuilt lazily after a write. */
  rows: Map<string, RowList>;
  /** For each owning relation attribute: target documentId -> source documentIds. */
  reverse: Map<string, Map<string, Set<string>>>;
  /**
   * Documents put (not loaded) and not decoded yet whose relations are not in `reverse` yet (marked
   * through `undecoded`; loaded ones are found in `loaded`): linking them would decode them all
   * at start. `referrers` links them first.
   */
  unlinked: DocumentRecord[];
}

/**
 * What the index must know of documents indexed before their values were decoded (see src/startup/lazy.ts):
 * their relations are linked only when first asked for, as linking them all would decode them all at start.
 */
export interface UndecodedHook {
  /** Whether `doc`'s values are still to be decoded. */
  undecoded(doc: DocumentRecord): boolean;
  /** Whether `doc`'s relations wait to be linked: a mark the index sets, kept with what decodes `doc`. */
  linkPending(doc: DocumentRecord): boolean;
  setLinkPending(doc: DocumentRecord, pending: boolean): void;
}

/**
 * Where documents indexed by their summary alone come from (see `addSummary`): `make(place)` makes one,
 * its versions with the ids and statuses the summary gave.
 */
export interface SummarySource {
  make(place: number): DocumentRecord;
}

/**
 * A list of rows in id order, as a query reads it: an array, or while documents wait to be made, their
 * ids, whose versions are made only for the part sliced (a first start's first page makes 25 of 100,000).
 */
export interface RowList {
  readonly length: number;
  slice(start?: number, end?: number): Version[];
}

class WaitingRows implements RowList {
  constructor(
    private readonly ids: Int32Array,
    private readonly table: IdTable,
  ) {}
  get length() {
    return this.ids.length;
  }
  slice(start?: number, end?: number): Version[] {
    const out: Version[] = [];
    for (const id of this.ids.subarray(start, end)) out.push(this.table.get(id)!);
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
  /** Set by the start path when it indexes documents before decoding them. */
  undecoded: UndecodedHook | undefined;

  /** Whether `doc` was indexed before its values were decoded, and they still are not. */
  isUndecoded(doc: DocumentRecord): boolean {
    return !!this.undecoded?.undecoded(doc);
  }

  /** Marks `doc`'s relations as waiting to be linked, when it is not decoded and the type has relations to link. */
  private deferLink(t: TypeIndex, doc: DocumentRecord): boolean {
    if (!t.reverse.size || !this.undecoded?.undecoded(doc)) return false;
    this.undecoded.setLinkPending(doc, true);
    return true;
  }

  /** Clears `doc`'s link mark; answers whether it was set. */
  private takeLinkPending(doc: DocumentRecord): boolean {
    if (!this.undecoded?.linkPending(doc)) return false;
    this.undecoded.setLinkPending(doc, false);
    return true;
  }

  addType(ct: ContentType) {
    const reverse = new Map<string, Map<string, Set<string>>>();
    for (const [name, a] of Object.entries(ct.attributes))
      if (isRelation(a) && isOwningSide(a)) reverse.set(name, new Map());
    const t: TypeIndex = {
      ct,
      docs: new Map(),
      loaded: [],
      mapped: 0,
      linked: 0,
      sourceOf: new Int32Array(0),
      placeOf: new Int32Array(0),
      sources: [],
      waiting: 0,
      madeUpTo: 0,
      ids: new IdTable((position) => this.make(t, position)),
      nextId: 1,
      renumbered: new Map(),
      waitingFor: new Map(),
      rows: new Map(),
      reverse,
      unlinked: [],
    };
    this.types.set(ct.uid, t);
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
        const doc = loaded[i] ?? this.make(t, i);
        if (docs.has(doc.documentId)) {
          // The first one stays; the next look-up goes on past this one.
          t.mapped = i + 1;
          throw new Error(`document ${doc.documentId} indexed twice`);
        }
        docs.set(doc.documentId, doc);
      }
      t.mapped = loaded.length;
      // Without owning relations there is nothing to link later.
      if (!t.reverse.size) t.linked = loaded.length;
      this.settle(t);
    }
    return docs;
  }

  /** Lets go of `loaded` once every document in it is mapped and linked (so made, too). */
  private settle(t: TypeIndex) {
    if (t.mapped === t.loaded.length && t.linked === t.loaded.length) {
      t.loaded = [];
      t.mapped = t.linked = t.madeUpTo = 0;
    }
  }

  /** How many documents of the type wait to be made (see `addSummary`). */
  waiting(uid: string): number {
    return this.t(uid).waiting;
  }

  /**
   * Makes up to `count` of the documents waiting to be made (see `addSummary`), in load order, so a warm-up
   * can make them a slice at a time; answers how many still wait.
   */
  makeWaiting(uid: string, count: number): number {
    const t = this.t(uid);
    let i = t.madeUpTo;
    for (; i < t.loaded.length && count > 0; i++) {
      if (t.loaded[i]) continue;
      this.make(t, i);
      count--;
    }
    t.madeUpTo = i;
    return t.waiting;
  }

  /** Makes the document waiting at load position `position`, and puts its versions in place of their ids. */
  private make(t: TypeIndex, position: number): DocumentRecord {
    const doc = t.sources[t.sourceOf[position]].make(t.placeOf[position]);
    t.loaded[position] = doc;
    if (--t.waiting === 0) {
      // The sources hold what documents were made from (a thread's block, the snapshot's entries).
      t.sources = [];
      t.sourceOf = t.placeOf = new Int32Array(0);
    }
    doc.slots.forEach((slot) => {
      if (slot.draft) t.ids.fill(slot.draft.id, slot.draft);
      if (slot.published) t.ids.fill(slot.published.id, slot.published);
    });
    if (!this.deferLink(t, doc)) this.link(t, doc);
    return doc;
  }

  has(uid: string) {
    return this.types.has(uid);
  }
  get(uid: string, documentId: string) {
    return this.docsOf(this.t(uid)).get(documentId);
  }
  documents(uid: string): IterableIterator<DocumentRecord> {
    return this.docsOf(this.t(uid)).values();
  }
  count(uid: string) {
    const t = this.t(uid);
    return t.docs.size + t.loaded.length - t.mapped;
  }
  byId(uid: string, id: number) {
    return this.t(uid).ids.get(id);
  }

  /** A fresh id for a new version: past every id indexed, and at least `floor`. */
  allocateId(uid: string, floor = 1): number {
    const t = this.t(uid);
    if (floor > t.nextId) t.nextId = floor;
    return t.nextId++;
  }

  /** Whether `v` (or the version it was copied from) holds an id other than its file's, after an id clash. */
  isRenumbered(uid: string, v: Version): boolean {
    return this.t(uid).renumbered.has(v.id);
  }

  /** The versions of a type renumbered in memory, each with the id its file gives it, in id order. */
  renumberedVersions(uid: string): Array<{ version: Version; fileId: number }> {
    const t = this.t(uid);
    return [...t.renumbered].sort(([a], [b]) => a - b).map(([id, fileId]) => ({ version: t.ids.get(id)!, fileId }));
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

  /**
   * Adds, while loading, a document known by its summary alone (`summary[from, to)`: per locale, its
   * position in `table`, then the draft's and the published version's ids, -1 for none; see summary.ts):
   * its ids are claimed now, and the document is made by `source.make(place)` when first needed: making
   * every document's objects would be most of the indexing on the way to a first start's first answer.
   * One whose ids are not all free (a clash, which renumbers) is made now and added as by `add`.
   */
  addSummary(
    uid: string,
    source: SummarySource,
    place: number,
    summary: ArrayLike<number>,
    from: number,
    to: number,
    table: string[],
  ) {
    const t = this.t(uid);
    if (!canWait(t.ids, summary, from, to, table)) {
      this.add(source.make(place));
      return;
    }
    const position = t.loaded.length;
    t.loaded.push(undefined);
    if (t.sources[t.sources.length - 1] !== source) t.sources.push(source);
    if (position >= t.sourceOf.length) {
      const size = Math.max(position + 1024, 2 * t.sourceOf.length);
      t.sourceOf = grown(t.sourceOf, size);
      t.placeOf = grown(t.placeOf, size);
    }
    t.sourceOf[position] = t.sources.length - 1;
    t.placeOf[position] = place;
    t.waiting++;
    for (let i = from; i < to; i += 3) {
      const code = table[summary[i]];
      const locale = code === NO_LOCALE ? null : code;
      const draft = summary[i + 1];
      const published = summary[i + 2];
      if (draft >= 0) t.ids.await(draft, locale, 'draft', position);
      if (published >= 0) t.ids.await(published, locale, 'published', position);
      t.nextId = Math.max(t.nextId, draft + 1, published + 1);
    }
    if (t.rows.size) t.rows.clear();
    this.generation++;
  }

  /** `loaded`: `doc` is the last of `t.loaded`, where `referrers` finds it if its relations wait to be linked. */
  private insert(t: TypeIndex, doc: DocumentRecord, loaded: boolean) {
    doc.slots.forEach((slot) => {
      if (slot.draft) this.place(t, slot.draft, doc, loaded);
      if (slot.published) this.place(t, slot.published, doc, loaded);
    });
    if (this.deferLink(t, doc)) {
      if (!loaded) t.unlinked.push(doc);
    } else this.link(t, doc);
    // Clearing a Map allocates it a new table even when empty: 100,000 of them at start.
    if (t.rows.size) t.rows.clear();
    this.generation++;
  }

  /**
   * Gives `v` the id its file gives it, unless a version that comes first (see `comesFirst`) has that id
   * in its file too: then `v` gets an id of its own (see `renumberedId`), and a version that held the id
   * but comes later gives it up. So which version has which id depends only on the files, never on the
   * order they were read or changed in: every process, and every start, numbers them alike.
   */
  private place(t: TypeIndex, v: Version, doc: DocumentRecord, loaded: boolean) {
    const id = v.id;
    if (id > 0 && Number.isSafeInteger(id)) {
      // At start most ids are free: claiming one is the whole cost.
      if (loaded && t.ids.claim(id, v)) {
        if (id >= t.nextId) t.nextId = id + 1;
        return;
      }
      const holder = t.ids.get(id);
      // A version of `doc` that `doc` no longer has is being replaced: its id is `v`'s.
      const replaced = !loaded && holder?.documentId === doc.documentId && !isVersionOf(doc, holder);
      const yields = holder && holder !== v && !replaced && (t.renumbered.has(id) || comesFirst(v, holder));
      if (!holder || holder === v || replaced || yields) {
        const fileIdOfHolder = yields ? this.release(t, holder) : undefined;
        t.ids.set(id, v);
        if (id >= t.nextId) t.nextId = id + 1;
        if (yields) this.renumber(t, holder, fileIdOfHolder!);
        return;
      }
    }
    this.renumber(t, v, id);
  }

  /** Gives `v` an id of its own, recording the one its file gives it (`fileId`, 0 or less for none). */
  private renumber(t: TypeIndex, v: Version, fileId: number) {
    let id = renumberedId(v);
    while (!t.ids.free(id)) id = id + 1 < RENUMBERED_FROM + RENUMBERED_SPAN ? id + 1 : RENUMBERED_FROM;
    v.id = id;
    t.ids.set(id, v);
    t.renumbered.set(id, fileId);
    if (fileId > 0) {
      let set = t.waitingFor.get(fileId);
      if (!set) t.waitingFor.set(fileId, (set = new Set()));
      set.add(v);
    }
  }

  /**
   * Takes `v` (which holds its id) out of the id table; answers the id its file gives it. When that id
   * is freed, the version that comes first among those renumbered for it gets it back.
   */
  private release(t: TypeIndex, v: Version): number {
    const id = v.id;
    t.ids.delete(id);
    const fileId = t.renumbered.get(id);
    if (fileId !== undefined) {
      t.renumbered.delete(id);
      const set = t.waitingFor.get(fileId);
      set?.delete(v);
      if (set && !set.size) t.waitingFor.delete(fileId);
      return fileId;
    }
    const set = t.waitingFor.get(id);
    if (set) {
      let first: Version | undefined;
      for (const w of set) if (!first || comesFirst(w, first)) first = w;
      set.delete(first!);
      if (!set.size) t.waitingFor.delete(id);
      t.ids.delete(first!.id);
      t.renumbered.delete(first!.id);
      first!.id = id;
      t.ids.set(id, first!);
    }
    return id;
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
    for (const v of versions(doc)) if (t.ids.get(v.id) === v) this.release(t, v);
    // Never linked: nothing to take out of `reverse` (and `referrers` will skip it).
    if (this.takeLinkPending(doc)) return;
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
      if (this.takeLinkPending(doc)) this.link(t, doc);
    };
    if (t.linked < t.loaded.length) {
      for (let i = t.linked; i < t.loaded.length; i++) linkPending(t.loaded[i] ?? this.make(t, i));
      t.linked = t.loaded.length;
      this.settle(t);
    }
    if (t.unlinked.length) {
      for (const doc of t.unlinked) linkPending(doc);
      t.unlinked.length = 0;
    }
    return t.reverse.get(attr)?.get(target) ?? new Set();
  }

  /**
   * The versions a read sees, in id order (Strapi's default order). Cached until the next write. While
   * documents wait to be made, a list of their ids that makes them only as they are read.
   */
  rows(uid: string, pick: VersionPick): RowList {
    const t = this.t(uid);
    const key = `${pick.status}|${pick.locale ?? ''}`;
    let rows = t.rows.get(key);
    if (rows) return rows;
    const everyLocale = !t.ct.localized || pick.locale === '*';
    if (t.nextId <= 2 * t.ids.size + 64) {
      // Dense ids (the usual case): walking them in order gives id order without sorting 100,000 rows.
      const status = t.ct.draftAndPublish ? pick.status : undefined;
      const locale = everyLocale ? undefined : pick.locale;
      rows = t.waiting
        ? new WaitingRows(t.ids.idsInOrder(t.nextId, status, locale), t.ids)
        : t.ids.inOrder(t.nextId, status, locale);
    } else {
      const list: Version[] = [];
      for (const doc of this.docsOf(t).values()) {
        for (const [code, slot] of doc.slots) {
          if (!everyLocale && code !== pick.locale) continue;
          const v = pickVersion(t.ct, slot, pick.status);
          if (v) list.push(v);
        }
      }
      rows = list.sort((a, b) => a.id - b.id);
    }
    t.rows.set(key, rows);
    return rows;
  }
}

/**
 * Ids given to versions renumbered in memory: far past the ids Folio hands out, so they never meet, and
 * below 2^31, for clients that keep ids in 32 bits.
 */
export const RENUMBERED_FROM = 1_000_000_000;
const RENUMBERED_SPAN = 1_000_000_000;

/**
 * The id a version renumbered after a clash gets: a hash of its documentId, locale and status, so it
 * depends on that version alone, and stays the same whatever else changes (unless two such hashes meet,
 * when the next free id is taken).
 */
export function renumberedId(v: { documentId: string; locale: string | null; status: Status }): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  const key = `${v.documentId}\0${v.locale ?? ''}\0${v.status}`;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return RENUMBERED_FROM + (h % RENUMBERED_SPAN);
}

/** Of two versions whose files give them the same id, the one that keeps it: by documentId, locale, then status. */
function comesFirst(a: Version, b: Version): boolean {
  if (a.documentId !== b.documentId) return a.documentId < b.documentId;
  const la = a.locale ?? '';
  const lb = b.locale ?? '';
  if (la !== lb) return la < lb;
  return a.status === 'draft' && b.status !== 'draft';
}

/** Non-D&P types have one version, visible to draft and published reads alike. */
export function pickVersion(ct: ContentType, slot: { draft?: Version; published?: Version }, status: Status) {
  if (!ct.draftAndPublish) return slot.published ?? slot.draft;
  return status === 'draft' ? slot.draft : slot.published;
}

/**
 * Whether a summary's versions can wait for their document to be made: it is readable, and each version
 * has an id of its own (not 0, not held by another version, nor twice in the document) in the id
 * table's array.
 */
function canWait(ids: IdTable, summary: ArrayLike<number>, from: number, to: number, table: string[]): boolean {
  if (!readableSummary(summary, from, to, table)) return false;
  for (let a = from; a < to; a++) {
    if ((a - from) % 3 === 0) continue;
    const id = summary[a];
    if (id < 0) continue;
    if (!Number.isInteger(id) || id === 0 || !ids.canWait(id) || !ids.free(id)) return false;
    for (let b = from + 1; b < a; b++) if ((b - from) % 3 !== 0 && summary[b] === id) return false;
  }
  return true;
}

function relationTargets(doc: DocumentRecord, attr: string): string[] {
  const out: string[] = [];
  for (const v of versions(doc)) {
    const value = v.data[attr];
    if (typeof value === 'string') out.push(linkDocumentId(value));
    else if (Array.isArray(value)) for (const x of value) if (typeof x === 'string') out.push(linkDocumentId(x));
  }
  return out;
}

export type { RelationAttribute };
