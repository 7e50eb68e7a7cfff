import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename, dirname, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { KeyedLock, TEMP_MARK, writeFileAtomic, removeStrayTemps } from './atomic.js';
import { WriteLock } from './write-lock.js';
import { serialize } from './serialize.js';
import { parseDocumentText } from './document-text.js';
import { STAMP } from './stamp-range.js';
import { NOT_A_DOCUMENT_ID, SAFE_ID } from './document-id.js';
import { LARGE_FOLDER_BYTES, listingOf, snapshotFileOf } from './folder-listing.js';
import {
  type CollectionSnapshot,
  type FileStamp,
  type Recorded,
  type Snapshot,
  type SnapshotEntry,
  TICK,
  TextArena,
  readKept,
  readSnapshot,
  readWhole,
  readWithStamp,
  sameStamp,
  stampFiles,
  writeSnapshot,
} from './snapshot.js';

/** One document file as read from disk, before the document layer interprets it. */
export interface RawDocument {
  documentId: string;
  file: string;
  body: Record<string, unknown>;
  /** Where the file's bytes were kept, and its stamp: only when asked (for a start-up snapshot). */
  kept?: Recorded;
  stamp?: FileStamp;
}

export interface LoadOptions {
  /** What a start-up snapshot recorded for this collection, and when its reads began. */
  snapshot?: CollectionSnapshot;
  takenAt?: number;
  /** Keep each read file's text and stamp on the returned documents. */
  capture?: boolean;
}

export interface CollectionScan {
  /** Files to read (new or changed since the snapshot), sorted documentIds. */
  fresh: string[];
  /** Snapshot entries whose files are unchanged, sorted by documentId: their files need no reading. */
  reused: SnapshotEntry[];
  problems: LoadProblem[];
  /** The folder's mtime before listing it (for the next snapshot); NaN when there is no folder. */
  dirMtimeMs: number;
}

export interface CollectionLoad extends Omit<CollectionScan, 'fresh'> {
  /** Files read now, sorted by documentId. */
  documents: RawDocument[];
}

/** What tells one state of a file from the next: a Folio write renames a new file in, so `ino` changes. */
export interface DiskStamp {
  mtimeMs: number;
  size: number;
  ino: number;
  ctimeMs: number;
}

/** A document file as it is on disk now, with its stamp, for a write to start from. */
export interface CurrentFile {
  file: string;
  text: string;
  stamp: DiskStamp;
}

/** A document file changed between the time a write read it and the time it would have replaced it. */
export class StaleFileError extends Error {
  constructor(readonly file: string) {
    super(`${file} changed while it was being written`);
  }
}

/** A file an operation will write or remove, with the stamp it must still have (see `Store.writing`). */
export interface PlannedWrite {
  pluralName: string;
  documentId: string;
  expect?: DiskStamp | null;
}

export interface LoadProblem {
  file: string;
  message: string;
}

/**
 * Where documents live. The file store is the implementation; the interface keeps the door open for
 * another backend, and the document layer never touches paths itself.
 */
