import { mkdir, readdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MediaLibrary } from '../documents/media.js';
import type { Actor, WrittenFile } from '../documents/write-record.js';
import { WrittenMedia } from './written-media.js';
import { nameTaken, placeBinaries, unlinkStored } from './binaries.js';
import { newDocumentId, now } from '../documents/model.js';
import { KeyedLock, TEMP_MARK, fileChanged, removeStrayTemps, writeFileAtomic } from '../store/atomic.js';
import { OutsideContentError, folderInside } from '../store/content-bounds.js';
import { readContentText } from '../store/read-file.js';
import { issueId } from '../store/issued-ids.js';
import { WriteLock } from '../store/write-lock.js';
import { loadUploadConfig, type UploadConfig } from './config.js';
import type { FileRecord, LoadProblem, MediaEvent, PreparedFile, RecordReload } from './file-record.js';
import { MediaIndex } from './library-index.js';
import { bytesToKbytes, contentHashName } from './naming.js';
import {
  DOCUMENT_ID,
  SERVED_NAME,
  decodeRecord,
  digestOf,
  formatsOf,
  newRecord,
  readRecordFiles,
  serializeRecord,
  storedNames,
} from './record-file.js';

export type {
  FileRecord,
  FocalPoint,
  FormatInfo,
  LoadProblem,
  MediaEvent,
  PreparedFile,
  RecordReload,
} from './file-record.js';

