import { createHash } from 'node:crypto';
import type { ContentType } from '../schema/types.js';
import type { CapturedDocument } from './files.js';
import { parseDocumentText } from '../store/document-text.js';
import type { TextSource } from './text-arena.js';
import { decodeDocument } from '../documents/file-format.js';
import { type DocumentRecord, type Slot, type Status, type Version, NO_LOCALE, SlotMap } from '../documents/model.js';
import { readableSummary } from '../documents/summary.js';
import type { TextFetch, UndecodedHook } from '../documents/doc-index.js';

/**
 * Documents indexed from a summary (a start-up snapshot's, or a reader thread's at a first start)
 * without decoding them: the index needs only each version's id, locale and status, and makes the
 * objects below only when a document is first used (see DocumentIndex.addSummary; relations are linked
 * once decoded). Values and timestamps are decoded from the file on first use (or from the text a reader
 * thread kept; or by `warm`, in the background), into the same objects, so everything holding a version
 * keeps seeing it.
 */

/** What a document's summary is computed against: a schema change makes every summary of its type stale. */
export function typeFingerprint(ct: ContentType): string {
  const shape = {
    uid: ct.uid,
    kind: ct.kind,
    plural: ct.pluralName,
    dp: ct.draftAndPublish,
    i18n: ct.localized,
    attributes: ct.attributes,
  };
  return createHash('sha1').update(JSON.stringify(shape)).digest('base64');
}

/** What every lazily decoded document of one type shares (one object per type, not per document). */
export interface LazyContext {
  ct: ContentType;
  /** The file's current body, for when a kept text cannot be decoded. */
  reread?: (documentId: string) => Record<string, unknown> | undefined;
  /**
   * For documents indexed without their text: reads the file as it is now (undefined: gone). Throws when
   * it cannot be read or parsed.
   */
  read?: (documentId: string) => CapturedDocument | undefined;
  /** The file no longer holds the versions `doc` was indexed with: index it again from the file. */
  stale?: (doc: DocumentRecord) => void;
  /** Starts reading the files of these documents on threads (see prefetch.ts); undefined when it would not pay. */
  fetch?: (docs: DocumentRecord[]) => TextFetch | undefined;
  /** Checks a decoded body's values (see LoadOptions.check): a message when they fail. */
  check?: (body: Record<string, unknown>, documentId: string) => string | undefined;
  /** The document, indexed before it was decoded, failed `check` once it was. */
  invalid?: (doc: DocumentRecord, problem: string) => void;
}

/**
 * What a document read without its text was indexed with: `summary[from, to)` (see `summarize`),
 * positions into `table`.
 */
export interface IndexedShape {
  meta: ArrayLike<number>;
  table: string[];
}

/**
 * The text of one document, decoded into its versions on first use: read from its file then (checked
 * against the summary it was indexed with), or kept by the reader thread that read it.
 */
export class LazySource {
  private done = false;
  doc!: DocumentRecord;
  linkPending = false;
  /** The file's text as a reader thread read it ahead of the decoding (see prefetch.ts). */
  private fetched: { blob: TextSource; offset: number; length: number } | undefined;

  /**
   * The text is `blob`'s `[offset, offset + length)`; with `shape` instead, it is the file's, and the
   * document was indexed with `shape.meta[offset, offset + length)`.
   */
  constructor(
    private readonly ctx: LazyContext,
    private blob: TextSource | undefined,
    private readonly offset: number,
    private readonly length: number,
    private shape?: IndexedShape,
  ) {}

  get loaded() {
    return this.done;
  }

  get context(): LazyContext {
    return this.ctx;
  }

  /**
   * The file's text, read on another thread just now: decoded instead of reading the file (see `fromFile`).
   * Undefined: the text is let go (its buffer is about to be reused).
   */
  provide(blob: TextSource | undefined, offset = 0, length = 0) {
    this.fetched = blob && !this.done && this.shape ? { blob, offset, length } : undefined;
  }

