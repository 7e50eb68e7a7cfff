import type { ContentType } from '../schema/types.js';
import { isRelation, isOwningSide } from '../schema/types.js';
import { IdTable, grown } from './id-table.js';
import { type DocumentRecord, NO_LOCALE } from './model.js';
import type { SummarySource, TypeIndex, UndecodedHook } from './doc-index-type.js';
import { canWait, placeId } from './doc-index-ids.js';
import { linkRelations } from './doc-index-links.js';

/**
 * Told of a document added, replaced (`doc` its new copy) or removed (`doc` undefined), with the copy it replaces
 * (`prev`, undefined when it is new): see `watch`.
 */
export type IndexWatcher = (
  uid: string,
  documentId: string,
  doc: DocumentRecord | undefined,
  prev: DocumentRecord | undefined,
) => void;

/**
 * How documents get into the index (see DocumentIndex): added whole, or by their summary alone and made on
 * first use; put into the documentId map, and their relations linked, only when first needed.
 */
export class IndexBase {
  protected types = new Map<string, TypeIndex>();
  /** Bumped on every change; caches of query results and responses are valid for one generation. */
  generation = 0;
  /** Set by the start path when it indexes documents before decoding them. */
  undecoded: UndecodedHook | undefined;
  private readonly watchers = new Set<IndexWatcher>();

  /** Calls `fn` each time a document is added, replaced (its new copy) or removed (undefined); returns a stop. */
  watch(fn: IndexWatcher): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  protected tell(uid: string, documentId: string, doc: DocumentRecord | undefined, prev?: DocumentRecord) {
    for (const fn of this.watchers) fn(uid, documentId, doc, prev);
  }

  /** Whether `doc` was indexed before its values were decoded, and they still are not. */
  isUndecoded(doc: DocumentRecord): boolean {
    return !!this.undecoded?.undecoded(doc);
  }

  /** Marks `doc`'s relations as waiting to be linked, when it is not decoded and the type has relations to link. */
  protected deferLink(t: TypeIndex, doc: DocumentRecord): boolean {
    if (!t.reverse.size || !this.undecoded?.undecoded(doc)) return false;
    this.undecoded.setLinkPending(doc, true);
    return true;
  }

  /** Clears `doc`'s link mark; answers whether it was set. */
  protected takeLinkPending(doc: DocumentRecord): boolean {
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
      rowIds: new Map(),
      reverse,
      unlinked: [],
      decoded: true,
      decodedEpoch: 0,
      preparing: undefined,
    };
    this.types.set(ct.uid, t);
  }

  /** A hint before loading: about how many documents a type will hold, so their ids are kept densely. */
  expect(uid: string, documents: number) {
    // Two versions per document and locale; room for a few locales before ids spill into the Map.
    this.t(uid).ids.widen(Math.min(documents * 8, 1 << 24));
  }

  protected t(uid: string): TypeIndex {
    const t = this.types.get(uid);
    if (!t) throw new Error(`Unknown content-type ${uid}`);
    return t;
  }

  /** The type's documents by documentId, with those loaded since the last look-up put in first. */
  protected docsOf(t: TypeIndex): Map<string, DocumentRecord> {
    if (t.mapped < t.loaded.length) this.mapSome(t, Infinity);
    return t.docs;
  }

  /** Puts up to `count` more of the documents loaded into `docs`; answers whether all are. */
  protected mapSome(t: TypeIndex, count: number): boolean {
    const { docs, loaded } = t;
    const end = Math.min(loaded.length, t.mapped + count);
    for (let i = t.mapped; i < end; i++) {
      const doc = loaded[i] ?? this.make(t, i);
      if (docs.has(doc.documentId)) {
        // The first one stays; the next look-up goes on past this one.
        t.mapped = i + 1;
        throw new Error(`document ${doc.documentId} indexed twice`);
      }
      docs.set(doc.documentId, doc);
    }
    t.mapped = end;
    if (end < loaded.length) return false;
    // Without owning relations there is nothing to link later.
    if (!t.reverse.size) t.linked = loaded.length;
    this.settle(t);
    return true;
  }

  /** Lets go of `loaded` once every document in it is mapped and linked (so made, too). */
  protected settle(t: TypeIndex) {
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
  protected make(t: TypeIndex, position: number): DocumentRecord {
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
    if (!this.deferLink(t, doc)) linkRelations(t, doc);
    return doc;
  }

  /**
   * Adds a document while the index is filled at start, each documentId once (checked when a documentId
   * is first looked up): as `put`, without looking for one to replace.
   */
  add(doc: DocumentRecord) {
    const t = this.t(doc.uid);
    t.loaded.push(doc);
    this.insert(t, doc, true);
    if (this.watchers.size) this.tell(doc.uid, doc.documentId, doc, undefined);
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
    this.undecodedIndexed(t);
    for (let i = from; i < to; i += 3) {
      const code = table[summary[i]];
      const locale = code === NO_LOCALE ? null : code;
      const draft = summary[i + 1];
      const published = summary[i + 2];
      if (draft >= 0) t.ids.await(draft, locale, 'draft', position);
      if (published >= 0) t.ids.await(published, locale, 'published', position);
      t.nextId = Math.max(t.nextId, draft + 1, published + 1);
    }
    this.changed(t);
  }

  /** After any change of a type: its cached row lists go, and the index moves to a new generation. */
  protected changed(t: TypeIndex) {
    // Clearing a Map allocates it a new table even when empty: 100,000 of them at start.
    if (t.rows.size) t.rows.clear();
    if (t.rowIds.size) t.rowIds.clear();
    t.fields?.changed();
    this.generation++;
  }

  /** Notes that a document not decoded yet was indexed (see `prepared`). */
  protected undecodedIndexed(t: TypeIndex) {
    t.decoded = false;
    t.decodedEpoch++;
  }

  /** `loaded`: `doc` is the last of `t.loaded`, where `referrers` finds it if its relations wait to be linked. */
  protected insert(t: TypeIndex, doc: DocumentRecord, loaded: boolean) {
    if (this.undecoded?.undecoded(doc)) this.undecodedIndexed(t);
    doc.slots.forEach((slot) => {
      if (slot.draft) placeId(t, slot.draft, doc, loaded);
      if (slot.published) placeId(t, slot.published, doc, loaded);
    });
    if (this.deferLink(t, doc)) {
      if (!loaded) t.unlinked.push(doc);
    } else linkRelations(t, doc);
    this.changed(t);
  }

  /** Links the relations of up to `count` more documents whose links wait; answers whether none waits. */
  protected linkSome(t: TypeIndex, count: number): boolean {
    const linkPending = (doc: DocumentRecord) => {
      if (this.takeLinkPending(doc)) linkRelations(t, doc);
    };
    if (t.linked < t.loaded.length) {
      const end = Math.min(t.loaded.length, t.linked + count);
      for (let i = t.linked; i < end; i++) linkPending(t.loaded[i] ?? this.make(t, i));
      count -= end - t.linked;
      t.linked = end;
      if (end < t.loaded.length) return false;
      this.settle(t);
    }
    if (t.unlinked.length) {
      const n = Math.min(t.unlinked.length, count);
      for (let i = 0; i < n; i++) linkPending(t.unlinked[i]);
      t.unlinked.splice(0, n);
    }
    return !t.unlinked.length;
  }
}
