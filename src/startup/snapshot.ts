import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STAMP, TICK, stampRange } from './stamp-range.js';

export { TICK };
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openForReading, readAll } from '../store/read-file.js';

/**
 * The start-up snapshot, an index cache: per document file, its stamp (mtime, size, inode) and a summary
 * the document layer computed from it (each version's id, locale and status), not its text. A start checks
 * each stamp against the file on disk and indexes unchanged files from their summaries without reading
 * them; their values are read from the files on first use. The document files stay the only truth: a
 * missing, stale, foreign or damaged snapshot only costs speed.
 *
 * Layout: a first line `FOLIO-SNAPSHOT <format>`, a second line with the byte length of the header JSON,
 * the header JSON (per collection: fingerprint, folder mtime, documentIds joined by newlines, a string table,
 * and the byte length of its numbers), then each collection's numbers as float64s (per entry: mtime, size,
 * inode, summary length, summary). Numbers and ids stay out of JSON: parsing them would be most of the cost
 * of a restart.
 */
const MAGIC = 'FOLIO-SNAPSHOT 3';

/** What identifies one version of a file's contents without reading it. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** One recorded file. Flat on purpose: a start creates 100,000 of these. */
export interface SnapshotEntry extends FileStamp {
  documentId: string;
  /** Opaque to the store: numbers the document layer needs to index the document without decoding it. */
  summary: number[];
}

export interface CollectionSnapshot {
  /** The document layer's fingerprint of the content-type the entries were decoded with. */
  fingerprint: string;
  /** The collection folder's mtime (-1: some file of it is not recorded, so the folder must be listed). */
  dirMtimeMs: number;
  /** Strings the summaries refer to by position (opaque to the store). */
  table: string[];
  /** Sorted by documentId. */
  entries: SnapshotEntry[];
}

export interface Snapshot {
  /** Which Folio wrote it: another version may decode files differently, so its snapshot is not used. */
  folioVersion: string;
  /** When the reads it records began: a file modified within a clock tick of its read is not trusted. */
  takenAt: number;
  collections: Map<string, CollectionSnapshot>;
}

/**
 * One collection's entries as read from the file: in columns, with no object per entry (a restart reads a
 * million of them, and made into objects they were most of its work on the main thread and of its garbage).
 * Entry `i` is `ids[i]`, and in `numbers` from `at[i]`: mtime, size, inode, summary length, summary.
 */
export class RecordedEntries {
  constructor(
    readonly ids: string[],
    readonly numbers: Float64Array,
    readonly at: Int32Array,
  ) {}

  get length() {
    return this.ids.length;
  }

  /**
   * Whether entry `i`'s file, stamped as given (NaN when gone), still holds what was recorded. A file modified
   * less than `TICK` ms before the snapshot's reads began is never trusted (see TICK).
   */
  unchanged(i: number, mtimeMs: number, size: number, ino: number, takenAt: number): boolean {
    const n = this.numbers;
    const a = this.at[i];
    return n[a] === mtimeMs && n[a + 1] === size && n[a + 2] === ino && mtimeMs < takenAt - TICK;
  }

  /** Where entry `i`'s summary is in `numbers`: `[summaryFrom(i), summaryTo(i))`. */
  summaryFrom(i: number): number {
    return this.at[i] + 4;
  }
  summaryTo(i: number): number {
    return this.at[i] + 4 + this.numbers[this.at[i] + 3];
  }

  /** Entry `i` as an object (for a snapshot written again). */
  entry(i: number): SnapshotEntry {
    const a = this.at[i];
    const n = this.numbers;
    const summary = Array.from(n.subarray(a + 4, this.summaryTo(i)));
    return { documentId: this.ids[i], mtimeMs: n[a], size: n[a + 1], ino: n[a + 2], summary };
  }
}

/** A collection of a snapshot as read (see RecordedEntries). */
export interface RecordedCollection extends Omit<CollectionSnapshot, 'entries'> {
  entries: RecordedEntries;
}

/** A snapshot as read. */
export interface RecordedSnapshot extends Omit<Snapshot, 'collections'> {
  collections: Map<string, RecordedCollection>;
}

interface Header {
  folioVersion: string;
  takenAt: number;
  collections: Record<
    string,
    { fingerprint: string; dirMtimeMs: number; ids: string; table: string[]; numbers: number }
  >;
}

/** Reads a snapshot file. Anything unexpected (absent, truncated, another format) is `undefined`. */
export function readSnapshot(file: string): RecordedSnapshot | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const pread = (position: number, length: number) => {
      const out = Buffer.allocUnsafe(length);
      if (readSync(fd, out, 0, length, position) !== length) throw new Error('short read');
      return out;
    };
    const head = pread(0, Math.min(64, size));
    const nl1 = head.indexOf(10);
    if (nl1 < 0 || head.toString('latin1', 0, nl1) !== MAGIC) return undefined;
    const nl2 = head.indexOf(10, nl1 + 1);
    const headerLength = Number(head.toString('latin1', nl1 + 1, nl2));
    if (nl2 < 0 || !Number.isSafeInteger(headerLength) || nl2 + 1 + headerLength > size) return undefined;
    let offset = nl2 + 1;
    const header = JSON.parse(pread(offset, headerLength).toString('utf8')) as Header;
    offset += headerLength;
    const collections = new Map<string, RecordedCollection>();
    for (const [plural, c] of Object.entries(header.collections)) {
      if (!Number.isSafeInteger(c.numbers) || c.numbers % 8 !== 0 || offset + c.numbers > size) return undefined;
      const f = new Float64Array(c.numbers / 8);
      if (c.numbers && readSync(fd, new Uint8Array(f.buffer), 0, c.numbers, offset) !== c.numbers) return undefined;
      offset += c.numbers;
      const ids = c.ids === '' ? [] : c.ids.split('\n');
      const starts = entryStarts(f, ids.length);
      if (!starts) return undefined;
      const entries = new RecordedEntries(ids, f, starts);
      collections.set(plural, { fingerprint: c.fingerprint, dirMtimeMs: c.dirMtimeMs, table: c.table, entries });
    }
    if (offset !== size) return undefined;
    return { folioVersion: header.folioVersion, takenAt: header.takenAt, collections };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Where each of `count` entries starts in `f` (see RecordedEntries), or undefined when they do not fill it exactly. */
