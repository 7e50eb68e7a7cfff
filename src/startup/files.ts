import { statSync } from 'node:fs';
import { removeStrayTemps } from '../store/atomic.js';
import { NOT_A_DOCUMENT_ID } from '../store/document-id.js';
import { documentPaths, listedFile } from '../store/document-file.js';
import { parseDocumentText } from '../store/document-text.js';
import { readSmallFile } from '../store/read-file.js';
import { OutsideContentError, folderInside } from '../store/content-bounds.js';
import type { FileStore, LoadProblem, RawDocument } from '../store/store.js';
import { largeFolderBytes, listingOf, snapshotFileOf } from './folder-listing.js';
import { PARALLEL_READ_FROM } from './parallel-read.js';
import {
  type FileStamp,
  type RecordedCollection,
  type RecordedEntries,
  type RecordedSnapshot,
  type Snapshot,
  TICK,
  readSnapshot,
  readWithStamp,
  stampFiles,
  writeSnapshot,
} from './snapshot.js';
import { STAMP } from './stamp-range.js';

/** A document file read at start, with its stamp when asked (for a snapshot). */
export interface CapturedDocument extends RawDocument {
  stamp?: FileStamp;
}

export interface ScanOptions {
  /** What a start-up snapshot recorded for this collection, and when its reads began. */
  snapshot?: RecordedCollection;
  takenAt?: number;
}

export interface CollectionScan {
  /** Files to read (new or changed since the snapshot), sorted documentIds. */
  fresh: string[];
  /**
   * Snapshot entries whose files are unchanged (their positions in the snapshot's entries, which are sorted by
   * documentId): their files need no reading.
   */
  reused: number[];
  problems: LoadProblem[];
  /** The folder's mtime before listing it (for the next snapshot); NaN when there is no folder. */
  dirMtimeMs: number;
}

/**
 * What a start needs of the document folders beyond the storage interface: the snapshot, the listing
 * checked against it, and file stamps for the next snapshot. Built over the store's folders.
 */
export class StartupFiles {
  /** `threadsFrom`: stamp lists of this many files or more on worker threads (`server.readThreadsFrom`). */
  constructor(
    readonly store: FileStore,
    readonly threadsFrom = PARALLEL_READ_FROM,
  ) {}

  private turn: Promise<unknown> = Promise.resolve();

