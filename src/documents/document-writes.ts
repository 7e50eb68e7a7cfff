import { AsyncLocalStorage } from 'node:async_hooks';
import { FolioError, notFound } from '../errors.js';
import type { ContentType } from '../schema/types.js';
import { type DiskStamp, type Store, StaleFileError } from '../store/store.js';
import { parseDocumentText } from '../store/document-text.js';
import { KeyedLock } from '../store/atomic.js';
import { decodeDocument, encodeDocument } from './file-format.js';
import type { DocumentIndex } from './doc-index.js';
import type { IndexedTexts } from './indexed-texts.js';
import { type DocumentRecord, type Slot, SlotMap, copyVersion, versions } from './model.js';
import type { EventBus } from './events.js';
import { type WriteNote, type WrittenFile, subjectOf } from './write-record.js';

/** The write rules a document file's values must pass to be served: a message when they do not. */
export type ValuesCheck = (ct: ContentType, body: Record<string, unknown>) => string | undefined;

/**
 * The persistence of document files: one write at a time per document (and under the project's write lock
 * shared with other processes), optimistic stamps on every file a write read, all-or-nothing commits of
 * the documents one write touched, and fresh numeric ids.
 */
export class DocumentWrites {
  /** Per document: this process's writes and re-indexings of it, one after the other. */
  readonly lock = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly index: DocumentIndex,
    private readonly typeOf: (uid: string) => ContentType,
    private readonly checkValues: ValuesCheck,
    /**
     * The text each indexed document was taken from: writes of different documents may rewrite one other document
     * side by side, so its file can hold a newer text than its indexed copy.
     */
    private readonly texts: IndexedTexts,
    /** Told of each write, with the files it changed (`EventBus.onWrite`). */
    private readonly events?: EventBus,
  ) {}

  /** Resolves when every write that was accepted has reached the disk. */
  idle(): Promise<void> {
    return this.lock.idle();
  }

  /**
   * Runs one write of a document: after this process's other writes of it, holding the project's write
   * lock (shared with every other process), and again from the files if one changed under it.
   */
  writing<T>(ct: ContentType, documentId: string, fn: () => Promise<T>): Promise<T> {
    return this.run(`${ct.uid}/${documentId}`, fn);
  }

  /** Says, from inside a write, who makes it and what it does: for the record of the files it changes. */
  describe(note: WriteNote) {
    const reads = this.reads.getStore();
    if (reads) reads.note = note;
  }

  /**
   * Runs one write of any number of documents (a change of the project's locales) as `writing` runs one: under
   * the project's write lock, and again from the files if one changed under it.
   */
  writingAll<T>(fn: () => Promise<T>): Promise<T> {
    return this.run('*', fn);
  }

  private run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const once = () => this.reads.run(new Map(), fn);
    const attempt = () => (this.store.exclusive ? this.store.exclusive(once) : once());
    return this.lock.run(key, async () => {
      // A write may look up any document and its links: large types are made ready first, a slice at a time,
      // rather than all at once on the event loop (see DocumentIndex.prepared).
      await this.index.whenPrepared();
      let contended: string | undefined;
      for (let tries = 1; ; tries++) {
        try {
          return await (contended === undefined ? attempt() : this.retries.run(contended, attempt));
        } catch (err) {
          // Another write of this process, or an editor, changed a file this one read: start again from it.
          if (!(err instanceof StaleFileError)) throw err;
          if (tries >= 10) {
            const file = err.file.split(/[\\/]/).slice(-3).join('/');
            const message = `${file} kept changing while this write was made; nothing was written`;
            throw new FolioError(409, 'ApplicationError', `${message}, try again`, {});
          }
          contended = err.file;
          await new Promise((r) => setTimeout(r, Math.random() * 5 * tries));
        }
      }
    });
  }

  /** Records, for the write in progress, that the file of a new document must not exist when it is written. */
  expectAbsent(ct: ContentType, documentId: string) {
    this.reads.getStore()?.set(`${ct.pluralName}/${documentId}`, null);
  }

  /**
   * The document as its file holds it now (read under the write lock): indexed again first when another
   * process or an editor changed it, so a write never starts from a stale copy. Undefined when it is gone.
   */
  current(ct: ContentType, documentId: string): DocumentRecord | undefined {
    const indexed = this.index.get(ct.uid, documentId);
    if (!this.store.readCurrent) return indexed;
    const disk = this.store.readCurrent(ct.pluralName, documentId);
    this.reads.getStore()?.set(`${ct.pluralName}/${documentId}`, disk?.stamp ?? null);
    if (!disk) {
      if (indexed) this.index.remove(ct.uid, documentId);
      return undefined;
    }
    // The indexed copy is what the file holds only if it was taken from the very text on disk now.
    if (indexed && this.texts.holds(indexed, disk.text)) return indexed;
    const refuse = (why: string) =>
      new FolioError(
        409,
        'ApplicationError',
        `The file of ${ct.singularName} ${documentId} ${why}; fix it before writing to it`,
        {},
      );
    let doc: DocumentRecord;
    try {
      const body = parseDocumentText(disk.text, documentId);
      // Writing over values the API would refuse would write them back: the file is left for its author to fix.
      const invalid = this.checkValues(ct, body);
      if (invalid) throw refuse(`holds values a write would refuse (${invalid})`);
      doc = decodeDocument(ct, documentId, body);
    } catch (err) {
      if (err instanceof FolioError) throw err;
      throw refuse(`cannot be read (${(err as Error).message})`);
    }
    this.index.put(doc);
    return doc;
  }

  /** A working copy of another document that this write modifies, kept once per write. */
  touch(ct: ContentType, documentId: string, touched: Map<string, DocumentRecord>): DocumentRecord {
    const d = this.touchIfThere(ct, documentId, touched);
    if (!d) throw notFound();
    return d;
  }

  /** `touch`, or undefined when the document is gone (removed by another write while this one paused). */
  touchIfThere(ct: ContentType, documentId: string, touched: Map<string, DocumentRecord>): DocumentRecord | undefined {
    const key = `${ct.uid}/${documentId}`;
    let d = touched.get(key);
    if (!d) {
      const current = this.current(ct, documentId);
      if (!current) return undefined;
      d = cloneDocument(current);
      touched.set(key, d);
    }
    return d;
  }

  /**
   * Persists the document and every other document the write touched (and removes `gone`, a document deleted
   * entirely) as one operation: all of it reaches the disk, or none of it does; indexed once all of it did.
   */
  async commit(
    ct: ContentType | undefined,
    doc: DocumentRecord | undefined,
    touched: Map<string, DocumentRecord>,
    gone?: { ct: ContentType; documentId: string },
  ) {
    const docs: DocumentRecord[] = ct && doc ? [doc] : [];
    // A self-relation puts the document itself among the touched ones: it is written once.
    for (const d of touched.values()) if (d !== doc) docs.push(d);
    await this.commitAll(docs, gone ? [gone] : []);
  }

  /** Persists `docs` and removes the documents `gone` as one operation, as `commit` does. */
  async commitAll(docs: DocumentRecord[], gone: Array<{ ct: ContentType; documentId: string }>) {
    const typed = docs.map((d) => [this.typeOf(d.uid), d] as const);
    const planned = [
      ...typed.map(([t, d]) => ({ pluralName: t.pluralName, documentId: d.documentId })),
      ...gone.map((g) => ({ pluralName: g.ct.pluralName, documentId: g.documentId })),
    ].map((p) => ({ ...p, expect: this.expectedOf(p.pluralName, p.documentId) }));
    const written: Array<{ text: string; digest: string }> = [];
    const run = async () => {
      for (const [i, [t, d]] of typed.entries()) written.push(await this.persist(t, d, planned[i].expect));
      for (const [i, g] of gone.entries())
        await this.store.remove(g.ct.pluralName, g.documentId, planned[typed.length + i].expect);
    };
    await (this.store.writing ? this.store.writing(planned, run) : run());
    const note = this.reads.getStore()?.note;
    // Named by the document written (the first), or the one deleted: looked up before it leaves the index.
    const [main, named] = typed.length ? [typed[0][0], typed[0][1]] : gone.length ? [gone[0].ct, undefined] : [];
    const id = typed.length ? typed[0][1].documentId : gone[0]?.documentId;
    const subject =
      note?.subject ??
      (note && main && id ? subjectOf(main, named ?? this.index.get(main.uid, id), id, note.locale) : undefined);
    for (const [i, [, d]] of typed.entries()) {
      this.texts.took(d, written[i].digest);
      this.index.put(d);
    }
    for (const g of gone) this.index.remove(g.ct.uid, g.documentId);
    if (!this.events?.followsWrites || !subject || !note) return;
    const files: WrittenFile[] = [
      ...typed.map(([t, d], i) => ({ file: this.store.fileOf(t.pluralName, d.documentId), text: written[i].text })),
      ...gone.map((g) => ({ file: this.store.fileOf(g.ct.pluralName, g.documentId), text: null })),
    ];
    this.events.wrote({ actor: note.actor, subject, action: note.action, locale: note.locale, files });
  }

  /** Writes one document's file (its new versions get their ids first); resolves with its text and digest. */
  private persist(
    ct: ContentType,
    doc: DocumentRecord,
    expect: DiskStamp | null | undefined,
  ): Promise<{ text: string; digest: string }> {
    // New versions get their ids before the file is written, so the file holds them; so do versions
    // renumbered in memory after an id clash, which leaves this document's file clean.
    for (const v of versions(doc)) if (v.id === 0 || this.index.isRenumbered(ct.uid, v)) v.id = this.issueId(ct);
    return this.store.write(ct.pluralName, doc.documentId, encodeDocument(ct, doc), expect);
  }

  /**
   * A fresh numeric id, past every id this process has seen and every id another process handed out
   * for the type (recorded under the write lock, so two processes creating at once never share one).
   */
  private issueId(ct: ContentType): number {
    const floor = (this.store.lastIssuedId?.(ct.pluralName) ?? 0) + 1;
    const id = this.index.allocateId(ct.uid, floor);
    this.store.recordIssuedId?.(ct.pluralName, id);
    return id;
  }

  /**
   * Per write in progress (several run side by side, on different documents): the stamps of the files it
   * read (null: absent), checked before each is replaced.
   */
  private readonly reads = new AsyncLocalStorage<Map<string, DiskStamp | null> & { note?: WriteNote }>();

  /** The stamp a file must still have when the write in progress replaces it (undefined: not read, no check). */
  private expectedOf(pluralName: string, documentId: string): DiskStamp | null | undefined {
    const stamps = this.reads.getStore();
    const key = `${pluralName}/${documentId}`;
    const stamp = stamps?.get(key);
    // Written once now: a second write of it in the same operation follows this one.
    stamps?.delete(key);
    return stamp;
  }

  /**
   * Writes started again because a file changed under them, one at a time per file: many writes of
   * different documents rewriting one other document would otherwise keep spoiling each other's tries.
   */
  private readonly retries = new KeyedLock();
}

/**
 * The working copies of one write, one per document, starting with the document written: a relation of a
 * type to itself may name that document on its other side, which must then edit this same copy.
 */
export function workingSet(doc: DocumentRecord): Map<string, DocumentRecord> {
  return new Map([[`${doc.uid}/${doc.documentId}`, doc]]);
}

export function cloneDocument(doc: DocumentRecord): DocumentRecord {
  const slots = new SlotMap();
  for (const [code, slot] of doc.slots) {
    const copy: Slot = {};
    if (slot.draft) copy.draft = copyVersion(slot.draft, { data: structuredClone(slot.draft.data) });
    if (slot.published) copy.published = copyVersion(slot.published, { data: structuredClone(slot.published.data) });
    slots.set(code, copy);
  }
  return { uid: doc.uid, documentId: doc.documentId, slots };
}
