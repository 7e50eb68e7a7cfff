import type { Version } from './model.js';

export interface DocumentEvent {
  event: string; // Strapi's names: entry.create, entry.update, entry.delete, entry.publish, ...
  uid: string;
  model: string;
  version: Version;
}

type Listener = (e: DocumentEvent) => void;

/** Document events after each committed write: for webhooks and the dev server's live stream. */
export class EventBus {
  private listeners = new Set<Listener>();
  on(fn: Listener) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
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
