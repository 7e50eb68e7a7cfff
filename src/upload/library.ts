import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FILE_OBJECT_KEYS, type MediaFile, type MediaLibrary } from '../documents/media.js';
import { newDocumentId, now } from '../documents/model.js';
import { KeyedLock, TEMP_MARK, removeStrayTemps, writeFileAtomic } from '../store/atomic.js';
import { issueId } from '../store/issued-ids.js';
import { WriteLock } from '../store/write-lock.js';
import { loadUploadConfig, type UploadConfig } from './config.js';
import { bytesToKbytes, contentHashName } from './naming.js';

/** One resized version of an image, as Strapi stores it inside `formats`. */
export interface FormatInfo {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number | null;
  height: number | null;
  size: number;
  sizeInBytes: number;
  url: string;
}

export interface FocalPoint {
  x: number;
  y: number;
}

/** An upload file: Strapi's file object (without `isUrlSigned`, which only the upload routes add). */
export interface FileRecord extends MediaFile {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: FocalPoint | null;
  width: number | null;
  height: number | null;
  formats: Record<string, FormatInfo> | null;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'] as const;

/** A file ready to be stored: its content in temp files, its metadata checked. */
export interface PreparedFile {
  tmpPath: string;
  sha256: string;
  sizeInBytes: number;
  /** The `[A-Za-z0-9_]` slug the hash starts with. */
  slug: string;
  name: string;
  ext: string;
  mime: string;
  width: number | null;
  height: number | null;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: FocalPoint | null;
  formats: Array<{ key: string; tmpPath: string; width: number; height: number; sizeInBytes: number }> | null;
  /** What to keep of a file imported from another library: its documentId (when free) and timestamps. */
  documentId?: string;
  createdAt?: string;
  updatedAt?: string;
  publishedAt?: string;
}

export type MediaEvent = { event: 'media.create' | 'media.update' | 'media.delete'; media: FileRecord };

/** What reading a record file again did: nothing, a change of the library, or a problem (the last good kept). */
export type RecordReload = 'unchanged' | 'created' | 'updated' | 'deleted' | { problem: string };

/** The name of the media library's counter in `.folio/ids/`. */
const ID_COUNTER = 'upload.file';

export interface LoadProblem {
  file: string;
  message: string;
}

const HASH = /^[A-Za-z0-9_-]{1,200}$/;
const EXT = /^(\.[A-Za-z0-9]{1,16})?$/;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A name `GET /uploads/<name>` may serve: one path segment, no dot-only names. */
export const SERVED_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,250}$/;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The media library on local files. Binaries live in `content/uploads/<hash><ext>` (formats as
 * `<format>_<hash><ext>`), one metadata record per file in `content/uploads/_records/<documentId>.json`.
 * Records are read once at start into memory; every change writes the record atomically first (temp file,
 * fsync, rename) and only then updates memory. Implements the document layer's `MediaLibrary`.
 */
export class LocalMediaLibrary implements MediaLibrary {
  readonly uploadsDir: string;
  readonly recordsDir: string;
  readonly problems: LoadProblem[] = [];
  private byIdMap = new Map<number, FileRecord>();
  private byDocumentId = new Map<string, FileRecord>();
  /** Stored file name -> the record it belongs to, and which format (undefined: the original). */
  private served = new Map<string, { record: FileRecord; format?: string }>();
  private nextId = 1;
  private lock = new KeyedLock();
  /** Held by the process adding files, so two processes never issue one id (see issueId). */
  private readonly fileLock: WriteLock;
  private readonly stateDir: string;
  /** The digest of each record's file text as this library last wrote or read it: its own changes are no change. */
  private texts = new Map<string, string>();
  private listeners = new Set<(e: MediaEvent) => void>();

  private constructor(
    readonly contentDir: string,
    public config: UploadConfig,
    readonly warn: (msg: string) => void,
  ) {
    this.uploadsDir = join(contentDir, 'uploads');
    this.recordsDir = join(this.uploadsDir, '_records');
    this.stateDir = join(dirname(contentDir), '.folio');
    this.fileLock = new WriteLock(this.stateDir, 'media');
  }

  /** Opens the library of a project: reads `upload` settings from folio.json and every record once. */
  static async open(
    contentDir: string,
    opts: { config?: UploadConfig; warn?: (msg: string) => void } = {},
  ): Promise<LocalMediaLibrary> {
    const lib = new LocalMediaLibrary(
      contentDir,
      opts.config ?? loadUploadConfig(contentDir),
      opts.warn ?? ((m) => process.stderr.write(`${m}\n`)),
    );
    await removeStrayTemps(lib.uploadsDir);
    await removeStrayTemps(lib.recordsDir);
    lib.load();
    return lib;
  }

