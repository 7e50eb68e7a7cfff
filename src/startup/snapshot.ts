import { closeSync, existsSync, fstatSync, mkdirSync, openSync, read, readSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STAMP, TICK, stampRange } from './stamp-range.js';

export { TICK };
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openForReading, readAll } from '../store/read-file.js';

/**
 * The start-up snapshot: every document file's text as it was last read, with the file's stamp (mtime,
 * size, inode) and a summary the document layer computed from it. A start checks each stamp against the
 * file on disk and reads again only what changed, so restarting over 100,000 unchanged files is one
 * sequential read instead of 100,000 open/read/close calls. The document files stay the only truth: a
 * missing, stale, foreign or damaged snapshot only costs speed.
 *
 * Layout: a first line `FOLIO-SNAPSHOT <format>`, a second line with the byte length of the header JSON,
 * the header JSON (per collection: fingerprint, folder mtime, documentIds joined by newlines, a string table,
 * and the byte length of its numbers), then each collection's numbers as float64s (per entry: mtime, size,
 * inode, text length, summary length, summary), then every entry's text, back to back in entry order.
 * Numbers and ids stay out of JSON: parsing them would be most of the cost of a restart.
 */
const MAGIC = 'FOLIO-SNAPSHOT 2';

/** What identifies one version of a file's contents without reading it. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/**
 * Where recorded texts live: a buffer in memory, or the texts section of a snapshot file that is read in
 * the background (until then a text is read on its own). Entries point into one source by offset: no
 * object per text until it is decoded.
 */
export interface TextSource {
  text(offset: number, length: number): string;
  bytes(offset: number, length: number): Buffer;
  /** Resolves when every text is in memory (writers wait for it rather than read one at a time). */
  readonly ready: Promise<void>;
}

export class BufferText implements TextSource {
  readonly ready = Promise.resolve();
  constructor(readonly buf: Buffer<ArrayBufferLike>) {}
  text(offset: number, length: number) {
    return this.buf.toString('utf8', offset, offset + length);
  }
  bytes(offset: number, length: number) {
    return this.buf.subarray(offset, offset + length);
  }
}

/** A file section read in one request on the thread pool, so a start does not wait for 100+ MB of texts. */
class FileSection implements TextSource {
  private buf: Buffer | undefined;
  readonly ready: Promise<void>;

  constructor(
    private readonly fd: number,
    private readonly base: number,
    length: number,
  ) {
    this.ready = readFully(fd, base, length).then(
      (buf) => {
        this.buf = buf;
        closeSync(fd);
      },
      () => undefined, // texts keep being read one at a time
    );
  }

  bytes(offset: number, length: number): Buffer {
    if (this.buf) return this.buf.subarray(offset, offset + length);
    const out = Buffer.allocUnsafe(length);
    if (readSync(this.fd, out, 0, length, this.base + offset) !== length)
      throw new Error('snapshot file changed while read');
    return out;
  }

  text(offset: number, length: number) {
    return this.buf ? this.buf.toString('utf8', offset, offset + length) : this.bytes(offset, length).toString('utf8');
  }
}

async function readFully(fd: number, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await new Promise<{ bytesRead: number }>((resolve, reject) => {
      read(fd, buf, done, length - done, position + done, (err, bytesRead) =>
        err ? reject(err) : resolve({ bytesRead }),
      );
    });
    if (bytesRead === 0) throw new Error('snapshot file ended early');
    done += bytesRead;
  }
  return buf;
}