  /** Runs `work` once the work given before it has ended (whether it failed or not). */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.turn.then(work);
    this.turn = done.catch(() => undefined);
    return done;
  }

  private get snapshotFile() {
    return snapshotFileOf(this.store.contentDir);
  }

  readSnapshot(): RecordedSnapshot | undefined {
    return readSnapshot(this.snapshotFile);
  }

  writeSnapshot(snapshot: Snapshot): Promise<void> {
    return writeSnapshot(this.snapshotFile, snapshot);
  }

  collectionDir(pluralName: string): string {
    return this.store.collectionDir(pluralName);
  }

  fileOf(pluralName: string, documentId: string): string {
    return this.store.fileOf(pluralName, documentId);
  }

  /** Reads one document file: `undefined` when gone. */
  readDocument(pluralName: string, documentId: string): CapturedDocument | undefined {
    return this.store.readDocument(pluralName, documentId);
  }

  /**
   * How many files a collection's folder holds, guessed on the high side before listing it (0: no folder):
   * whether it reaches `threadsFrom`, and how many reader threads it would keep busy.
   */
  guessFiles(pluralName: string): number {
    // A folder's own size grows with its entries on every common file system (about 20 bytes a name on
    // tmpfs, 40 to 60 on ext4, btrfs or xfs), so LARGE_FOLDER_BYTES reads 20,000 files or more. Only a
    // guess: a wrong one costs reader threads started for nothing, or started a little later.
    const size = statSync(this.collectionDir(pluralName), { throwIfNoEntry: false })?.size ?? 0;
    return (size / largeFolderBytes(1)) | 0;
  }

  /**
   * Which of a collection's files need reading, and which snapshot entries still hold (their files are
   * unchanged since it was taken).
   */
  async scanCollection(pluralName: string, opts: ScanOptions = {}): Promise<CollectionScan> {
    const dir = this.collectionDir(pluralName);
    const reused: number[] = [];
    const problems: LoadProblem[] = [];
    // A folder that is a link out of content/ is not listed: none of its files are read (content-bounds.ts).
    if (!folderInside(this.store.contentDir, dir))
      return { fresh: [], reused, problems: [outsideProblem(dir)], dirMtimeMs: NaN };
    const dirStat = statSync(dir, { throwIfNoEntry: false });
    if (!dirStat?.isDirectory()) return { fresh: [], reused, problems, dirMtimeMs: NaN };
    const { snapshot, takenAt = 0 } = opts;
    const entries = snapshot?.entries;
    // An unchanged folder mtime means the same names: listing 100,000 names is itself slow on some machines.
    const sameNames = !!snapshot && snapshot.dirMtimeMs === dirStat.mtimeMs && dirStat.mtimeMs < takenAt - TICK;
    let strays = 0;
    let candidates: number[];
    let fresh: string[] = [];
    if (sameNames) candidates = Array.from(entries!.ids, (_, i) => i);
    else {
      const listed = await listingOf(dir, dirStat);
      strays = listed.strays;
      // Temp files left by killed writers are removed here, so only a folder that has some is listed twice.
      if (strays) await removeStrayTemps(dir);
      ({ candidates, fresh } = splitByRecorded(listed.ids, entries));
    }
    if (candidates.length) {
      const ids = candidates.map((c) => entries!.ids[c]);
      const stamp = () => stampFiles(this.store.contentDir, pluralName, ids, this.threadsFrom);
      // Collections are scanned at once: those stamped on threads take turns, so a low `threadsFrom` over many
      // collections never starts threads for all of them together.
      const stamps = await (ids.length >= this.threadsFrom ? this.inTurn(stamp) : stamp());
      let changed = false;
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i];
        if (entries!.unchanged(c, stamps[i * STAMP], stamps[i * STAMP + 1], stamps[i * STAMP + 2], takenAt))
          reused.push(c);
        else {
          fresh.push(ids[i]);
          changed = true;
        }
      }
      if (changed) fresh.sort();
    }
    // With temp files seen the folder's mtime says nothing reliable about its names.
    return { fresh, reused, problems, dirMtimeMs: strays ? NaN : dirStat.mtimeMs };
  }

  /**
   * Stamps of some of a collection's files (see `stampRange`), and its folder's mtime (NaN when gone):
   * for a snapshot of files that were read without taking their stamps.
   */
  async stampCollection(pluralName: string, documentIds: string[]) {
    const dir = this.collectionDir(pluralName);
    const files = await stampFiles(this.store.contentDir, pluralName, documentIds, this.threadsFrom);
    // Taken after the files': a rename into the folder since the reads began shows here.
    const dirMtimeMs = statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? NaN;
    return { files, dirMtimeMs };
  }

  /** Reads the given files (sorted documentIds); files gone meanwhile are skipped. */
  readDocuments(pluralName: string, documentIds: string[], capture = false) {
    const documents: CapturedDocument[] = [];
    const problems: LoadProblem[] = [];
    const { contentDir } = this.store;
    const pathOf = documentPaths(contentDir, pluralName);
    for (const documentId of documentIds) {
      const file = pathOf(documentId);
      if (file === undefined) {
        problems.push({ file: listedFile(this.store.contentDir, pluralName, documentId), message: NOT_A_DOCUMENT_ID });
        continue;
      }
      try {
        if (capture) {
          const { text, stamp } = readWithStamp(file, scratch, contentDir);
          documents.push({ documentId, file, body: parseDocumentText(text, documentId), stamp });
        } else
          documents.push({ documentId, file, body: parseDocumentText(readSmallFile(file, contentDir), documentId) });
      } catch (err) {
        // A recorded file gone since is simply not there (no problem to report).
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        problems.push({ file, message: (err as Error).message });
      }
    }
    return { documents, problems };
  }
}

/**
 * Both sorted: recorded files still listed are candidates, listed files not recorded are read. A loop
 * over 100,000 names in a function of its own, as in folder-listing.ts.
 */
function splitByRecorded(ids: string[], entries?: RecordedEntries): { candidates: number[]; fresh: string[] } {
  if (!entries?.length) return { candidates: [], fresh: ids };
  const recorded = entries.ids;
  const candidates: number[] = [];
  const fresh: string[] = [];
  let e = 0;
  for (const id of ids) {
    while (e < recorded.length && recorded[e] < id) e++;
    if (e < recorded.length && recorded[e] === id) candidates.push(e++);
    else fresh.push(id);
  }
  return { candidates, fresh };
}

const scratch = { buf: Buffer.allocUnsafe(256 * 1024) };

const outsideProblem = (dir: string): LoadProblem => ({ file: dir, message: new OutsideContentError(dir).message });
