import type { Version } from './model.js';
import type { WriteRecord } from './write-record.js';

export interface DocumentEvent {
  event: string; // Strapi's names: entry.create, entry.update, entry.delete, entry.publish, ...
  uid: string;
  model: string;
  version: Version;
}

type Listener = (e: DocumentEvent) => void;

/**
 * Document events after each committed write: for webhooks and the dev server's live stream. And each
 * write as the files it changed, with who made it (`onWrite`): for `folio serve --commit`.
 */
export class EventBus {
  private listeners = new Set<Listener>();
  private writers = new Set<(w: WriteRecord) => void>();
  on(fn: Listener) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  onWrite(fn: (w: WriteRecord) => void) {
    this.writers.add(fn);
    return () => this.writers.delete(fn);
  }
  /** Whether anyone follows writes (texts of written files are kept for them only). */
  get followsWrites() {
    return this.writers.size > 0;
  }
  wrote(w: WriteRecord) {
    for (const fn of this.writers) {
      try {
        fn(w);
      } catch {
        /* a listener's failure never fails the write */
      }
    }
  }
  emit(e: DocumentEvent) {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        /* a listener's failure never fails the write */
      }
    }
  }
}