/** One recorded file. Flat on purpose: a start creates 100,000 of these. */
export interface SnapshotEntry extends FileStamp {
  documentId: string;
  /** Opaque to the store: numbers the document layer needs to index the document without decoding it. */
  summary: number[];
  /** The file's text is `blob`'s `[offset, offset + length)`. */
  blob: TextSource;
  offset: number;
  length: number;
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

interface Header {
  folioVersion: string;
  takenAt: number;
  collections: Record<
    string,
    { fingerprint: string; dirMtimeMs: number; ids: string; table: string[]; numbers: number }
  >;
}

/**
 * Reads a snapshot file's header and numbers; its texts follow in the background. Anything unexpected
 * (absent, truncated, another format) is `undefined`.
 */
export function readSnapshot(file: string): Snapshot | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let keepOpen = false;
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
    const numbers = new Map<string, Float64Array>();
    for (const [plural, c] of Object.entries(header.collections)) {
      if (!Number.isSafeInteger(c.numbers) || c.numbers % 8 !== 0 || offset + c.numbers > size) return undefined;
      const f = new Float64Array(c.numbers / 8);
      if (c.numbers && readSync(fd, new Uint8Array(f.buffer), 0, c.numbers, offset) !== c.numbers) return undefined;
      numbers.set(plural, f);
      offset += c.numbers;
    }
    const texts = new FileSection(fd, offset, size - offset);
    keepOpen = true;
    let textOffset = 0;
    const collections = new Map<string, CollectionSnapshot>();
    for (const [plural, c] of Object.entries(header.collections)) {
      const ids = c.ids === '' ? [] : c.ids.split('\n');
      const f = numbers.get(plural)!;
      const entries: SnapshotEntry[] = new Array(ids.length);
      let at = 0;
      for (let i = 0; i < ids.length; i++) {
        const length = f[at + 3],
          n = f[at + 4];
        const summary: number[] = new Array(n);
        for (let k = 0; k < n; k++) summary[k] = f[at + 5 + k];
        entries[i] = {
          documentId: ids[i],
          mtimeMs: f[at],
          size: f[at + 1],
          ino: f[at + 2],
          summary,
          blob: texts,
          offset: textOffset,
          length,
        };
        at += 5 + n;
        textOffset += length;
      }
      if (at !== f.length) return undefined;
      collections.set(plural, { fingerprint: c.fingerprint, dirMtimeMs: c.dirMtimeMs, table: c.table, entries });
    }
    if (offset + textOffset !== size) return undefined;
    return { folioVersion: header.folioVersion, takenAt: header.takenAt, collections };
  } catch {
    return undefined;
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}

