import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import { type RawDocument, type Store, SAFE_ID } from '../store/store.js';
import { type CollectionSnapshot, type Snapshot, type SnapshotEntry, TICK } from '../store/snapshot.js';
import { FOLIO_VERSION } from '../version.js';
import { decodeDocument } from './codec.js';
import type { DocumentIndex } from './doc-index.js';
import { type LazyContext, lazyDocument, renumber, summarize, typeFingerprint } from './lazy.js';
import type { DocumentRecord } from './model.js';
import { type ParallelRead, PARALLEL_READ_FROM, parallelReadAvailable, readInWorkers } from './parallel-read.js';

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
  /** Projects with fewer document files than this never get a snapshot written (default 20,000; `server.snapshotFrom`). */
  snapshotFrom?: number;
}

/** A snapshot ready to be written, and whether writing it pays (no usable one, or many files read again). */
export interface SnapshotPlan { snapshot: Snapshot; worthWriting: boolean }


/**
 * Fills the index from the document files: files unchanged since the start-up snapshot are indexed from
 * it without being read or decoded; the others are read and decoded (large collections on worker
 * threads, then indexed as from a snapshot). Documents are put in documentId order, so ids that clash
 * (after a merge) are renumbered the same way on every start.
 */
export async function loadDocuments(index: DocumentIndex, schemas: SchemaRegistry, store: Store, opts: LoadOptions = {}):
  Promise<{ report: LoadReport; plan?: SnapshotPlan }> {
  const report: LoadReport = { documents: 0, problems: [], fromSnapshot: 0 };
  const takenAt = Date.now();
  const types = [...schemas.contentTypes.values()];
  for (const ct of types) index.addType(ct);
  const fingerprints = new Map(types.map((ct) => [ct.uid, typeFingerprint(ct)]));
  let old = opts.useSnapshot === false ? undefined : store.readSnapshot?.();
  if (old && old.folioVersion !== FOLIO_VERSION) old = undefined;
  // One per type, shared by its documents.
  const contexts = new Map<string, LazyContext>(types.map((ct) => [ct.uid, { ct, reread: (id: string) => store.readDocument(ct.pluralName, id)?.body }]));
  const context = (ct: ContentType) => contexts.get(ct.uid)!;
  // Per type (aligned with `types`): its snapshot, when recorded against the same schema.
  const usable = types.map((ct) => {
    const c = old?.collections.get(ct.pluralName);
    return c && c.fingerprint === fingerprints.get(ct.uid) ? c : undefined;
  });
  // Stamping the files runs on worker threads for large folders; meanwhile this thread builds the
  // documents the snapshot describes, and keeps those whose files turn out unchanged.
  const scans = types.map((ct, i) => store.scanCollection(ct.pluralName, { snapshot: usable[i], takenAt: old?.takenAt }));
  // Aligned with each collection's snapshot entries (undefined: a summary that could not be read).
  const prepared = types.map((ct, i) => {
    const c = usable[i];
    if (!c) return [];
    return c.entries.map((e) => {
      try { return lazyDocument(context(ct), e.documentId, e.summary, c.table, e.blob, e.offset, e.length); } catch { return undefined; }
    });
  });
  const scanned = await Promise.all(scans);
  // Below the threshold no snapshot is written, so nothing is kept for one (it would only cost memory).
  const from = opts.snapshotFrom ?? 20000;
  const files = scanned.reduce((n, c) => n + c.fresh.length + c.reused.length, 0);
  const capture = !!opts.capture && files >= from;

  const next = new Map<string, CollectionSnapshot>();
  let readAgain = 0;
  for (const [i, ct] of types.entries()) {
    const { fresh, reused, problems, dirMtimeMs } = scanned[i];
    report.problems.push(...problems);
    readAgain += fresh.length;
    const { documents, threaded, problems: unread } = await readFresh(store, ct, fresh, capture);
    report.problems.push(...unread);
    const entries: SnapshotEntry[] = [];
    const table = new Map<string, number>();
    // The next start may skip listing the folder only if every file in it is recorded.
    let complete = problems.length === 0 && unread.length === 0;
    /** Records an entry for the next snapshot, its summary renumbered into this collection's table. */
    const record = (entry: SnapshotEntry, codes: string[]) => {
      if (!capture) return;
      // Modified too close to the start of the reads to be trusted later (coarse file clocks): left out.
      if (entry.mtimeMs >= takenAt - TICK) { complete = false; return; }
      const summary = renumber(entry.summary, codes, table);
      entries.push(summary === entry.summary ? entry : { ...entry, summary });
    };
    const fromFile = (raw: RawDocument) => {
      let doc: DocumentRecord;
      try {
        doc = decodeDocument(ct, raw.documentId, raw.body);
      } catch (err) {
        report.problems.push({ file: raw.file, message: (err as Error).message });
        complete = false;
        return;
      }
      if (raw.kept && raw.stamp) {
        const codes = new Map<string, number>();
        const summary = summarize(doc, codes);
        const { source, offset, length } = raw.kept;
        record({ documentId: raw.documentId, ...raw.stamp, summary, blob: source, offset, length }, [...codes.keys()]);
      }
      index.put(doc);
      report.documents++;
    };
    const oldTable = usable[i]?.table ?? [];
    const oldEntries = usable[i]?.entries ?? [];
    let p = 0;
    const fromSnapshot = (entry: SnapshotEntry) => {
      // Reused entries are a subsequence of the snapshot's, in the same order.
      while (oldEntries[p] !== entry) p++;
      const doc = prepared[i][p];
      if (!doc) {
        // A summary this code cannot read (a damaged snapshot): read the file itself.
        const raw = store.readDocument(ct.pluralName, entry.documentId);
        if (raw) fromFile(raw);
        return;
      }
      record(entry, oldTable);
      index.put(doc);
      report.documents++;
      report.fromSnapshot!++;
    };
    const fromThread = (entry: SnapshotEntry) => {
      const doc = lazyDocument(context(ct), entry.documentId, entry.summary, threaded!.table, entry.blob, entry.offset, entry.length);
      record(entry, threaded!.table);
      index.put(doc);
      report.documents++;
    };
    // Three lists sorted by documentId (files read here, snapshot entries, files read on threads): merge them.
    const lists: Array<{ items: Array<{ documentId: string }>; take: (x: never) => void }> = [
      { items: documents, take: fromFile }, { items: reused, take: fromSnapshot }, { items: threaded?.entries ?? [], take: fromThread },
    ];
    const at = [0, 0, 0];
    for (;;) {
      let pick = -1;
      for (let l = 0; l < 3; l++) {
        const item = lists[l].items[at[l]];
        if (item && (pick < 0 || item.documentId < lists[pick].items[at[pick]].documentId)) pick = l;
      }
      if (pick < 0) break;
      lists[pick].take(lists[pick].items[at[pick]++] as never);
    }
    if (capture) {
      entries.sort((x, y) => (x.documentId < y.documentId ? -1 : 1));
      const dir = complete && !Number.isNaN(dirMtimeMs) ? dirMtimeMs : -1;
      next.set(ct.pluralName, { fingerprint: fingerprints.get(ct.uid)!, dirMtimeMs: dir, table: [...table.keys()], entries });
    }
  }
  if (!capture) return { report };
  const stale = !old || usable.some((c) => !c) || readAgain > Math.max(64, report.documents * 0.02);
  const snapshot: Snapshot = { folioVersion: FOLIO_VERSION, takenAt, collections: next };
  return { report, plan: { snapshot, worthWriting: report.documents >= from && stale } };
}