  load() {
    if (this.done) return;
    this.done = true;
    const blob = this.blob;
    this.blob = undefined;
    const decoded = blob ? this.fromText(blob) : this.fromFile();
    this.doc.slots.forEach((slot, code) => {
      const from = decoded?.slots.get(code);
      if (slot.draft instanceof LazyVersion) slot.draft.fill(from?.draft);
      if (slot.published instanceof LazyVersion) slot.published.fill(from?.published);
    });
  }

  private fromText(blob: TextSource): DocumentRecord | undefined {
    const { ct, reread } = this.ctx;
    const documentId = this.doc.documentId;
    try {
      const body = parseDocumentText(blob.text(this.offset, this.length), documentId);
      const decoded = decodeDocument(ct, documentId, body);
      this.checkValues(body);
      return decoded;
    } catch {
      // The text was checked when it was read, so this cannot be; should it be, the file itself is
      // decoded. Failing that, empty values keep the server answering; the next start reads the file again.
      try {
        const body = reread?.(documentId);
        return body ? decodeDocument(ct, documentId, body) : undefined;
      } catch {
        return undefined;
      }
    }
  }

  /** Whether the values pass the write rules; when not, the document is reported to be taken out of the index. */
  private checkValues(body: Record<string, unknown>): boolean {
    const problem = this.ctx.check?.(body, this.doc.documentId);
    if (problem) this.ctx.invalid?.(this.doc, problem);
    return !problem;
  }

  private fromFile(): DocumentRecord | undefined {
    const { ct, read, stale } = this.ctx;
    const documentId = this.doc.documentId;
    const shape = this.shape!;
    this.shape = undefined;
    const fetched = this.fetched;
    this.fetched = undefined;
    let decoded: DocumentRecord | undefined;
    let raw: Pick<CapturedDocument, 'body'> | undefined;
    try {
      raw = fetched
        ? { body: parseDocumentText(fetched.blob.text(fetched.offset, fetched.length), documentId) }
        : read?.(documentId);
      decoded = raw && decodeDocument(ct, documentId, raw.body);
    } catch (err) {
      // Broken since it was indexed (the start-up snapshot keeps no text to fall back on): taken out and
      // reported, as a file found broken at start is, rather than served with empty values.
      this.ctx.invalid?.(this.doc, (err as Error).message);
      return undefined;
    }
    if (raw && decoded && sameShape(decoded, shape.meta, this.offset, this.offset + this.length, shape.table)) {
      this.checkValues(raw.body);
      return decoded;
    }
    // Changed since it was read at start (or gone, or broken now): the versions indexed then get what
    // the file still has, and the document is indexed again from the file, as a change on disk is (or,
    // when its values fail, taken out).
    if (raw && decoded && !this.checkValues(raw.body)) return decoded;
    stale?.(this.doc);
    return decoded;
  }
}

/** Whether a decoded document holds exactly the versions (locales, ids, statuses) `summary[from, to)` says. */
function sameShape(
  doc: DocumentRecord,
  summary: ArrayLike<number>,
  from: number,
  to: number,
  table: string[],
): boolean {
  if (doc.slots.size * 3 !== to - from) return false;
  for (let i = from; i < to; i += 3) {
    const slot = doc.slots.get(table[summary[i]]);
    if (!slot || (slot.draft?.id ?? -1) !== summary[i + 1] || (slot.published?.id ?? -1) !== summary[i + 2])
      return false;
  }
  return true;
}

/**
 * A version whose values and timestamps are decoded on first access. Writes go through the same
 * accessors, so the service can treat it as any other version. Until then it holds no object for them:
 * 200,000 of these are made on the way to a first start's first answer. Once decoded, it holds them in fields
 * of its own (not an object beside it: one object fewer per version of a large index).
 */
export class LazyVersion implements Version {
  id: number;
  locale: string | null;
  status: Status;
  /** What decodes this version's document (kept once decoded: it holds the document's link mark). */
  readonly src: LazySource;
  /** `UNFILLED` until decoded: a sentinel rather than a flag, as each field costs a million versions 8 bytes. */
  private values: Record<string, unknown> = UNFILLED;
  private created = '';
  private updated = '';
  private published: string | null = null;

