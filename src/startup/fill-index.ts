import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { CapturedDocument, StartupFiles } from './files.js';
import type { CollectionSnapshot, Snapshot } from './snapshot.js';
import { FOLIO_VERSION } from '../version.js';
import { decodeDocument } from '../documents/file-format.js';
import type { DocumentIndex, SummarySource } from '../documents/doc-index.js';
import { type LazyContext, lazyDocument, typeFingerprint, undecodedHook } from './lazy.js';
import { readableSummary, summarize } from '../documents/summary.js';
import { CollectionCapture } from './capture.js';
import { keepLastGood } from './last-good.js';
import type { DocumentRecord } from '../documents/model.js';
import {
  BLOCK_FILES,
  type Readers,
  type ThreadBlock,
  parallelReadAvailable,
  readInWorkers,
  readersFor,
  startReaders,
} from './parallel-read.js';
import { META } from './read-block.js';
import { fetchTexts } from './prefetch.js';

export interface LoadReport {
  documents: number;
  problems: Array<{ file: string; message: string }>;
  /** How many documents were indexed from the start-up snapshot rather than read from their files. */
  fromSnapshot?: number;
}

export interface LoadOptions {
  /** Index unchanged files from the start-up snapshot instead of reading them (default true). */
  useSnapshot?: boolean;
  /** Keep what a new snapshot needs, and say whether one is worth writing (`folio serve`). */
  capture?: boolean;
  /**
   * Projects with fewer document files than this never get a snapshot written (default 20,000;
   * `server.snapshotFrom`).
   */
  snapshotFrom?: number;
  /**
   * A collection with this many files or more to read is read on reader threads, and with this many to
   * check against the snapshot has their stamps taken on worker threads (default 20,000; `server.readThreadsFrom`).
   */
  readThreadsFrom?: number;
  /**
   * A document indexed at start from a summary (a reader thread's, or the snapshot's) whose file, when it
   * came to be decoded, no longer held the versions it was indexed with: to be indexed again from its file.
   */
  onStale?: (ct: ContentType, doc: DocumentRecord) => void;
  /**
   * Checks a decoded file's values by the rules of an API write: a problem (a message) keeps the document
   * out of the index. Files read on reader threads or taken from the snapshot are checked when decoded.
   */
  check?: (ct: ContentType, body: Record<string, unknown>, documentId: string) => string | undefined;
  /**
   * A reload's memory of what was served (see DocumentService.lastGoodBody): a document file that cannot be
   * read, decoded or checked keeps that version, when it still passes, instead of leaving the API.
   */
  lastGood?: (ct: ContentType, documentId: string) => Record<string, unknown> | undefined;
  /** Whether the service's `check` is passed (default true; `folio validate` reports values itself). */
  checkValues?: boolean;
  /** A document indexed before it was decoded turned out to fail `check` when it was. */
  onInvalid?: (ct: ContentType, doc: DocumentRecord, problem: string) => void;
}

/** A snapshot ready to be built and written, and whether writing it pays (no usable one, or many files read again). */
export interface SnapshotPlan {
  build(): Promise<Snapshot>;
  worthWriting: boolean;
}

/**
 * Fills the index from the document files: files unchanged since the start-up snapshot are indexed from
 * it without being read or decoded; the others are read and decoded (large collections on reader
 * threads, indexed block by block as from a snapshot). Ids that clash (after a merge) are renumbered by
 * a rule of the files alone (see DocumentIndex.place), whatever order they are read in.
 */
