import type { ContentType } from '../schema/types.js';
import type { IdTable } from './id-table.js';
import type { DocumentRecord, Status, Version } from './model.js';
import type { Job } from './sliced-work.js';
import type { FieldIndexes } from './field-indexes.js';

/** Which versions a read sees: `locale` null on non-localized types, `'*'` for every locale. */
export interface VersionPick {
  status: Status;
  locale: string | null;
}

/**
 * A list of rows in id order, as a query reads it: an array, or while documents wait to be made, their
 * ids, whose versions are made only for the part sliced (a first start's first page makes 25 of 100,000).
 */
export interface RowList {
  readonly length: number;
  slice(start?: number, end?: number): Version[];
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
  /** Decodes `doc`'s values now. */
  decode(doc: DocumentRecord): void;
  /**
   * Starts reading the files of `docs` (undecoded, of one type, in the order they will be decoded) on other
   * threads, so that decoding them reads none on this one; undefined when that would not pay.
   */
  fetch?(docs: DocumentRecord[]): TextFetch | undefined;
}

/** Texts of documents read ahead of their decoding (see UndecodedHook.fetch). */
export interface TextFetch {
  /** Undefined once the texts of `docs[0, n)` are in (or will not come); else a promise of more. */
  until(n: number): Promise<void> | undefined;
  /** Stops the reads. */
  close(): void;
}

/**
 * Where documents indexed by their summary alone come from (see `addSummary`): `make(place)` makes one,
 * its versions with the ids and statuses the summary gave.
 */
export interface SummarySource {
  make(place: number): DocumentRecord;
}

/** What the index keeps of one content-type. */
export interface TypeIndex {
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
  /** The ids of the same rows (by row set key, see DocumentIndex.rowSet), cached the same way. */
  rowIds: Map<string, Int32Array>;
  /** For each owning relation attribute: target documentId -> source documentIds. */
  reverse: Map<string, Map<string, Set<string>>>;
  /**
   * Documents put (not loaded) and not decoded yet whose relations are not in `reverse` yet (marked
   * through `undecoded`; loaded ones are found in `loaded`): linking them would decode them all
   * at start. `referrers` links them first.
   */
  unlinked: DocumentRecord[];
  /**
   * Whether every document indexed was decoded (see `DocumentIndex.prepared`); `decodedEpoch` moves on each
   * time one that is not is indexed, and `preparing` is the job decoding them.
   */
  decoded: boolean;
  decodedEpoch: number;
  preparing: Job | undefined;
  /** The job filling the documentId map (see DocumentIndex.mapping). */
  mapping?: Job;
  /** The query indexes (sorted orders, columns, inverse links), once a query asked for them. */
  fields?: FieldIndexes;
}