function entryStarts(f: Float64Array, count: number): Int32Array | undefined {
  const starts = new Int32Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const n = f[at + 3];
    if (!(Number.isInteger(n) && n >= 0 && at + 4 + n <= f.length)) return undefined;
    starts[i] = at;
    at += 4 + n;
  }
  return at === f.length ? starts : undefined;
}

const SNAPSHOT_SLICE = 8192;
const turn = () => new Promise<void>((r) => setImmediate(r));

/** Writes a snapshot atomically (temp file, then rename). */
export async function writeSnapshot(file: string, snap: Snapshot): Promise<void> {
  const header: Header = { folioVersion: snap.folioVersion, takenAt: snap.takenAt, collections: {} };
  const blocks: Buffer[] = [];
  for (const [plural, c] of snap.collections) {
    let n = 0;
    for (const e of c.entries) n += 4 + e.summary.length;
    const f = new Float64Array(n);
    let at = 0;
    const ids: string[] = [];
    for (let i = 0; i < c.entries.length; i++) {
      // A server writes this after its warm-up: a turn of the event loop every few thousand entries keeps
      // a large collection from holding requests back.
      if ((i & (SNAPSHOT_SLICE - 1)) === SNAPSHOT_SLICE - 1) await turn();
      const e = c.entries[i];
      ids.push(e.documentId);
      f[at] = e.mtimeMs;
      f[at + 1] = e.size;
      f[at + 2] = e.ino;
      f[at + 3] = e.summary.length;
      for (let k = 0; k < e.summary.length; k++) f[at + 4 + k] = e.summary[k];
      at += 4 + e.summary.length;
    }
    blocks.push(Buffer.from(f.buffer));
    header.collections[plural] = {
      fingerprint: c.fingerprint,
      dirMtimeMs: c.dirMtimeMs,
      ids: ids.join('\n'),
      table: c.table,
      numbers: f.byteLength,
    };
  }
  const json = Buffer.from(JSON.stringify(header));
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  // Temp files of writers killed mid-write (the name carries their pid) are removed first; a recent one
  // may belong to another server of the same project that is writing right now.
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${basename(file)}.`) || !name.endsWith('.tmp')) continue;
    const age = Date.now() - (statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 10 * 60_000) await unlink(join(dir, name)).catch(() => undefined);
  }
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.write(`${MAGIC}\n${json.length}\n`);
    await handle.write(json);
    await handle.writev(blocks);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, file);
}

function stampOfFd(fd: number): FileStamp {
  const s = fstatSync(fd);
  return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
}

const WORKERS = 2;

/**
 * Stamps of many files (see `stampRange`), NaN for a missing file. Lists of `threadsFrom` files or more
 * (`server.readThreadsFrom`: below it a worker costs more than it saves) are split over worker threads; on
 * slow-syscall machines (containers, VMs) the calls overlap with the main thread's work.
 */
export async function stampFiles(
  contentDir: string,
  pluralName: string,
  ids: string[],
  threadsFrom: number,
): Promise<Float64Array> {
  if (!ids.length || ids.length < threadsFrom) return stampRange(contentDir, pluralName, ids);
  // One file a worker at least (`threadsFrom` may be 1).
  const workers = Math.min(WORKERS, ids.length);
  const per = Math.ceil(ids.length / workers);
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, w) => stampInWorker(contentDir, pluralName, ids.slice(w * per, (w + 1) * per))),
  );
  const out = new Float64Array(ids.length * STAMP);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The compiled worker (absent when the TypeScript sources run directly: then this thread stamps). */
const STAMP_WORKER = new URL('./stamp-worker.js', import.meta.url);
const workerAvailable = () => STAMP_WORKER.protocol === 'file:' && existsSync(fileURLToPath(STAMP_WORKER));

function stampInWorker(contentDir: string, pluralName: string, ids: string[]): Promise<Float64Array> {
  return new Promise((resolve) => {
    if (!workerAvailable()) {
      resolve(stampRange(contentDir, pluralName, ids));
      return;
    }
    // One joined string crosses to the worker in one copy, not one per file name.
    const worker = new Worker(STAMP_WORKER, { workerData: { contentDir, pluralName, ids: ids.join('\n') } });
    let done = false;
    const finish = (value: Float64Array) => {
      if (!done) {
        done = true;
        resolve(value);
        void worker.terminate();
      }
    };
    worker.once('message', (m: Float64Array) => finish(m));
    // A worker that cannot run (resource limits) must not fail the start: stat on this thread instead.
    const fallback = () => {
      if (!done) finish(stampRange(contentDir, pluralName, ids));
    };
    worker.once('error', fallback);
    worker.once('exit', fallback);
  });
}

/** Reads a small file as UTF-8 with its stamp taken on the same descriptor (so text and stamp belong together). */
export function readWithStamp(
  path: string,
  scratch: { buf: Buffer },
  contentDir?: string,
): { text: string; stamp: FileStamp } {
  const fd = openForReading(path, contentDir);
  try {
    const stamp = stampOfFd(fd);
    const length = readAll(fd, scratch);
    return { text: scratch.buf.toString('utf8', 0, length), stamp };
  } finally {
    closeSync(fd);
  }
}