export async function loadDocuments(
  index: DocumentIndex,
  schemas: SchemaRegistry,
  files: StartupFiles,
  opts: LoadOptions = {},
): Promise<{ report: LoadReport; plan?: SnapshotPlan }> {
  const report: LoadReport = { documents: 0, problems: [], fromSnapshot: 0 };
  const takenAt = Date.now();
  const types = [...schemas.contentTypes.values()];
  index.undecoded = undecodedHook;
  for (const ct of types) index.addType(ct);
  const fingerprints = new Map(types.map((ct) => [ct.uid, typeFingerprint(ct)]));
  let old = opts.useSnapshot === false ? undefined : files.readSnapshot();
  if (old && old.folioVersion !== FOLIO_VERSION) old = undefined;
  const contexts = lazyContexts(types, files, opts);
  const context = (ct: ContentType) => contexts.get(ct.uid)!;
  // Per type (aligned with `types`): its snapshot, when recorded against the same schema.
  const usable = types.map((ct) => {
    const c = old?.collections.get(ct.pluralName);
    return c && c.fingerprint === fingerprints.get(ct.uid) ? c : undefined;
  });
  // Large folders with nothing recorded are read on reader threads, started now: they take a while to
  // start, and the folder listing below gives them that while.
  // Only for a guess of a block of files or more: an empty folder's own size alone reads as a couple of hundred.
  const early = types.map((ct, i) => {
    const guess = usable[i] ? 0 : files.guessFiles(ct.pluralName);
    return guess >= Math.max(files.threadsFrom, BLOCK_FILES) && parallelReadAvailable()
      ? startReaders(files.store.contentDir, ct, readersFor(guess))
      : undefined;
  });
  // Stamping the files runs on worker threads for large folders (see scanCollection).
  const scans = types.map((ct, i) =>
    files.scanCollection(ct.pluralName, { snapshot: usable[i], takenAt: old?.takenAt }),
  );
  let scanned: Awaited<(typeof scans)[number]>[];
  try {
    scanned = await Promise.all(scans);
  } catch (err) {
    // Threads waiting for files would keep the process alive.
    for (const readers of early) readers?.close();
    throw err;
  }
  types.forEach((ct, i) => index.expect(ct.uid, scanned[i].fresh.length + scanned[i].reused.length));
  // Below the threshold no snapshot is written, so nothing is kept for one (it would only cost memory).
  const from = opts.snapshotFrom ?? 20000;
  const fileCount = scanned.reduce((n, c) => n + c.fresh.length + c.reused.length, 0);
  const capture = !!opts.capture && fileCount >= from;

  // Every collection's reads start now: large ones go on on reader threads while earlier ones are indexed.
  const reads = types.map((ct, i) => readFresh(files, ct, scanned[i].fresh, capture, early[i]));
  const captures = new Map<string, CollectionCapture>();
  let readAgain = 0;
  for (const [i, ct] of types.entries()) {
    const { fresh, reused, problems, dirMtimeMs } = scanned[i];
    report.problems.push(...problems);
    readAgain += fresh.length;
    const { documents, problems: unread } = reads[i];
    let blocks = reads[i].blocks;
    report.problems.push(...unread);
    const ctx = context(ct);
    const kept = new CollectionCapture(ct.pluralName, fingerprints.get(ct.uid)!, dirMtimeMs, takenAt);
    kept.complete = problems.length === 0 && unread.length === 0;
    if (capture) captures.set(ct.pluralName, kept);

    const fromFile = (raw: CapturedDocument) => {
      let doc: DocumentRecord;
      try {
        doc = decodeDocument(ct, raw.documentId, raw.body);
      } catch (err) {
        report.problems.push({ file: raw.file, message: (err as Error).message });
        kept.complete = false;
        return;
      }
      const problem = opts.check?.(ct, raw.body, raw.documentId);
      if (problem) {
        report.problems.push({ file: raw.file, message: problem });
        kept.complete = false;
        return;
      }
      if (capture && raw.stamp) {
        const codes = new Map<string, number>();
        const summary = summarize(doc, codes);
        kept.record({ documentId: raw.documentId, ...raw.stamp, summary }, [...codes.keys()]);
      }
      index.add(doc);
      report.documents++;
    };
    const oldTable = usable[i]?.table ?? [];
    const oldEntries = usable[i]?.entries;
    // One shape for every document the snapshot indexes (see lazyDocument), rather than an object each.
    const shape = oldEntries && { meta: oldEntries.numbers, table: oldTable };
    // Snapshot entries are indexed by their summaries too, and made when first needed (entry `p`): their
    // values are read from their files on first use.
    const recorded: SummarySource = {
      make: (p) => {
        const { ids, numbers } = oldEntries!;
        return lazyDocument(
          ctx,
          ids[p],
          numbers,
          oldTable,
          oldEntries!.summaryFrom(p),
          oldEntries!.summaryTo(p),
          shape,
        );
      },
    };
    const fromSnapshot = (p: number) => {
      const { ids, numbers } = oldEntries!;
      const from = oldEntries!.summaryFrom(p);
      const to = oldEntries!.summaryTo(p);
      if (!readableSummary(numbers, from, to, oldTable)) {
        // A summary this code cannot read (a damaged snapshot): read the file itself.
        const raw = files.readDocument(ct.pluralName, ids[p]);
        if (raw) fromFile(raw);
        return;
      }
      if (capture) kept.recordUnchanged(oldEntries!, p, oldTable);
      index.addSummary(ct.uid, recorded, p, numbers, from, to, oldTable);
      report.documents++;
      report.fromSnapshot!++;
    };
    // A block's documents are indexed by their summaries, and made when first needed (see `addSummary`):
    // with their texts if the readers kept them (see readFresh), else decoded from their files when first read.
    const sourceOf = (block: ThreadBlock): SummarySource => {
      const m = block.meta;
      return {
        make: (at) => {
          const blob = block.chunks[m[at + META.chunk]];
          return lazyDocument(
            ctx,
            block.ids[m[at + META.index]],
            m,
            block.table,
            at + META.summary,
            at + META.summary + m[at + META.count],
            block,
            blob && { blob, offset: m[at + META.offset], length: m[at + META.length] },
          );
        },
      };
    };
    let source: SummarySource | undefined;
    const fromThread = (block: ThreadBlock, at: number) => {
      const m = block.meta;
      const summary = at + META.summary;
      index.addSummary(ct.uid, source!, at, m, summary, summary + m[at + META.count], block.table);
      if (capture) kept.recordLater(block, at);
      report.documents++;
    };

    // Three runs sorted by documentId (files read here, snapshot entries, blocks read on threads): merge them.
    let d = 0;
    let s = 0;
    let block: ThreadBlock | undefined;
    let k = 0;
    for (;;) {
      if (blocks && (!block || k === block.starts.length)) {
        // The next block, when this one is used up (the readers keep going meanwhile).
        const next = await blocks.next();
        block = next.done ? undefined : next.value;
        source = block && sourceOf(block);
        if (next.done) blocks = undefined;
        k = 0;
        if (block?.problems.length) {
          report.problems.push(...block.problems);
          kept.complete = false;
        }
        if (block) continue;
      }
      const a = documents[d]?.documentId;
      const b = s < reused.length ? oldEntries!.ids[reused[s]] : undefined;
      const c = block ? block.ids[block.meta[block.starts[k] + META.index]] : undefined;
      if (a !== undefined && (b === undefined || a < b) && (c === undefined || a < c)) fromFile(documents[d++]);
      else if (b !== undefined && (c === undefined || b < c)) fromSnapshot(reused[s++]);
      else if (c !== undefined) fromThread(block!, block!.starts[k++]);
      else break;
    }
  }
  if (opts.lastGood) keepLastGood(index, schemas, files, report, opts);
  if (!capture) return { report };
  const stale = !old || usable.some((c) => !c) || readAgain > Math.max(64, report.documents * 0.02);
  const build = async (): Promise<Snapshot> => {
    const collections = new Map<string, CollectionSnapshot>();
    for (const [name, kept] of captures) collections.set(name, await kept.build(files));
    return { folioVersion: FOLIO_VERSION, takenAt, collections };
  };
  return { report, plan: { build, worthWriting: report.documents >= from && stale } };
}