  constructor(src: LazySource, id: number, locale: string | null, status: Status) {
    this.src = src;
    this.id = id;
    this.locale = locale;
    this.status = status;
  }

  /** The document's, never changed (a version of another document is another version). */
  get documentId(): string {
    return this.src.doc.documentId;
  }

  /** Takes the decoded values (undefined: the text could not be decoded). */
  fill(from: Version | undefined) {
    const epoch = from ? '' : new Date(0).toISOString();
    this.values = from?.data ?? {};
    this.created = from?.createdAt ?? epoch;
    this.updated = from?.updatedAt ?? epoch;
    this.published = this.status === 'draft' ? null : (from?.publishedAt ?? epoch);
  }

  private load() {
    if (this.values !== UNFILLED) return;
    this.src.load();
    // Still empty only when the document dropped this version before its text was decoded.
    if (this.values === UNFILLED) this.fill(undefined);
  }

  get data() {
    this.load();
    return this.values;
  }
  set data(v) {
    this.load();
    this.values = v;
  }
  get createdAt() {
    this.load();
    return this.created;
  }
  set createdAt(v) {
    this.load();
    this.created = v;
  }
  get updatedAt() {
    this.load();
    return this.updated;
  }
  set updatedAt(v) {
    this.load();
    this.updated = v;
  }
  get publishedAt() {
    this.load();
    return this.published;
  }
  set publishedAt(v) {
    this.load();
    this.published = v;
  }
}

const UNFILLED: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** A document file's text a reader thread kept: `blob[offset, offset + length)`. */
export interface KeptText {
  blob: TextSource;
  offset: number;
  length: number;
}

/**
 * A document indexed from its summary (`summary[from, to)`, the whole array by default); its versions
 * decode the file as it is when first read (checked against the summary, see LazySource), or the `kept`
 * text.
 */
export function lazyDocument(
  ctx: LazyContext,
  documentId: string,
  summary: ArrayLike<number>,
  table: string[],
  from = 0,
  to = summary.length,
  shape?: IndexedShape,
  kept?: KeptText,
): DocumentRecord {
  if (!readableSummary(summary, from, to, table)) throw new Error('malformed summary');
  // `shape`: `{ meta: summary, table }` shared by many documents (a thread's block), to spare an object each.
  const src = kept
    ? new LazySource(ctx, kept.blob, kept.offset, kept.length)
    : new LazySource(ctx, undefined, from, to - from, shape ?? { meta: summary, table });
  const doc: DocumentRecord = { uid: ctx.ct.uid, documentId, slots: new SlotMap() };
  src.doc = doc;
  for (let i = from; i < to; i += 3) {
    const code = table[summary[i]];
    const locale = code === NO_LOCALE ? null : code;
    const slot: Slot = {};
    if (summary[i + 1] >= 0) slot.draft = new LazyVersion(src, summary[i + 1], locale, 'draft');
    if (summary[i + 2] >= 0) slot.published = new LazyVersion(src, summary[i + 2], locale, 'published');
    doc.slots.set(code, slot);
  }
  return doc;
}

/** What decodes `doc`, when it was indexed before it was decoded (its versions are lazy, and know it). */
export function lazySourceOf(doc: DocumentRecord): LazySource | undefined {
  const slot = doc.slots.first();
  const v = slot && (slot.draft ?? slot.published);
  return v instanceof LazyVersion ? v.src : undefined;
}

/** The index's hook for documents indexed before they were decoded (see DocumentIndex.undecoded). */
export const undecodedHook: UndecodedHook = {
  undecoded(doc) {
    const src = lazySourceOf(doc);
    return !!src && !src.loaded;
  },
  linkPending: (doc) => !!lazySourceOf(doc)?.linkPending,
  setLinkPending(doc, pending) {
    const src = lazySourceOf(doc);
    if (src) src.linkPending = pending;
  },
  decode: (doc) => lazySourceOf(doc)?.load(),
  fetch: (docs) => lazySourceOf(docs[0])?.context.fetch?.(docs),
};