/** Writes a snapshot atomically (temp file, then rename), streaming the texts rather than joining them. */
export async function writeSnapshot(file: string, snap: Snapshot): Promise<void> {
  const header: Header = { folioVersion: snap.folioVersion, takenAt: snap.takenAt, collections: {} };
  const blocks: Buffer[] = [];
  const texts: Buffer[] = [];
  for (const [plural, c] of snap.collections) {
    let n = 0;
    for (const e of c.entries) n += 5 + e.summary.length;
    const f = new Float64Array(n);
    let at = 0;
    await Promise.all([...new Set(c.entries.map((e) => e.blob))].map((b) => b.ready));
    for (const e of c.entries) {
      f[at] = e.mtimeMs;
      f[at + 1] = e.size;
      f[at + 2] = e.ino;
      f[at + 3] = e.length;
      f[at + 4] = e.summary.length;
      for (let k = 0; k < e.summary.length; k++) f[at + 5 + k] = e.summary[k];
      at += 5 + e.summary.length;
      texts.push(e.blob.bytes(e.offset, e.length));
    }
    blocks.push(Buffer.from(f.buffer));
    header.collections[plural] = {
      fingerprint: c.fingerprint,
      dirMtimeMs: c.dirMtimeMs,
      ids: c.entries.map((e) => e.documentId).join('\n'),
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
    // writev in batches: one call per text would be 100,000 calls, one for all would exceed IOV_MAX.
    for (let i = 0; i < texts.length; i += 1024) await handle.writev(texts.slice(i, i + 1024));
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

/**
 * Whether a file (its stamp given as numbers, NaN when gone) still holds what a snapshot entry recorded.
 * A file modified less than `TICK` ms before the snapshot's reads began is never trusted (see TICK).
 */
export const sameStamp = (a: FileStamp, mtimeMs: number, size: number, ino: number, takenAt: number) =>
  a.mtimeMs === mtimeMs && a.size === size && a.ino === ino && mtimeMs < takenAt - TICK;

/** Below this many files a worker costs more than it saves. */
const PARALLEL_FROM = 20000;
const WORKERS = 2;

/**
 * Stamps of many files (see `stampRange`), NaN for a missing file. Large lists are split over
 * worker threads; on slow-syscall machines (containers, VMs) the calls overlap with the main thread's work.
 */
export async function stampFiles(contentDir: string, pluralName: string, ids: string[]): Promise<Float64Array> {
  if (ids.length < PARALLEL_FROM) return stampRange(contentDir, pluralName, ids);
  const per = Math.ceil(ids.length / WORKERS);
  const parts = await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => stampInWorker(contentDir, pluralName, ids.slice(w * per, (w + 1) * per))),
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

/**
 * Keeps copies of many small texts in a few large buffers: 100,000 separate allocations cost more than
 * the reads they copy.
 */
export class TextArena {
  /**
   * `chunkBytes`: the size of each buffer (a reader sending its texts in batches uses small ones).
   * `shared`: in SharedArrayBuffers, for a reader thread to post without transferring them: the first
   * buffer a thread detaches makes V8 check for detached buffers on every typed-array access after,
   * which doubled the reader threads' scanning time.
   */
  constructor(
    private readonly chunkBytes = 8 * 1024 * 1024,
    private readonly shared = false,
  ) {}
  private chunk: Buffer<ArrayBufferLike> = Buffer.allocUnsafe(0);
  private source = new BufferText(this.chunk);
  private used = 0;
  /** Every buffer handed out so far (a reader thread posts them with its block). */
  readonly chunks: Array<Buffer<ArrayBufferLike>> = [];

  /** Room for `length` bytes at `chunk[offset…]`; `commit` keeps what was written there. */
  reserve(length: number): { chunk: Buffer; offset: number } {
    if (this.used + length > this.chunk.length) {
      // Never from Buffer's shared pool: each chunk owns its buffer, so it can cross to another thread whole.
      const bytes = Math.max(this.chunkBytes, length);
      this.chunk = Buffer.from(this.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
      this.source = new BufferText(this.chunk);
      this.chunks.push(this.chunk);
      this.used = 0;
    }
    return { chunk: this.chunk, offset: this.used };
  }

  commit(length: number): { source: BufferText; offset: number } {
    const offset = this.used;
    this.used += length;
    return { source: this.source, offset };
  }

  /** Copies `from[0, length)`; the copy is `source`'s `[offset, offset + length)`. */
  copy(from: Buffer, length: number): { source: BufferText; offset: number } {
    const { chunk, offset } = this.reserve(length);
    from.copy(chunk, offset, 0, length);
    return this.commit(length);
  }
}

/** Where a file's bytes were kept: `source`'s `[offset, offset + length)`. */
export interface Recorded {
  source: TextSource;
  offset: number;
  length: number;
}

/** The least room a read is given in the arena: a longer file is read again whole. */
const MIN_ROOM = 64 * 1024;

/** A file's bytes kept in an arena: `chunk[offset, offset + length)`, which is also `source`'s. */
interface Kept {
  chunk: Buffer;
  source: BufferText;
  offset: number;
  length: number;
}

/**
 * Reads an open file whole into `arena`, in one read when it fits the room left (the byte after it is
 * left unwritten).
 */
function readOpenInto(fd: number, scratch: { buf: Buffer }, arena: TextArena): Kept {
  const { chunk, offset } = arena.reserve(MIN_ROOM);
  // One byte less than the room, so a read that fills it shows the file may go on.
  const room = chunk.length - offset - 1;
  const got = readSync(fd, chunk, offset, room, 0);
  if (got < room) return { chunk, ...arena.commit(got), length: got };
  const length = readAll(fd, scratch);
  const kept = arena.copy(scratch.buf, length);
  return { chunk: arena.chunks[arena.chunks.length - 1], ...kept, length };
}

/** Reads a whole file into `arena` without taking its stamp (open, one read, close). */
export function readKept(path: string, scratch: { buf: Buffer }, arena: TextArena): Kept {
  const fd = openForReading(path);
  try {
    return readOpenInto(fd, scratch, arena);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a small file into `arena` with its stamp taken on the same descriptor (so text and stamp always
 * belong together).
 */
export function readWithStamp(
  path: string,
  scratch: { buf: Buffer },
  arena: TextArena,
): { text: string; kept: Recorded; stamp: FileStamp } {
  const fd = openForReading(path);
  try {
    const stamp = stampOfFd(fd);
    const { chunk, source, offset, length } = readOpenInto(fd, scratch, arena);
    return { text: chunk.toString('utf8', offset, offset + length), kept: { source, offset, length }, stamp };
  } finally {
    closeSync(fd);
  }
}