  // ---------------------------------------------------------------- reads

  resolve(ref: string | number): FileRecord | undefined {
    if (typeof ref === 'number') return this.byIdMap.get(ref);
    if (/^\d+$/.test(ref)) return this.byIdMap.get(Number(ref));
    return this.byDocumentId.get(ref);
  }

  byId(id: number): FileRecord | undefined {
    return this.byIdMap.get(id);
  }

  /** Every file, by id. */
  list(): FileRecord[] {
    return [...this.byIdMap.values()].sort((a, b) => a.id - b.id);
  }

  /** The record (and format) a stored file name belongs to, for `GET /uploads/<name>`. */
  servedFile(name: string): { record: FileRecord; format?: string; path: string } | undefined {
    if (!SERVED_NAME.test(name)) return undefined;
    const hit = this.served.get(name);
    return hit ? { ...hit, path: join(this.uploadsDir, name) } : undefined;
  }

  onChange(fn: (e: MediaEvent) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  // ---------------------------------------------------------------- writes

  /**
   * Stores prepared files as one batch: names them by content hash, renames their temp files into place,
   * writes their records. All or nothing: on a failure, what this batch wrote is removed again.
   */
  async add(files: PreparedFile[]): Promise<FileRecord[]> {
    return this.lock.run('library', () => this.fileLock.run(() => this.addLocked(files)));
  }

  private async addLocked(files: PreparedFile[]): Promise<FileRecord[]> {
    await mkdir(this.recordsDir, { recursive: true });
    const done: FileRecord[] = [];
    try {
      for (const f of files) {
        const hash = contentHashName(f.slug, f.sha256, (h) => this.nameTaken(h, f.ext));
        const t = now();
        const record: FileRecord = {
          id: this.issueId(),
          documentId: f.documentId && !this.byDocumentId.has(f.documentId) ? f.documentId : this.freshDocumentId(),
          name: f.name,
          alternativeText: f.alternativeText,
          caption: f.caption,
          focalPoint: f.focalPoint,
          width: f.width,
          height: f.height,
          formats: formatsOf(f, hash),
          hash,
          ext: f.ext,
          mime: f.mime,
          size: bytesToKbytes(f.sizeInBytes),
          url: `/uploads/${hash}${f.ext}`,
          previewUrl: null,
          provider: 'local',
          provider_metadata: null,
          createdAt: f.createdAt ?? t,
          updatedAt: f.updatedAt ?? t,
          publishedAt: f.publishedAt ?? t,
        };
        done.push(record);
        await this.placeBinaries(f, record);
        await this.writeRecord(record);
        this.index(record);
      }
    } catch (err) {
      for (const r of done) {
        this.unindex(r);
        this.texts.delete(r.documentId);
        await unlink(this.recordPath(r.documentId)).catch(() => undefined);
        await this.removeBinaries(r);
      }
      throw err;
    }
    for (const r of done) this.emit('media.create', r);
    return done;
  }

  /** Changes a file's metadata (name, alternative text, caption, focal point). */
  async updateInfo(
    id: number,
    patch: Partial<Pick<FileRecord, 'name' | 'alternativeText' | 'caption' | 'focalPoint'>>,
  ): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.byIdMap.get(id);
      if (!current) return undefined;
      const next: FileRecord = { ...current, ...patch, updatedAt: now() };
      await this.writeRecord(next);
      this.unindex(current);
      this.index(next);
      this.emit('media.update', next);
      return next;
    });
  }

  /**
   * Replaces a file's content. As Strapi does, the hash and extension stay, so the URL does not change;
   * the old formats are removed and new ones made.
   */
  async replace(
    id: number,
    f: PreparedFile,
    patch: Partial<Pick<FileRecord, 'name' | 'alternativeText' | 'caption' | 'focalPoint'>>,
  ): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.byIdMap.get(id);
      if (!current) return undefined;
      const next: FileRecord = {
        ...current,
        ...patch,
        width: f.width,
        height: f.height,
        formats: formatsOf({ ...f, ext: current.ext }, current.hash),
        mime: f.mime,
        size: bytesToKbytes(f.sizeInBytes),
        updatedAt: now(),
      };
      await this.placeBinaries({ ...f, ext: current.ext }, next);
      await this.writeRecord(next);
      this.unindex(current);
      this.index(next);
      // Formats the new content no longer has.
      const kept = new Set(storedNames(next));
      for (const name of storedNames(current)) if (!kept.has(name)) await this.unlinkIfUnused(name);
      this.emit('media.update', next);
      return next;
    });
  }

  /** Deletes a file: its record, then its binaries. Returns the deleted record. */
  async remove(id: number): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.byIdMap.get(id);
      if (!current) return undefined;
      await unlink(this.recordPath(current.documentId)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.unindex(current);
      this.texts.delete(current.documentId);
      await this.removeBinaries(current);
      this.emit('media.delete', current);
      return current;
    });
  }

  // ---------------------------------------------------------------- changes made by other processes

  /**
   * Reads a record file again (whatever the event about it was: only what is on disk now counts) and
   * follows it: added, changed or gone. A text this library wrote or read last is no change; an unreadable
   * or broken one keeps the last good record. Binaries are left alone: whoever changed the record placed
   * or removed them, and `GET /uploads/` reads them from disk on each request.
   */
  async reloadRecord(documentId: string): Promise<RecordReload> {
    if (!DOCUMENT_ID.test(documentId)) return 'unchanged';
    return this.lock.run('library', async () => {
      let text: string | undefined;
      try {
        text = await readFile(this.recordPath(documentId), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { problem: (err as Error).message };
      }
      const current = this.byDocumentId.get(documentId);
      if (text === undefined) {
        this.texts.delete(documentId);
        if (!current) return 'unchanged';
        this.unindex(current);
        this.emit('media.delete', current);
        return 'deleted';
      }
      if (digestOf(text) === this.texts.get(documentId)) return 'unchanged';
      let next: FileRecord;
      try {
        next = decodeRecord(JSON.parse(text), documentId);
      } catch (err) {
        return { problem: (err as Error).message };
      }
      // An id another file holds (two branches merged) is renumbered in memory, as at start.
      const holder = next.id > 0 ? this.byIdMap.get(next.id) : undefined;
      if (next.id <= 0 || (holder && holder.documentId !== documentId)) next.id = current?.id ?? this.nextId++;
      if (current) this.unindex(current);
      this.index(next);
      this.texts.set(documentId, digestOf(text));
      this.emit(current ? 'media.update' : 'media.create', next);
      return current ? 'updated' : 'created';
    });
  }

  /** The documentIds of the records in memory and of the record files on disk, to compare after a lost event. */
  async recordNames(): Promise<string[]> {
    const names = new Set(this.byDocumentId.keys());
    for (const n of await readdir(this.recordsDir).catch(() => [] as string[]))
      if (n.endsWith('.json') && !n.startsWith(TEMP_MARK)) names.add(n.slice(0, -'.json'.length));
    return [...names];
  }

  // ---------------------------------------------------------------- internals

  /**
   * A fresh numeric id, past every id this process has seen and every id any process handed out (the
   * counter in `.folio/ids/`, read and written under the media lock): a deleted file's id is never given again.
   */
  private issueId(): number {
    const id = issueId(this.stateDir, ID_COUNTER, this.nextId);
    this.nextId = id + 1;
    return id;
  }

  private recordPath(documentId: string) {
    return join(this.recordsDir, `${documentId}.json`);
  }

  private freshDocumentId(): string {
    for (;;) {
      const id = newDocumentId();
      if (!this.byDocumentId.has(id)) return id;
    }
  }

  /** Whether `<hash><ext>` or any of its format names is used by another file or lies on disk. */
  private nameTaken(hash: string, ext: string): boolean {
    const names = [
      `${hash}${ext}`,
      `thumbnail_${hash}${ext}`,
      ...Object.keys(this.config.breakpoints).map((k) => `${k}_${hash}${ext}`),
    ];
    return names.some((n) => this.served.has(n) || existsSync(join(this.uploadsDir, n)));
  }

  private async placeBinaries(f: PreparedFile, record: FileRecord) {
    await mkdir(this.uploadsDir, { recursive: true });
    await rename(f.tmpPath, join(this.uploadsDir, `${record.hash}${record.ext}`));
    for (const fmt of f.formats ?? []) {
      const info = record.formats?.[fmt.key];
      if (info) await rename(fmt.tmpPath, join(this.uploadsDir, `${info.hash}${info.ext}`));
    }
  }

  private async removeBinaries(record: FileRecord) {
    for (const name of storedNames(record)) await this.unlinkIfUnused(name);
  }

  /** Unlinks a stored file unless another record still serves it. */
  private async unlinkIfUnused(name: string) {
    if (this.served.has(name)) return;
    try {
      await unlink(join(this.uploadsDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.warn(`Folio: could not remove ${name}: ${(err as Error).message}`);
    }
  }

  private async writeRecord(record: FileRecord) {
    const text = serializeRecord(record);
    // Known before the rename, so the watcher, however early it reads, sees this library's own text.
    this.texts.set(record.documentId, digestOf(text));
    await writeFileAtomic(this.recordPath(record.documentId), text);
  }

  private index(record: FileRecord) {
    this.byIdMap.set(record.id, record);
    this.byDocumentId.set(record.documentId, record);
    if (record.id >= this.nextId) this.nextId = record.id + 1;
    if (record.provider !== 'local') return;
    const main = `${record.hash}${record.ext}`;
    if (!this.served.has(main)) this.served.set(main, { record });
    for (const [key, f] of Object.entries(record.formats ?? {})) {
      const name = `${f.hash}${f.ext}`;
      if (!this.served.has(name)) this.served.set(name, { record, format: key });
    }
  }

  private unindex(record: FileRecord) {
    if (this.byIdMap.get(record.id)?.documentId === record.documentId) this.byIdMap.delete(record.id);
    this.byDocumentId.delete(record.documentId);
    const freed = new Set<string>();
    for (const [name, hit] of [...this.served]) {
      if (hit.record.documentId === record.documentId) {
        this.served.delete(name);
        freed.add(name);
      }
    }
    // Another record stored under the same name (possible after merging two branches) takes it over.
    if (freed.size) {
      for (const other of this.byIdMap.values()) {
        if (storedNames(other).some((n) => freed.has(n))) this.index(other);
      }
    }
  }

  private emit(event: MediaEvent['event'], media: FileRecord) {
    for (const fn of this.listeners) {
      try {
        fn({ event, media });
      } catch {
        /* a listener's failure never fails the write */
      }
    }
  }

  /**
   * Reads every record; broken ones are reported and skipped. Duplicate ids (after a merge) are renumbered
   * in memory.
   */
  private load() {
    let names: string[];
    try {
      names = readdirSync(this.recordsDir)
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const records: FileRecord[] = [];
    for (const name of names) {
      const file = join(this.recordsDir, name);
      try {
        const text = readFileSync(file, 'utf8');
        const record = decodeRecord(JSON.parse(text), name.slice(0, -'.json'.length));
        records.push(record);
        this.texts.set(record.documentId, digestOf(text));
      } catch (err) {
        this.problems.push({ file, message: (err as Error).message });
      }
    }
    records.sort(
      (a, b) => a.id - b.id || a.createdAt.localeCompare(b.createdAt) || a.documentId.localeCompare(b.documentId),
    );
    for (const r of records) if (r.id > 0 && r.id >= this.nextId) this.nextId = r.id + 1;
    const seen = new Set<number>();
    for (const r of records) {
      if (r.id <= 0 || seen.has(r.id)) r.id = this.nextId++;
      seen.add(r.id);
      this.index(r);
    }
  }
}

function formatsOf(f: PreparedFile, hash: string): Record<string, FormatInfo> | null {
  if (!f.formats?.length) return null;
  const out: Record<string, FormatInfo> = {};
  for (const fmt of f.formats) {
    const fhash = `${fmt.key}_${hash}`;
    out[fmt.key] = {
      name: `${fmt.key}_${f.name}`,
      hash: fhash,
      ext: f.ext,
      mime: f.mime,
      path: null,
      width: fmt.width,
      height: fmt.height,
      size: bytesToKbytes(fmt.sizeInBytes),
      sizeInBytes: fmt.sizeInBytes,
      url: `/uploads/${fhash}${f.ext}`,
    };
  }
  return out;
}

/** The file names a record's binaries are stored under (original and formats). */
export function storedNames(record: FileRecord): string[] {
  if (record.provider !== 'local') return [];
  return [`${record.hash}${record.ext}`, ...Object.values(record.formats ?? {}).map((f) => `${f.hash}${f.ext}`)];
}

/** A record as written to disk: file-object keys in order, 2-space indent, trailing newline. */
export function serializeRecord(record: FileRecord): string {
  const out: Record<string, unknown> = {};
  for (const k of FILE_OBJECT_KEYS) {
    if (k === 'formats' && record.formats) {
      const formats: Record<string, unknown> = {};
      for (const [key, f] of Object.entries(record.formats)) {
        const o: Record<string, unknown> = {};
        for (const fk of FORMAT_KEYS) o[fk] = f[fk] ?? null;
        formats[key] = o;
      }
      out.formats = formats;
    } else {
      out[k] = record[k] ?? null;
    }
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Checks a record read from disk (it may come from any git commit): names must be safe to serve. */
export function decodeRecord(raw: unknown, documentId: string): FileRecord {
  if (!isObject(raw)) throw new Error('an upload record must be a JSON object');
  if (!DOCUMENT_ID.test(documentId) || raw.documentId !== documentId)
    throw new Error(`"documentId" must be "${documentId}", the file's name`);
  const str = (k: string, re?: RegExp): string => {
    const v = raw[k];
    if (typeof v !== 'string' || (re && !re.test(v))) throw new Error(`"${k}" is missing or invalid`);
    return v;
  };
  const optStr = (k: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new Error(`"${k}" must be a string or null`);
    return v;
  };
  const optInt = (k: string, o: Record<string, unknown> = raw): number | null => {
    const v = o[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new Error(`"${k}" must be a whole number or null`);
    return v;
  };
  const provider = raw.provider === undefined ? 'local' : str('provider');
  const hash = str('hash', HASH);
  const ext = raw.ext === undefined || raw.ext === null ? '' : str('ext', EXT);
  const url = str('url');
  if (provider === 'local' && url !== `/uploads/${hash}${ext}`)
    throw new Error(`"url" must be "/uploads/${hash}${ext}" (from "hash" and "ext")`);
  let formats: Record<string, FormatInfo> | null = null;
  if (raw.formats !== undefined && raw.formats !== null) {
    if (!isObject(raw.formats)) throw new Error('"formats" must be an object or null');
    formats = {};
    for (const [key, f] of Object.entries(raw.formats)) {
      if (
        !isObject(f) ||
        typeof f.hash !== 'string' ||
        !HASH.test(f.hash) ||
        typeof f.ext !== 'string' ||
        !EXT.test(f.ext)
      ) {
        throw new Error(`"formats.${key}" needs a valid "hash" and "ext"`);
      }
      const furl = `/uploads/${f.hash}${f.ext}`;
      if (provider === 'local' && f.url !== furl) throw new Error(`"formats.${key}.url" must be "${furl}"`);
      formats[key] = {
        name: typeof f.name === 'string' ? f.name : `${key}_${String(raw.name)}`,
        hash: f.hash,
        ext: f.ext,
        mime: typeof f.mime === 'string' ? f.mime : String(raw.mime),
        path: null,
        width: optInt('width', f),
        height: optInt('height', f),
        size: typeof f.size === 'number' ? f.size : 0,
        sizeInBytes: typeof f.sizeInBytes === 'number' ? f.sizeInBytes : 0,
        url: typeof f.url === 'string' ? f.url : furl,
      };
    }
  }
  let focalPoint: FocalPoint | null = null;
  if (raw.focalPoint !== undefined && raw.focalPoint !== null) {
    const fp = raw.focalPoint;
    if (!isObject(fp) || typeof fp.x !== 'number' || typeof fp.y !== 'number')
      throw new Error('"focalPoint" must be { "x": number, "y": number } or null');
    focalPoint = { x: fp.x, y: fp.y };
  }
  const id = raw.id;
  const createdAt = str('createdAt');
  return {
    id: typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : 0,
    documentId,
    name: str('name'),
    alternativeText: optStr('alternativeText'),
    caption: optStr('caption'),
    focalPoint,
    width: optInt('width'),
    height: optInt('height'),
    formats,
    hash,
    ext,
    mime: str('mime', MIME),
    size: typeof raw.size === 'number' ? raw.size : 0,
    url,
    previewUrl: optStr('previewUrl'),
    provider,
    provider_metadata: raw.provider_metadata ?? null,
    createdAt,
    updatedAt: optStr('updatedAt') ?? createdAt,
    publishedAt: optStr('publishedAt') ?? createdAt,
  };
}

/** A short digest of a record file's text: what `texts` keeps of each. */
const digestOf = (text: string) => createHash('sha256').update(text).digest('base64');
