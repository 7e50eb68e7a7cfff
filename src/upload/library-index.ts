import type { FileRecord } from './file-record.js';
import { storedNames } from './record-file.js';

/**
 * The media library's records in memory: by numeric id, by documentId, and by the stored file names they
 * serve. Two records may claim one id or one stored name after two branches are merged: the first indexed keeps
 * it, and `fill` renumbers the later ones in memory.
 */
export class MediaIndex {
  readonly byId = new Map<number, FileRecord>();
  readonly byDocumentId = new Map<string, FileRecord>();
  /** Stored file name -> the record it belongs to, and which format (undefined: the original). */
  readonly served = new Map<string, { record: FileRecord; format?: string }>();
  /** Past every id indexed. */
  nextId = 1;

  /** Indexes the records read at start, in id order; duplicate ids (after a merge) are renumbered in memory. */
  fill(records: FileRecord[]) {
    records.sort(
      (a, b) => a.id - b.id || a.createdAt.localeCompare(b.createdAt) || a.documentId.localeCompare(b.documentId),
    );
    for (const r of records) if (r.id > 0 && r.id >= this.nextId) this.nextId = r.id + 1;
    const seen = new Set<number>();
    for (const r of records) {
      if (r.id <= 0 || seen.has(r.id)) r.id = this.nextId++;
      seen.add(r.id);
      this.add(r);
    }
  }

  add(record: FileRecord) {
    this.byId.set(record.id, record);
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

  remove(record: FileRecord) {
    if (this.byId.get(record.id)?.documentId === record.documentId) this.byId.delete(record.id);
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
      for (const other of this.byId.values()) {
        if (storedNames(other).some((n) => freed.has(n))) this.add(other);
      }
    }
  }
}
