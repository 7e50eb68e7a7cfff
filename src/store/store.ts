import { readdirSync, readFileSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { writeFileAtomic, removeStrayTemps, TEMP_MARK } from './atomic.js';
import { serialize } from './serialize.js';

/** One document file as read from disk, before the document layer interprets it. */
export interface RawDocument {
  documentId: string;
  file: string;
  body: Record<string, unknown>;
}

export interface LoadProblem { file: string; message: string }

/**
 * Where documents live. The file store is the implementation; the interface keeps the door open for
 * another backend, and the document layer never touches paths itself.
 */
export interface Store {
  /** Every document of a collection (by plural name), read once at start. */
  loadCollection(pluralName: string): Promise<{ documents: RawDocument[]; problems: LoadProblem[] }>;
  write(pluralName: string, documentId: string, body: Record<string, unknown>): Promise<void>;
  remove(pluralName: string, documentId: string): Promise<void>;
  fileOf(pluralName: string, documentId: string): string;
  /** Reads one document file again (after a change on disk): the raw document, `undefined` when gone. */
  readDocument(pluralName: string, documentId: string): RawDocument | undefined;
  /** Whether the file's current text is what this process last wrote there (so a watcher can skip it). */
  isOwnWrite(file: string, text: string | undefined): boolean;
  /** Removes temp files left by writers that were killed mid-write. */
  cleanup(pluralNames: string[]): Promise<number>;
}

/** documentIds become file names, so only plain lowercase alphanumerics are ever accepted. */
export const SAFE_ID = /^[a-z0-9]{1,64}$/;

export class FileStore implements Store {
  /**
   * Digests of the last texts this process wrote to each file (`null`: removed it), so a watcher can tell its own
   * writes from others'. Several are kept: a file written twice in quick succession may be seen at either.
   */
  private own = new Map<string, Array<string | null>>();

  constructor(readonly contentDir: string) {}

  private remember(file: string, text: string | null) {
    const list = this.own.get(file) ?? [];
    list.push(text === null ? null : digest(text));
    if (list.length > 8) list.shift();
    this.own.set(file, list);
    if (this.own.size > 10_000) this.own.delete(this.own.keys().next().value!);
  }

  isOwnWrite(file: string, text: string | undefined): boolean {
    const list = this.own.get(file);
    return !!list && list.includes(text === undefined ? null : digest(text));
  }

  readDocument(pluralName: string, documentId: string): RawDocument | undefined {
    const file = this.fileOf(pluralName, documentId);
    let text: string;
    try { text = readFileSync(file, 'utf8'); } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return { documentId, file, body: parseDocumentText(text, documentId) };
  }

  private dir(pluralName: string) {
    return join(this.contentDir, 'documents', pluralName);
  }

  fileOf(pluralName: string, documentId: string) {
    if (!SAFE_ID.test(documentId)) throw new Error(`Unsafe documentId ${JSON.stringify(documentId)}`);
    return join(this.dir(pluralName), `${documentId}.json`);
  }

  async loadCollection(pluralName: string) {
    const dir = this.dir(pluralName);
    const documents: RawDocument[] = [];
    const problems: LoadProblem[] = [];
    if (!existsSync(dir)) return { documents, problems };
    const names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith(TEMP_MARK)).sort();
    for (const name of names) {
      const file = join(dir, name);
      const documentId = name.slice(0, -5);
      if (!SAFE_ID.test(documentId)) {
        problems.push({ file, message: 'the file name must be a documentId (lowercase letters and digits)' });
        continue;
      }
      const text = readSmallFile(file);
      try {
        if (text instanceof Error) throw text;
        documents.push({ documentId, file, body: parseDocumentText(text, documentId) });
      } catch (err) {
        problems.push({ file, message: (err as Error).message });
      }
    }
    return { documents, problems };
  }

  async write(pluralName: string, documentId: string, body: Record<string, unknown>) {
    const file = this.fileOf(pluralName, documentId);
    const text = serialize(body);
    this.remember(file, text);
    await writeFileAtomic(file, text);
  }

  async remove(pluralName: string, documentId: string) {
    const file = this.fileOf(pluralName, documentId);
    this.remember(file, null);
    await unlink(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async cleanup(pluralNames: string[]) {
    let n = 0;
    for (const p of pluralNames) n += await removeStrayTemps(this.dir(p));
    return n;
  }
}

/** Parses a document file's text; the documentId inside, when present, must match the file name. */
export function parseDocumentText(text: string, documentId: string): Record<string, unknown> {
  const body = JSON.parse(text) as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('a document file must hold a JSON object');
  const b = body as Record<string, unknown>;
  if (b.documentId !== undefined && b.documentId !== documentId) {
    throw new Error(`"documentId" ${JSON.stringify(b.documentId)} does not match the file name`);
  }
  return b;
}

let scratch = Buffer.allocUnsafe(256 * 1024);

/**
 * Reads a file as UTF-8 through one reused buffer: at start-up 100,000 small files are read, and skipping
 * readFileSync's stat and per-file allocation is most of the difference.
 */
function readSmallFile(file: string): string | Error {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch (err) { return err as Error; }
  try {
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, length);
        scratch = bigger;
      }
      const n = readSync(fd, scratch, length, scratch.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return scratch.toString('utf8', 0, length);
  } catch (err) {
    return err as Error;
  } finally {
    closeSync(fd);
  }
}

/** A short digest of a file's text: the own-write memory keeps these, not whole documents. */
const digest = (text: string) => createHash('sha1').update(text).digest('base64');
