import { join } from 'node:path';
import type { EventBus } from '../documents/events.js';
import type { Actor, WrittenFile } from '../documents/write-record.js';
import type { FileRecord } from './file-record.js';
import { serializeRecord, storedNames } from './record-file.js';

/**
 * The media library's writes as the files each changed (its records, with their texts, and its binaries),
 * told to the project's events (`EventBus.onWrite`) for `folio serve --commit`.
 */
export class WrittenMedia {
  /** Set by the project that opened the library. */
  journal?: EventBus;

  constructor(
    private readonly recordsDir: string,
    private readonly uploadsDir: string,
  ) {}

  /** A stored binary as a written file: its bytes are read from disk when committed (null: removed). */
  binary(name: string, text?: null): WrittenFile {
    return { file: join(this.uploadsDir, name), text };
  }

  binaries(record: FileRecord): WrittenFile[] {
    return storedNames(record).map((n) => this.binary(n));
  }

  /** One write: the records it wrote (named by the first, or by `named`), and the other files it changed. */
  record(
    actor: Actor | undefined,
    action: string,
    records: FileRecord[],
    more: WrittenFile[] = [],
    named?: FileRecord,
  ) {
    if (!this.journal?.followsWrites) return;
    const first = named ?? records[0];
    const subject =
      records.length > 1 ? `${records.length} media files` : `media file ${JSON.stringify(first?.name ?? '')}`;
    const files = records.map((r) => ({
      file: join(this.recordsDir, `${r.documentId}.json`),
      text: serializeRecord(r),
    }));
    this.journal.wrote({ actor, subject, action, files: [...files, ...more] });
  }
}
