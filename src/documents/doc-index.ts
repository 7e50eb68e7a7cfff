import type { DocumentRecord, Version } from './model.js';
import { versions } from './model.js';
import type { RowList, TypeIndex, VersionPick } from './doc-index-type.js';
import { releaseId } from './doc-index-ids.js';
import { unlinkRelations } from './doc-index-links.js';
import { WaitingRows, buildRows } from './doc-index-rows.js';
import { IndexBase } from './doc-index-base.js';
import { Job, SlicedRunner, type Work } from './sliced-work.js';
import { FieldIndexes, type RowSet } from './field-indexes.js';

/**
 * Documents made between pauses while a type is prepared. While V8 marks a large heap, every 64 KB the main
 * thread allocates costs it a marking step (tens of milliseconds when the cores are busy).
 */
export const MAKE_STEP = 64;

export type { RowList, SummarySource, TextFetch, UndecodedHook, VersionPick } from './doc-index-type.js';
export type { IndexWatcher } from './doc-index-base.js';
export type { FieldSpec, IndexNeeds, RowSet } from './field-indexes.js';
export { RENUMBERED_FROM, renumberedId } from './doc-index-ids.js';
export { pickVersion } from './doc-index-rows.js';

/**
 * The in-memory index the server answers from: documents by type and documentId, versions by id,
 * ordered row lists per status/locale, and reverse relation links for the inverse side.
 */
export class DocumentIndex extends IndexBase {
  /** Runs the work too long for one turn of the event loop (preparing a large type, building its orders). */
  readonly work = new SlicedRunner();
  /** How many documents the preparation of types has decoded (see `preparing`). */
  decodedCount = 0;

  /**
   * Whether every document of the type is made, in the documentId map, decoded and linked: what reads that go
   * over the whole type (filters, sorts, inverse relations) need, and what `preparing` does a slice at a time.
   */
  prepared(uid: string): boolean {
    const t = this.t(uid);
    const { loaded } = t;
    return t.decoded && !t.waiting && t.mapped === loaded.length && t.linked === loaded.length && !t.unlinked.length;
  }

  /** The job that prepares the type (see `prepared`), or undefined when it is prepared. */
  preparing(uid: string): Job | undefined {
    if (this.prepared(uid)) return undefined;
    const t = this.t(uid);
    if (!t.preparing || t.preparing.done) t.preparing = new Job(this.prepare(t));
    return t.preparing;
  }

  /**
   * The job putting every document of the type in the documentId map (made first, not decoded), or undefined
   * when they all are: what looking a document up by documentId needs, a slice at a time.
   */
  mapping(uid: string): Job | undefined {
    const t = this.t(uid);
    if (!t.waiting && t.mapped === t.loaded.length) return undefined;
    if (!t.mapping || t.mapping.done) t.mapping = new Job(this.mapWork(t));
    return t.mapping;
  }

  private *mapWork(t: TypeIndex): Work {
    while (!this.mapSome(t, 1024)) yield;
  }

  /** Resolves once every type is prepared (see `prepared`), the work done in slices meanwhile. */
  async whenPrepared(): Promise<void> {
    for (const uid of this.types.keys()) {
      const job = this.preparing(uid);
      if (job) await this.work.wait(job);
    }
  }

  /** Resolves once the type's documentId map is filled (see `mapping`). */
  async whenMapped(uid: string): Promise<void> {
    const job = this.mapping(uid);
    if (job) await this.work.wait(job);
  }

  /** Prepares `uid` now, on this turn of the event loop (for a command, which has nothing else to answer). */
  prepareNow(uid: string) {
    if (this.prepared(uid)) return;
    const t = this.t(uid);
    // Nothing to wait for: files are read here rather than on threads whose texts it would not wait for.
    if (!t.preparing || t.preparing.done) t.preparing = new Job(this.prepare(t, false));
    t.preparing.finishNow();
  }

  private *prepare(t: TypeIndex, fetch = true): Work {
    for (;;) {
      const epoch = t.decodedEpoch;
      // Each document made lives on (about 420 bytes): a few dozen per pause, see MAKE_STEP.
      while (t.waiting) {
        this.makeWaiting(t.ct.uid, MAKE_STEP);
        yield;
      }
      while (!this.mapSome(t, 2048)) yield;
      yield* this.decodeAll(t, fetch);
      while (!this.linkSome(t, 2048)) yield;
      if (epoch === t.decodedEpoch) break;
    }
    t.decoded = true;
  }

