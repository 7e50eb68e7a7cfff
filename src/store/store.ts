import { closeSync, fstatSync, linkSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename, dirname, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { KeyedLock, TEMP_MARK, fileChanged, writeFileAtomic } from './atomic.js';
import { WriteLock } from './write-lock.js';
import { lastIssuedId, recordIssuedId } from './issued-ids.js';
import { serialize } from './serialize.js';
import { parseDocumentText } from './document-text.js';
import { NOT_A_DOCUMENT_ID, SAFE_ID, idOfFileName } from './document-id.js';
import { openForReading, readContentText, readSmallFile } from './read-file.js';
import { OutsideContentError, folderInside } from './content-bounds.js';
import { collectionDirOf, documentPaths, listedFile } from './document-file.js';

/** One document file as read from disk, before the document layer interprets it. */
export interface RawDocument {
  documentId: string;
  file: string;
  body: Record<string, unknown>;
}

/** A collection's document files, read: sorted by documentId, and the files that could not be read. */
export interface CollectionRead {
  documents: RawDocument[];
  problems: LoadProblem[];
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
  /** Every document file of a collection (by plural name), read now. */
  loadCollection(pluralName: string): Promise<CollectionRead>;
  /**
   * Writes a document file. With `expect` (the stamp it was read with, null: it did not exist), the write
   * is given up with a StaleFileError if the file is not in that state just before it is replaced.
   * Resolves with the text written and its `textDigest`.
   */
  write(
    pluralName: string,
    documentId: string,
    body: Record<string, unknown>,
    expect?: DiskStamp | null,
  ): Promise<{ text: string; digest: string }>;
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
  /** Runs `fn` holding the project's write lock with no write of this process or another under way. */
  alone?<T>(fn: () => Promise<T>): Promise<T>;
  /** The highest numeric id any process handed out for the collection (0: none recorded); call under `exclusive`. */
  lastIssuedId?(pluralName: string): number;
  recordIssuedId?(pluralName: string, id: number): void;
  /** The folder a collection's files are in. */
  collectionDir(pluralName: string): string;
  fileOf(pluralName: string, documentId: string): string;
  /** Reads one document file (again, after a change on disk; or to decode it): `undefined` when gone. */
  readDocument(pluralName: string, documentId: string): RawDocument | undefined;
  /** A document file's text as it is now, `undefined` when there is none. */
  readText(pluralName: string, documentId: string): string | undefined;
  /** `readText`, without blocking: many are read side by side. */
  readTextAsync(pluralName: string, documentId: string): Promise<string | undefined>;
}

export class FileStore implements Store {
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

  alone<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.alone(fn);
  }

  readCurrent(pluralName: string, documentId: string): CurrentFile | undefined {
    // No file can have a name that is not a documentId.
    if (!SAFE_ID.test(documentId)) return undefined;
    const file = this.fileOf(pluralName, documentId);
    this.checkFolder(pluralName);
    let fd: number;
    try {
      fd = openForReading(file, this.contentDir);
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

  lastIssuedId(pluralName: string): number {
    return lastIssuedId(stateDirOf(this.contentDir), pluralName);
  }

  recordIssuedId(pluralName: string, id: number) {
    recordIssuedId(stateDirOf(this.contentDir), pluralName, id);
  }

  readDocument(pluralName: string, documentId: string): RawDocument | undefined {
    const text = this.readText(pluralName, documentId);
    if (text === undefined) return undefined;
    return { documentId, file: this.fileOf(pluralName, documentId), body: parseDocumentText(text, documentId) };
  }

  readText(pluralName: string, documentId: string): string | undefined {
    try {
      return readSmallFile(this.fileOf(pluralName, documentId), this.contentDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * Asked when a file changed on disk: a folder that became a link out of content/ holds no document (gone), and a
   * file that is such a link is not read (OutsideContentError).
   */
  async readTextAsync(pluralName: string, documentId: string): Promise<string | undefined> {
    if (!folderInside(this.contentDir, this.dir(pluralName))) return undefined;
    return readContentText(this.fileOf(pluralName, documentId), this.contentDir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
  }

  private dir(pluralName: string) {
    return collectionDirOf(this.contentDir, pluralName);
  }

  fileOf(pluralName: string, documentId: string) {
    const file = documentPaths(this.contentDir, pluralName)(documentId);
    if (file === undefined) throw new Error(`Unsafe documentId ${JSON.stringify(documentId)}`);
    return file;
  }

  /**
   * Throws OutsideContentError when the collection's folder (or documents/) is a link out of content/: no document
   * is read from it or written to it.
   */
  checkFolder(pluralName: string) {
    const dir = this.dir(pluralName);
    if (!folderInside(this.contentDir, dir)) throw new OutsideContentError(dir);
  }

  async loadCollection(pluralName: string): Promise<CollectionRead> {
    const dir = this.dir(pluralName);
    if (!folderInside(this.contentDir, dir))
      return { documents: [], problems: [{ file: dir, message: new OutsideContentError(dir).message }] };
    const names = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(dir) : [];
    const ids = names.map(idOfFileName).filter((id) => id !== undefined);
    const documents: RawDocument[] = [];
    const problems: LoadProblem[] = [];
    const pathOf = documentPaths(this.contentDir, pluralName);
    for (const documentId of ids.sort()) {
      const file = pathOf(documentId);
      if (file === undefined) {
        problems.push({ file: listedFile(this.contentDir, pluralName, documentId), message: NOT_A_DOCUMENT_ID });
        continue;
      }
      try {
        documents.push({ documentId, file, body: parseDocumentText(readSmallFile(file, this.contentDir), documentId) });
      } catch (err) {
        // A file gone since the listing is simply not there.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push({ file, message: (err as Error).message });
      }
    }
    return { documents, problems };
  }

  collectionDir(pluralName: string) {
    return this.dir(pluralName);
  }

  async write(pluralName: string, documentId: string, body: Record<string, unknown>, expect?: DiskStamp | null) {
    const file = this.fileOf(pluralName, documentId);
    this.checkFolder(pluralName);
    const text = serialize(body);
    const digest = textDigest(text);
    const check = expect === undefined ? undefined : () => checkStamp(file, expect);
    // One write of a file at a time in this process, so the stamp check and the rename after it are one step.
    await this.queued(file, async (op) => {
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
    return { text, digest };
  }

  async remove(pluralName: string, documentId: string, expect?: DiskStamp | null) {
    const file = this.fileOf(pluralName, documentId);
    this.checkFolder(pluralName);
    await this.queued(file, async (op) => {
      if (expect !== undefined) checkStamp(file, expect);
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
      } else
        await unlink(file).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        });
      fileChanged(file, null);
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

/** A short digest of a file's text: what is kept of the texts written, not whole documents. */
export const textDigest = (text: string) => createHash('sha1').update(text).digest('base64');