export interface Store {
  /**
   * Every document of a collection (by plural name), read once at start. With a snapshot, files whose
   * stamp is unchanged are not read but returned as `reused` entries.
   */
  loadCollection(pluralName: string, opts?: LoadOptions): Promise<CollectionLoad>;
  /** The first half of `loadCollection`: which files need reading, and which snapshot entries still hold. */
  scanCollection(pluralName: string, opts?: LoadOptions): Promise<CollectionScan>;
  /** The second half: reads the given files (sorted documentIds); files gone meanwhile are skipped. */
  readDocuments(
    pluralName: string,
    documentIds: string[],
    capture?: boolean,
  ): { documents: RawDocument[]; problems: LoadProblem[] };
  /** The folder a collection's files are in, for readers on other threads. */
  collectionDir?(pluralName: string): string;
  /** Whether a collection probably holds tens of thousands of files, judged before listing them. */
  looksLarge?(pluralName: string): boolean;
  /**
   * Stamps of some of a collection's files (see `stampRange`), and its folder's mtime (NaN when gone):
   * for a snapshot of files that were read without taking their stamps.
   */
  stampCollection?(pluralName: string, documentIds: string[]): Promise<{ files: Float64Array; dirMtimeMs: number }>;
  /**
   * Writes a document file. With `expect` (the stamp it was read with, null: it did not exist), the write
   * is given up with a StaleFileError if the file is not in that state just before it is replaced.
   * Resolves with the `textDigest` of the text written.
   */
  write(
    pluralName: string,
    documentId: string,
    body: Record<string, unknown>,
    expect?: DiskStamp | null,
  ): Promise<string>;
  remove(pluralName: string, documentId: string, expect?: DiskStamp | null): Promise<void>;
  /**
   * Runs `fn`, which writes or removes exactly the `planned` files (through `write` and `remove`), as one
   * operation: every stamp is checked before any file is replaced, so a StaleFileError writes nothing, and
   * a write that fails part way puts back the files already replaced.
   */
  writing?<T>(planned: PlannedWrite[], fn: () => Promise<T>): Promise<T>;
  /** The file as it is now, undefined when there is none (a write reads it under `exclusive`). */
  readCurrent?(pluralName: string, documentId: string): CurrentFile | undefined;
  /** Runs `fn` holding the project's write lock, shared with every other process writing it. */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
  /** The highest numeric id any process handed out for the collection (0: none recorded); call under `exclusive`. */
  lastIssuedId?(pluralName: string): number;
  recordIssuedId?(pluralName: string, id: number): void;
  fileOf(pluralName: string, documentId: string): string;
  /**
   * Reads one document file (again, after a change on disk; or to decode it): the raw document,
   * `undefined` when gone. With `keep`, its text is kept there with its stamp (for a snapshot).
   */
  readDocument(pluralName: string, documentId: string, keep?: TextArena): RawDocument | undefined;
  /** Whether the file's current text is what this process last wrote there (so a watcher can skip it). */
  isOwnWrite(file: string, text: string | undefined): boolean;
  /** Forgets what this process wrote to `file`: the file has since held something else (moved away, edited). */
  forgetOwnWrites(file: string): void;
  /** The start-up snapshot, if the store keeps one and it is readable. */
  readSnapshot?(): Snapshot | undefined;
  writeSnapshot?(snapshot: Snapshot): Promise<void>;
}

export class FileStore implements Store {
  /**
   * Digests of the last texts this process wrote to each file (`null`: removed it), so a watcher can tell its own
   * writes from others'. Several are kept: a file written twice in quick succession may be seen at either.
   */
  private own = new Map<string, Array<string | null>>();

  private readonly lock: WriteLock;
  private readonly files = new KeyedLock();
  /** The operation (see `writing`) the current write belongs to: its files' queues are already held. */
  private readonly operation = new AsyncLocalStorage<Operation>();

  constructor(readonly contentDir: string) {
    this.lock = new WriteLock(stateDirOf(contentDir));
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(fn);
  }