  /**
   * Decodes every document of the type not decoded yet; their files are read on other threads ahead of
   * their turn when `fetch` and the hook can, and the job parks while the next texts are not in.
   */
  private *decodeAll(t: TypeIndex, fetch: boolean): Work {
    const hook = this.undecoded;
    if (!hook) return;
    const docs: DocumentRecord[] = [];
    let k = 0;
    for (const doc of t.docs.values()) {
      if (hook.undecoded(doc)) docs.push(doc);
      if (++k % 4096 === 0) yield;
    }
    const texts = fetch && docs.length ? hook.fetch?.(docs) : undefined;
    try {
      for (let i = 0; i < docs.length; i++) {
        const wait = texts?.until(i + 1);
        if (wait) yield wait;
        const doc = docs[i];
        // Removed or replaced meanwhile: not the index's any more.
        if (t.docs.get(doc.documentId) !== doc || !hook.undecoded(doc)) continue;
        hook.decode(doc);
        this.decodedCount++;
        yield;
      }
    } finally {
      texts?.close();
    }
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
    this.tell(doc.uid, doc.documentId, doc, old);
  }

  remove(uid: string, documentId: string) {
    const t = this.t(uid);
    const docs = this.docsOf(t);
    const old = docs.get(documentId);
    if (!old) return;
    this.unlink(t, old);
    docs.delete(documentId);
    this.changed(t);
    this.tell(uid, documentId, undefined, old);
  }

  private unlink(t: TypeIndex, doc: DocumentRecord) {
    for (const v of versions(doc)) if (t.ids.get(v.id) === v) releaseId(t, v);
    // Never linked: nothing to take out of `reverse` (and `referrers` will skip it).
    if (this.takeLinkPending(doc)) return;
    unlinkRelations(t, doc);
  }

  /** Source documentIds whose owning relation `attr` (on `uid`) points at `target` in any version. */
  referrers(uid: string, attr: string, target: string): Set<string> {
    const t = this.t(uid);
    this.linkSome(t, Infinity);
    return t.reverse.get(attr)?.get(target) ?? new Set();
  }

  /** The row set a read of `pick` sees (see `rows`), as the query indexes name it. */
  rowSet(uid: string, pick: VersionPick): RowSet {
    const ct = this.t(uid).ct;
    const status = ct.draftAndPublish ? pick.status : undefined;
    const locale = !ct.localized || pick.locale === '*' ? undefined : pick.locale;
    return { key: `${status ?? ''}|${locale === undefined ? '*' : (locale ?? '')}`, status, locale };
  }

  /** The ids of the versions a read of `rows` sees, in id order. */
  rowIds(uid: string, rows: RowSet): Int32Array {
    const t = this.t(uid);
    let ids = t.rowIds.get(rows.key);
    if (!ids) t.rowIds.set(rows.key, (ids = t.ids.idsInOrder(Infinity, rows.status, rows.locale)));
    return ids;
  }

  /** Whether a version id is one of the rows of `rows` (see `rowIds`). */
  inRowSet(uid: string, rows: RowSet): (id: number) => boolean {
    return this.t(uid).ids.matcher(rows.status, rows.locale);
  }

  /** The query indexes of a type (see field-indexes.ts), made on first use. */
  fields(uid: string): FieldIndexes {
    const t = this.t(uid);
    t.fields ??= new FieldIndexes({
      ids: t.ids,
      rowIds: (rows) => this.rowIds(uid, rows),
      allIds: () => t.ids.idsInOrder(Infinity, undefined, undefined),
      preparing: () => this.preparing(uid),
      nearLimit: t.ids.denseLimit,
    });
    return t.fields;
  }

  /**
   * The versions a read sees, in id order (Strapi's default order). Cached until the next write. While
   * documents wait to be made, a list of their ids that makes them only as they are read.
   */
  rows(uid: string, pick: VersionPick): RowList {
    const t = this.t(uid);
    const key = `${pick.status}|${pick.locale ?? ''}`;
    let rows = t.rows.get(key);
    // A list of ids made into versions as they are read, while documents waited to be made: once all are, a
    // list of the versions themselves.
    if (rows && !(rows instanceof WaitingRows && !t.waiting)) return rows;
    rows = buildRows(t, pick, () => this.docsOf(t));
    t.rows.set(key, rows);
    return rows;
  }
}