/**
 * One lazy context per type, shared by its documents, which keep it for as long as they live: made here, apart
 * from `loadDocuments`, so that its closures do not keep that function's locals (the whole snapshot) alive.
 */
function lazyContexts(types: ContentType[], files: StartupFiles, opts: LoadOptions): Map<string, LazyContext> {
  return new Map(
    types.map((ct) => {
      const read = (id: string) => files.readDocument(ct.pluralName, id);
      const stale = opts.onStale && ((doc: DocumentRecord) => opts.onStale!(ct, doc));
      const check = opts.check && ((body: Record<string, unknown>, id: string) => opts.check!(ct, body, id));
      const invalid = opts.onInvalid && ((doc: DocumentRecord, problem: string) => opts.onInvalid!(ct, doc, problem));
      const reread = (id: string) => files.readDocument(ct.pluralName, id)?.body;
      // As many files as a first start reads on threads: then the threads pay for themselves.
      const fetch = (docs: DocumentRecord[]) =>
        docs.length >= files.threadsFrom && parallelReadAvailable()
          ? fetchTexts(files.store.contentDir, ct, docs)
          : undefined;
      return [ct.uid, { ct, reread, read, stale, check, invalid, fetch }];
    }),
  );
}

/**
 * Reads the files of one collection that the snapshot did not cover: on reader threads when there are
 * many (their blocks are then indexed as from a snapshot), else here.
 */
function readFresh(
  files: StartupFiles,
  ct: ContentType,
  ids: string[],
  capture: boolean,
  early?: Readers,
): { documents: CapturedDocument[]; blocks?: AsyncGenerator<ThreadBlock>; problems: LoadReport['problems'] } {
  if (ids.length && ids.length >= files.threadsFrom && parallelReadAvailable()) {
    // A server (`capture`) answers first and decodes in the background, from the files, so its threads
    // keep no texts (see read-block.ts); a command reading once decodes what it needs now, from them.
    // Names that are not documentIds are reported by the readers, so this thread does not check them
    // before the readers can start.
    // Threads not started early start when this collection's turn to be indexed comes (the generator's
    // first step): one collection at a time, however many reach the setting.
    async function* inTurn() {
      yield* readInWorkers(files.store.contentDir, ids, ct, !capture);
    }
    return { documents: [], blocks: early ? early.read(ids, !capture) : inTurn(), problems: [] };
  }
  early?.close();
  return files.readDocuments(ct.pluralName, ids, capture);
}