/** The name of the media library's counter in `.folio/ids/`. */
const ID_COUNTER = 'upload.file';

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
  private readonly mem = new MediaIndex();
  private lock = new KeyedLock();
  /** Held by the process adding files, so two processes never issue one id (see issueId). */
  private readonly fileLock: WriteLock;
  private readonly stateDir: string;
  /** The digest of each record's file text as this library last wrote or read it: its own changes are no change. */
  private texts = new Map<string, string>();
  private listeners = new Set<(e: MediaEvent) => void>();
  /** Each write as the files it changed, for the project's events (`folio serve --commit`). */
  readonly written: WrittenMedia;

  private constructor(
    readonly contentDir: string,
    public config: UploadConfig,
    readonly warn: (msg: string) => void,
  ) {
    this.uploadsDir = join(contentDir, 'uploads');
    this.recordsDir = join(this.uploadsDir, '_records');
    this.stateDir = join(dirname(contentDir), '.folio');
    this.fileLock = new WriteLock(this.stateDir, 'media');
    this.written = new WrittenMedia(this.recordsDir, this.uploadsDir);
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
    if (typeof ref === 'number') return this.mem.byId.get(ref);
    if (/^\d+$/.test(ref)) return this.mem.byId.get(Number(ref));
    return this.mem.byDocumentId.get(ref);
  }

  byId(id: number): FileRecord | undefined {
    return this.mem.byId.get(id);
  }

  /** Every file, by id. */
  list(): FileRecord[] {
    return [...this.mem.byId.values()].sort((a, b) => a.id - b.id);
  }

  /** The record (and format) a stored file name belongs to, for `GET /uploads/<name>`. */
  servedFile(name: string): { record: FileRecord; format?: string; path: string } | undefined {
    if (!SERVED_NAME.test(name)) return undefined;
    const hit = this.mem.served.get(name);
    return hit ? { ...hit, path: join(this.uploadsDir, name) } : undefined;
  }

  onChange(fn: (e: MediaEvent) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  // ---------------------------------------------------------------- writes

  alone<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run('library', () => this.fileLock.run(fn));
  }

  /**
   * Stores prepared files as one batch: names them by content hash, renames their temp files into place,
   * writes their records. All or nothing: on a failure, what this batch wrote is removed again.
   */
  async add(files: PreparedFile[], actor?: Actor): Promise<FileRecord[]> {
    const done = await this.lock.run('library', () => this.fileLock.run(() => this.addLocked(files)));
    this.written.record(
      actor,
      'upload',
      done,
      done.flatMap((r) => this.written.binaries(r)),
    );
    return done;
  }

  private async addLocked(files: PreparedFile[]): Promise<FileRecord[]> {
    await mkdir(this.recordsDir, { recursive: true });
    const done: FileRecord[] = [];
    try {
      for (const f of files) {
        const hash = contentHashName(f.slug, f.sha256, (h) => this.nameTaken(h, f.ext));
        const documentId =
          f.documentId && !this.mem.byDocumentId.has(f.documentId) ? f.documentId : this.freshDocumentId();
        const record = newRecord(f, hash, this.issueId(), documentId);
        done.push(record);
        await this.placeBinaries(f, record);
        await this.writeRecord(record);
        this.mem.add(record);
      }
    } catch (err) {
      for (const r of done) {
        this.mem.remove(r);
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
    actor?: Actor,
  ): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.mem.byId.get(id);
      if (!current) return undefined;
      const next: FileRecord = { ...current, ...patch, updatedAt: now() };
      await this.writeRecord(next);
      this.mem.remove(current);
      this.mem.add(next);
      this.emit('media.update', next);
      this.written.record(actor, 'update', [next]);
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
    actor?: Actor,
  ): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.mem.byId.get(id);
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
      this.mem.remove(current);
      this.mem.add(next);
      // Formats the new content no longer has.
      const kept = new Set(storedNames(next));
      const gone: WrittenFile[] = [];
      for (const name of storedNames(current))
        if (!kept.has(name) && (await this.unlinkIfUnused(name))) gone.push(this.written.binary(name, null));
      this.emit('media.update', next);
      this.written.record(actor, 'replace', [next], [...this.written.binaries(next), ...gone]);
      return next;
    });
  }

  /** Deletes a file: its record, then its binaries. Returns the deleted record. */
  async remove(id: number, actor?: Actor): Promise<FileRecord | undefined> {
    return this.lock.run('library', async () => {
      const current = this.mem.byId.get(id);
      if (!current) return undefined;
      await unlink(this.recordPath(current.documentId)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      fileChanged(this.recordPath(current.documentId), null);
      this.mem.remove(current);
      this.texts.delete(current.documentId);
      const gone = await this.removeBinaries(current);
      this.emit('media.delete', current);
      this.written.record(
        actor,
        'delete',
        [],
        [{ file: this.recordPath(current.documentId), text: null }, ...gone],
        current,
      );
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
        this.checkInside();
        text = await readContentText(this.recordPath(documentId), this.contentDir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { problem: (err as Error).message };
      }
      const current = this.mem.byDocumentId.get(documentId);
      if (text === undefined) {
        this.texts.delete(documentId);
        if (!current) return 'unchanged';
        this.mem.remove(current);
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
      const holder = next.id > 0 ? this.mem.byId.get(next.id) : undefined;
      if (next.id <= 0 || (holder && holder.documentId !== documentId)) next.id = current?.id ?? this.mem.nextId++;
      if (current) this.mem.remove(current);
      this.mem.add(next);
      this.texts.set(documentId, digestOf(text));
      this.emit(current ? 'media.update' : 'media.create', next);
      return current ? 'updated' : 'created';
    });
  }

  /** The documentIds of the records in memory and of the record files on disk, to compare after a lost event. */
  async recordNames(): Promise<string[]> {
    const names = new Set(this.mem.byDocumentId.keys());
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
    const id = issueId(this.stateDir, ID_COUNTER, this.mem.nextId);
    this.mem.nextId = id + 1;
    return id;
  }

  private recordPath(documentId: string) {
    return join(this.recordsDir, `${documentId}.json`);
  }

  private freshDocumentId(): string {
    for (;;) {
      const id = newDocumentId();
      if (!this.mem.byDocumentId.has(id)) return id;
    }
  }

  private nameTaken(hash: string, ext: string): boolean {
    return nameTaken(this.uploadsDir, hash, ext, this.config.breakpoints, (n) => this.mem.served.has(n));
  }

  /** Media live inside content/ only: a folder that is a link out of it is neither read nor written. */
  private checkInside() {
    for (const dir of [this.uploadsDir, this.recordsDir])
      if (!folderInside(this.contentDir, dir)) throw new OutsideContentError(dir);
  }

  private async placeBinaries(f: PreparedFile, record: FileRecord) {
    this.checkInside();
    await placeBinaries(this.uploadsDir, f, record);
  }

  /** Removes a record's binaries no other record serves; answers them as removed files. */
  private async removeBinaries(record: FileRecord): Promise<WrittenFile[]> {
    const gone: WrittenFile[] = [];
    for (const name of storedNames(record))
      if (await this.unlinkIfUnused(name)) gone.push(this.written.binary(name, null));
    return gone;
  }

  /** Unlinks a stored file unless another record still serves it; answers whether it is gone now. */
  private async unlinkIfUnused(name: string): Promise<boolean> {
    return !this.mem.served.has(name) && unlinkStored(this.uploadsDir, name, this.warn);
  }

  private async writeRecord(record: FileRecord) {
    this.checkInside();
    const text = serializeRecord(record);
    // Known before the rename, so the watcher, however early it reads, sees this library's own text.
    this.texts.set(record.documentId, digestOf(text));
    await writeFileAtomic(this.recordPath(record.documentId), text);
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

  /** Reads every record; broken ones are reported and skipped. */
  private load() {
    const { records, texts, problems } = readRecordFiles(this.recordsDir, this.contentDir);
    this.problems.push(...problems);
    for (const [documentId, digest] of texts) this.texts.set(documentId, digest);
    this.mem.fill(records);
  }
}