  readCurrent(pluralName: string, documentId: string): CurrentFile | undefined {
    // No file can have a name that is not a documentId.
    if (!SAFE_ID.test(documentId)) return undefined;
    const file = this.fileOf(pluralName, documentId);
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const st = fstatSync(fd);
      const text = readFileSync(fd, 'utf8');
      return { file, text, stamp: { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, ctimeMs: st.ctimeMs } };
    } finally {
      closeSync(fd);
    }
  }

  private idFile(pluralName: string) {
    return join(stateDirOf(this.contentDir), 'ids', pluralName);
  }

  lastIssuedId(pluralName: string): number {
    try {
      const n = Number.parseInt(readFileSync(this.idFile(pluralName), 'utf8'), 10);
      return Number.isSafeInteger(n) && n > 0 ? n : 0;
    } catch {
      return 0;
    }
  }

  recordIssuedId(pluralName: string, id: number) {
    // Local state: losing it (a crash) at worst lets two processes give one id twice, which loading renumbers.
    const file = this.idFile(pluralName);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, String(id));
  }

  private remember(file: string, digest: string | null) {
    const list = this.own.get(file) ?? [];
    list.push(digest);
    if (list.length > 8) list.shift();
    this.own.set(file, list);
    if (this.own.size > 10_000) this.own.delete(this.own.keys().next().value!);
  }

  isOwnWrite(file: string, text: string | undefined): boolean {
    const list = this.own.get(file);
    return !!list && list.includes(text === undefined ? null : textDigest(text));
  }

  forgetOwnWrites(file: string) {
    this.own.delete(file);
  }

  readDocument(pluralName: string, documentId: string, keep?: TextArena): RawDocument | undefined {
    const file = this.fileOf(pluralName, documentId);
    try {
      if (keep) {
        const { chunk, source, offset, length } = readKept(file, scratch, keep);
        return {
          documentId,
          file,
          body: parseDocumentText(chunk.toString('utf8', offset, offset + length), documentId),
          kept: { source, offset, length },
        };
      }
      const text = readSmallFile(file);
      if (text instanceof Error) throw text;
      return { documentId, file, body: parseDocumentText(text, documentId) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  private dir(pluralName: string) {
    return join(this.contentDir, 'documents', pluralName);
  }

  fileOf(pluralName: string, documentId: string) {
    if (!SAFE_ID.test(documentId)) throw new Error(`Unsafe documentId ${JSON.stringify(documentId)}`);
    return join(this.dir(pluralName), `${documentId}.json`);
  }

  async scanCollection(pluralName: string, opts: LoadOptions = {}): Promise<CollectionScan> {
    const dir = this.dir(pluralName);
    const reused: SnapshotEntry[] = [];
    const problems: LoadProblem[] = [];
    const dirStat = statSync(dir, { throwIfNoEntry: false });
    if (!dirStat?.isDirectory()) return { fresh: [], reused, problems, dirMtimeMs: NaN };
    const { snapshot, takenAt = 0 } = opts;
    const entries = snapshot?.entries ?? [];
    // An unchanged folder mtime means the same names: listing 100,000 names is itself slow on some machines.
    const sameNames = !!snapshot && snapshot.dirMtimeMs === dirStat.mtimeMs && dirStat.mtimeMs < takenAt - TICK;
    let strays = 0;
    let candidates: SnapshotEntry[];
    let fresh: string[] = [];
    if (sameNames) candidates = entries;
    else {
      const listed = await listingOf(dir, dirStat);
      strays = listed.strays;
      // Temp files left by killed writers are removed here, so only a folder that has some is listed twice.
      if (strays) await removeStrayTemps(dir);
      ({ candidates, fresh } = splitByRecorded(listed.ids, entries));
    }
    if (candidates.length) {
      const stamps = await stampFiles(
        dir,
        candidates.map((c) => c.documentId),
        '.json',
      );
      let changed = false;
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i];
        if (sameStamp(c, stamps[i * STAMP], stamps[i * STAMP + 1], stamps[i * STAMP + 2], takenAt)) reused.push(c);
        else {
          fresh.push(c.documentId);
          changed = true;
        }
      }
      if (changed) fresh.sort();
    }
    // With temp files seen the folder's mtime says nothing reliable about its names.
    return { fresh, reused, problems, dirMtimeMs: strays ? NaN : dirStat.mtimeMs };
  }

  async loadCollection(pluralName: string, opts: LoadOptions = {}): Promise<CollectionLoad> {
    const { fresh, reused, problems, dirMtimeMs } = await this.scanCollection(pluralName, opts);
    const read = this.readDocuments(pluralName, fresh, opts.capture);
    return { documents: read.documents, reused, problems: [...problems, ...read.problems], dirMtimeMs };
  }

  collectionDir(pluralName: string) {
    return this.dir(pluralName);
  }

  looksLarge(pluralName: string) {
    // A folder's own size grows with its entries on every common file system (about 20 bytes a name on
    // tmpfs, 40 to 60 on ext4, btrfs or xfs), so this reads 20,000 files or more. Only a guess: a wrong
    // one costs reader threads started for nothing, or started a little later.
    return (statSync(this.dir(pluralName), { throwIfNoEntry: false })?.size ?? 0) >= LARGE_FOLDER_BYTES;
  }

  async stampCollection(pluralName: string, documentIds: string[]) {
    const dir = this.dir(pluralName);
    const files = await stampFiles(dir, documentIds, '.json');
    // Taken after the files': a rename into the folder since the reads began shows here.
    const dirMtimeMs = statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? NaN;
    return { files, dirMtimeMs };
  }

  readDocuments(pluralName: string, documentIds: string[], capture = false) {
    const dir = this.dir(pluralName);
    const documents: RawDocument[] = [];
    const problems: LoadProblem[] = [];
    const arena = new TextArena();
    for (const documentId of documentIds) {
      const file = join(dir, `${documentId}.json`);
      if (!SAFE_ID.test(documentId)) {
        problems.push({ file, message: NOT_A_DOCUMENT_ID });
        continue;
      }
      try {
        if (capture) {
          const { text, kept, stamp } = readWithStamp(file, scratch, arena);
          documents.push({ documentId, file, body: parseDocumentText(text, documentId), kept, stamp });
        } else {
          const text = readSmallFile(file);
          if (text instanceof Error) throw text;
          documents.push({ documentId, file, body: parseDocumentText(text, documentId) });
        }
      } catch (err) {
        // A recorded file gone since is simply not there (no problem to report).
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        problems.push({ file, message: (err as Error).message });
      }
    }
    return { documents, problems };
  }

  async write(pluralName: string, documentId: string, body: Record<string, unknown>, expect?: DiskStamp | null) {
    const file = this.fileOf(pluralName, documentId);
    const text = serialize(body);
    const digest = textDigest(text);
    const check = expect === undefined ? undefined : () => checkStamp(file, expect);
    // One write of a file at a time in this process, so the stamp check and the rename after it are one step.
    await this.queued(file, async (op) => {
      this.remember(file, digest);
      if (!op?.undo) return writeFileAtomic(file, text, check);
      let aside: string | null | undefined;
      try {
        await writeFileAtomic(file, text, () => {
          check?.();
          aside = keepAside(file);
        });
      } catch (err) {
        if (aside) await unlink(aside).catch(() => undefined);
        throw err;
      }
      op.undo.push(undoOf(file, aside));
    });
    return digest;
  }

  async remove(pluralName: string, documentId: string, expect?: DiskStamp | null) {
    const file = this.fileOf(pluralName, documentId);
    await this.queued(file, async (op) => {
      if (expect !== undefined) checkStamp(file, expect);
      this.remember(file, null);
      if (op?.undo) {
        // Moved aside rather than removed, so a later failure of the operation can put it back.
        const aside = asideName(file);
        const moved = await rename(file, aside).then(
          () => true,
          (err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOENT') throw err;
            return false;
          },
        );
        if (moved) op.undo.push({ back: () => rename(aside, file), done: () => unlink(aside) });
        return;
      }
      await unlink(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    });
  }

  /** Runs `fn` after this process's other writes of `file`, unless the operation in progress holds its queue. */
  private queued(file: string, fn: (op: Operation | undefined) => Promise<void>): Promise<void> {
    const op = this.operation.getStore();
    if (op?.files.has(file)) return fn(op);
    return this.files.run(file, () => fn(undefined));
  }

  async writing<T>(planned: PlannedWrite[], fn: () => Promise<T>): Promise<T> {
    const expects = new Map<string, DiskStamp | null | undefined>();
    for (const p of planned) {
      const file = this.fileOf(p.pluralName, p.documentId);
      if (expects.get(file) === undefined) expects.set(file, p.expect);
    }
    // Sorted, so two operations sharing files take their queues in one order and never wait on each other.
    const files = [...expects.keys()].sort();
    const op: Operation = { files: new Set(files), undo: files.length > 1 ? [] : undefined };
    const run = async () => {
      for (const [file, expect] of expects) if (expect !== undefined) checkStamp(file, expect);
      try {
        const result = await this.operation.run(op, fn);
        await Promise.all(op.undo?.map((u) => u.done().catch(() => undefined)) ?? []);
        return result;
      } catch (err) {
        for (const u of op.undo?.reverse() ?? []) await u.back().catch(() => undefined);
        throw err;
      }
    };
    const hold = (i: number): Promise<T> => (i === files.length ? run() : this.files.run(files[i], () => hold(i + 1)));
    return hold(0);
  }

  /** Local, rebuildable state: kept with the other local state in `.folio/`, out of git. */
  private get snapshotFile() {
    return snapshotFileOf(this.contentDir);
  }

  readSnapshot() {
    return readSnapshot(this.snapshotFile);
  }
  writeSnapshot(snapshot: Snapshot) {
    return writeSnapshot(this.snapshotFile, snapshot);
  }
}

/** Local, rebuildable state (snapshot, locks, issued ids): `.folio/` beside `content/`, out of git. */
const stateDirOf = (contentDir: string) => join(dirname(contentDir), '.folio');

/** A multi-file write in progress: the files whose queues it holds, and how to undo what it replaced so far. */
interface Operation {
  files: Set<string>;
  /** Only for operations of several files: a single file is replaced in one rename anyway. */
  undo: Array<{ back: () => Promise<void>; done: () => Promise<void> }> | undefined;
}

const asideName = (file: string) =>
  join(dirname(file), `${TEMP_MARK}${basename(file)}.${randomBytes(6).toString('hex')}.old`);

/**
 * Keeps the file about to be replaced under a temp name (a second link: no copy, no space needed): its path,
 * null when there is no file, undefined when the file system has no hard links (it cannot be put back then).
 */
function keepAside(file: string): string | null | undefined {
  const aside = asideName(file);
  try {
    linkSync(file, aside);
    return aside;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/** How to put back a file replaced by an operation that then failed, and to drop what was kept once it succeeded. */
function undoOf(file: string, aside: string | null | undefined) {
  if (aside === null) return { back: () => unlink(file), done: async () => undefined };
  if (aside === undefined) return { back: async () => undefined, done: async () => undefined };
  return { back: () => rename(aside, file), done: () => unlink(aside) };
}

/** Throws a StaleFileError unless `file` is in the state `expect` (null: absent). */
function checkStamp(file: string, expect: DiskStamp | null) {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st && expect === null) return;
  if (
    st &&
    expect &&
    st.ino === expect.ino &&
    st.size === expect.size &&
    st.mtimeMs === expect.mtimeMs &&
    st.ctimeMs === expect.ctimeMs
  )
    return;
  throw new StaleFileError(file);
}

/**
 * Both sorted: recorded files still listed are candidates, listed files not recorded are read. A loop
 * over 100,000 names in a function of its own, as in folder-listing.ts.
 */
function splitByRecorded(ids: string[], entries: SnapshotEntry[]): { candidates: SnapshotEntry[]; fresh: string[] } {
  if (!entries.length) return { candidates: [], fresh: ids };
  const candidates: SnapshotEntry[] = [];
  const fresh: string[] = [];
  let e = 0;
  for (const id of ids) {
    while (e < entries.length && entries[e].documentId < id) e++;
    if (e < entries.length && entries[e].documentId === id) candidates.push(entries[e++]);
    else fresh.push(id);
  }
  return { candidates, fresh };
}

const scratch = { buf: Buffer.allocUnsafe(256 * 1024) };

/**
 * Reads a file as UTF-8 through one reused buffer: at start-up 100,000 small files are read, and skipping
 * readFileSync's stat and per-file allocation is most of the difference.
 */
function readSmallFile(file: string): string | Error {
  try {
    // Read first: a long file replaces `scratch.buf` with a larger buffer.
    const length = readWhole(file, scratch);
    return scratch.buf.toString('utf8', 0, length);
  } catch (err) {
    return err as Error;
  }
}

/** A short digest of a file's text: what is kept of the texts written, not whole documents. */
export const textDigest = (text: string) => createHash('sha1').update(text).digest('base64');