/**
 * Reads the files of one collection that the snapshot did not cover: on worker threads when there are
 * many (their documents are then indexed as from a snapshot), else here. Threads that fail fall back here.
 */
async function readFresh(store: Store, ct: ContentType, ids: string[], capture: boolean):
  Promise<{ documents: RawDocument[]; threaded?: ParallelRead; problems: LoadReport['problems'] }> {
  if (ids.length >= PARALLEL_READ_FROM && store.collectionDir && parallelReadAvailable()) {
    // Names that are not documentIds are reported by the plain reader.
    const safe = ids.filter((id) => SAFE_ID.test(id));
    try {
      const threaded = await readInWorkers(store.collectionDir(ct.pluralName), safe, ct);
      const rest = safe.length === ids.length ? [] : ids.filter((id) => !SAFE_ID.test(id));
      const plain = store.readDocuments(ct.pluralName, rest, capture);
      return { documents: plain.documents, threaded, problems: [...threaded.problems, ...plain.problems] };
    } catch { /* read them here */ }
  }
  return store.readDocuments(ct.pluralName, ids, capture);
}

/**
 * Decodes every document still waiting in the snapshot, a slice at a time, so a fresh server answers
 * requests meanwhile and heavy queries find everything decoded soon after start.
 */
export async function warmDocuments(index: DocumentIndex, uids: string[], sliceMs = 8): Promise<number> {
  const pending: Array<NonNullable<DocumentRecord['lazy']>> = [];
  for (const uid of uids) if (index.has(uid)) for (const doc of index.documents(uid)) if (doc.lazy && !doc.lazy.loaded) pending.push(doc.lazy);
  let at = 0;
  while (at < pending.length) {
    const until = performance.now() + sliceMs;
    while (at < pending.length && performance.now() < until) {
      for (let k = 0; k < 64 && at < pending.length; k++) pending[at++].load();
    }
    await new Promise((r) => setImmediate(r));
  }
  return pending.length;
}
