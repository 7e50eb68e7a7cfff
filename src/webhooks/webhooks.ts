import type { DocumentEvent } from '../documents/events.js';
import type { Project } from '../project.js';
import { Reader } from '../query/reader.js';
import { deliver } from './deliver.js';

/**
 * Sends the project's webhooks (folio.json `webhooks`) on document and media events, with Strapi's
 * payload: `{ event, createdAt, model, uid, entry }` (or `media` for media events). Deliveries are queued
 * (at most 5 at once) and never block the write that caused them.
 */
export class WebhookDispatcher {
  private queue: Array<() => Promise<void>> = [];
  private active = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private project: Project,
    private log: (m: string) => void = () => undefined,
  ) {}

  /** Subscribes to the project's events; returns the unsubscribe function. */
  start(media?: { onChange(fn: (e: { event: string; media: unknown }) => void): () => void }): () => void {
    const offDocs = this.project.events.on((e) => this.onDocumentEvent(e));
    const offMedia = media?.onChange((e) =>
      this.send(e.event, { event: e.event, createdAt: new Date().toISOString(), media: e.media }),
    );
    return () => {
      offDocs();
      offMedia?.();
    };
  }

  private onDocumentEvent(e: DocumentEvent) {
    if (!this.project.config.webhooks.some((h) => h.enabled && h.events.includes(e.event))) return;
    const ct = this.project.schemas.contentTypes.get(e.uid);
    if (!ct) return;
    // The entry as it is now, populated one level and without private fields; deleted entries as they were.
    const entry = new Reader(this.project).entry(ct, e.version, { populate: e.event !== 'entry.delete' });
    if (e.version.status === 'draft') entry.publishedAt = null;
    this.send(e.event, { event: e.event, createdAt: new Date().toISOString(), model: e.model, uid: e.uid, entry });
  }

  /** Queues a payload for every enabled webhook that listens to `event`. */
  send(event: string, payload: unknown) {
    for (const hook of this.project.config.webhooks) {
      if (!hook.enabled || !hook.events.includes(event)) continue;
      this.queue.push(async () => {
        const r = await deliver(hook, event, payload);
        if (!r.ok)
          this.log(
            `webhook ${hook.name}: ${event} failed after ${r.attempts} attempt(s): ${r.error ?? `HTTP ${r.status}`}`,
          );
      });
    }
    this.pump();
  }

  private pump() {
    while (this.active < 5 && this.queue.length) {
      const job = this.queue.shift()!;
      this.active++;
      void job().finally(() => {
        this.active--;
        this.pump();
        if (!this.active && !this.queue.length) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  /** Resolves when every queued delivery is done (graceful shutdown, tests). */
  idle(): Promise<void> {
    if (!this.active && !this.queue.length) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }
}
