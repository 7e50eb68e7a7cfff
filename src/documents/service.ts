import { FolioError, validationError, type FieldProblem } from '../errors.js';
import type { FolioConfig } from '../config.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { Store } from '../store/store.js';
import { DocumentIndex, pickVersion } from './doc-index.js';
import { DocumentWrites, cloneDocument, workingSet } from './document-writes.js';
import { parseInput } from './input.js';
import { Linking } from './linking.js';
import { discardStep, type LifecycleStep, publishStep, runLifecycle, unpublishStep } from './lifecycle.js';
import { copySharedFields, firstVersion, publishedCopy, syncSharedFields, writeLocale } from './locale-versions.js';
import type { MediaLibrary } from './media.js';
import { detachMedia, linkMedia, type MediaLinkContext } from './media-links.js';
import { hashPasswordValues } from './passwords.js';
import { checkPublishable, publishProblems } from './publish-checks.js';
import {
  type LoadHooks,
  type ReindexResult,
  type ReloadContext,
  loadHooks,
  refreshDocument,
  reloadDocument,
} from './reloads.js';
import {
  type DocumentRecord,
  type Slot,
  type Status,
  type Version,
  NO_LOCALE,
  SlotMap,
  newDocumentId,
  now,
} from './model.js';
import { EventBus } from './events.js';
import { IndexedTexts } from './indexed-texts.js';
import { UniqueValues } from './unique-values.js';
import type { Actor } from './write-record.js';
import { valuesProblem } from './stored-values.js';
import {
  type LocalesChange,
  type LocalesChangeResult,
  commitLocalesChange,
  localesChangeResult,
  planLocalesChange,
} from './locales-change-plan.js';
import { type RenumberedVersion, rewriteRenumbered } from './renumbering.js';

export type { LoadHooks } from './reloads.js';
export type { LocalesChange, LocalesChangeResult } from './locales-change-plan.js';
export type { RenumberedVersion } from './renumbering.js';

export interface WriteOptions {
  status?: Status;
  locale?: string;
  /** Who makes the write (the author of its commit under `folio serve --commit`), and what it is called there. */
  actor?: Actor;
  action?: string;
}
export interface DeleteOptions {
  locale?: string;
  actor?: Actor;
}

/** How a write is named in its record: its verb, and whether it also publishes on a type with draft & publish. */
const writeAction = (ct: ContentType, verb: string, publishing: boolean) =>
  !ct.draftAndPublish ? verb : publishing ? `${verb} and publish` : `${verb} draft`;

/**
 * The document service: the rules of versions, locales, relations and components over the store and its
 * in-memory index. The HTTP layer and the CLI both go through it; it knows nothing of either. The work is
 * done by the modules it holds: file writes (document-writes), relation and media linking (linking,
 * media-links), publish checks (publish-checks) and re-indexing from the files (reloads).
 */
export class DocumentService {
  readonly index = new DocumentIndex();
  /** The values of unique fields (and every uid) in published versions: who holds each. */
  readonly unique = new UniqueValues(this.index, () => this.schemas);
  private readonly writes: DocumentWrites;
  private readonly linking: Linking;
  private readonly reloads: ReloadContext;
  private readonly mediaLinks: MediaLinkContext;

  constructor(
    readonly schemas: SchemaRegistry,
    readonly config: FolioConfig,
    readonly store: Store,
    readonly media: MediaLibrary,
    /** Shared with the project so listeners survive a reload of schemas. */
    readonly events: EventBus = new EventBus(),
  ) {
    const texts = new IndexedTexts();
    const typeOf = (uid: string) => this.contentType(uid);
    this.writes = new DocumentWrites(store, this.index, typeOf, this.checkValues, texts, events);
    this.linking = new Linking(schemas, config, this.index, this.writes, media, (name) => this.contentType(name));
    this.reloads = {
      store,
      index: this.index,
      texts,
      lock: this.writes.lock,
      checkValues: this.checkValues,
      emit: (event, ct, version) => this.emit(event, ct, version),
      onProblem: (problem) => this.onProblem?.(problem),
    };
    this.mediaLinks = { schemas, index: this.index, writes: this.writes };
  }

  /** Resolves when every write that was accepted has reached the disk. */
  idle(): Promise<void> {
    return this.writes.idle();
  }

  /**
   * Follows one document file after a change on disk (another process, an editor, a git checkout): nothing
   * to do when the index was taken from the very text the file holds (this process wrote it); else the file is
   * indexed again. A broken file keeps the last good version in the index and is reported. Returns what happened.
   */
  reloadDocument(ct: ContentType, documentId: string): Promise<ReindexResult> {
    return reloadDocument(this.reloads, ct, documentId);
  }

  /** Indexes one document again from its file as it is now (read under the document's lock). */
  refreshDocument(ct: ContentType, documentId: string) {
    return refreshDocument(this.reloads, ct, documentId);
  }

  /**
   * What filling the index at start needs of this service: files that changed since they were indexed
   * are indexed again, and values are checked by the write rules (unless `checkValues` is false).
   */
  loadHooks(checkValues = true): LoadHooks {
    return loadHooks(this.reloads, checkValues);
  }

  /** Told of a document file found invalid after the load report was made (see `loadHooks`). */
  onProblem?: (problem: { file: string; message: string }) => void;

  /** The write rules a document file's values must pass to be served (see storedValueProblems); a message if not. */
  private checkValues = (ct: ContentType, body: Record<string, unknown>) =>
    valuesProblem(this.schemas, this.config, ct, body);

  contentType(name: string): ContentType {
    const ct = this.schemas.find(name);
    if (!ct) throw new FolioError(404, 'NotFoundError', `Unknown content-type "${name}"`, {});
    return ct;
  }

  // ---------------------------------------------------------------- reads

  /** Resolves the `locale` a request addresses on a type: null when the type is not localized. */
  localeFor(ct: ContentType, locale: string | undefined): string | null {
    if (!ct.localized) return null;
    return locale ?? this.config.defaultLocale;
  }

  findVersion(ct: ContentType, documentId: string, status: Status, locale: string | undefined): Version | undefined {
    const doc = this.index.get(ct.uid, documentId);
    if (!doc) return undefined;
    const code = this.localeFor(ct, locale);
    if (code === '*') return undefined;
    const slot = doc.slots.get(code ?? NO_LOCALE);
    return slot ? pickVersion(ct, slot, status) : undefined;
  }

  /** The one document of a single type, if any. */
  singleDocument(ct: ContentType): DocumentRecord | undefined {
    for (const doc of this.index.documents(ct.uid)) return doc;
    return undefined;
  }

  // ---------------------------------------------------------------- writes

  async create(ctName: string, data: Record<string, unknown>, opts: WriteOptions = {}): Promise<Version> {
    const ct = this.contentType(ctName);
    const locale = this.writeLocale(ct, opts.locale);
    const input = await this.parse(ct, data, locale);
    const documentId = newDocumentId();
    const publishing = !ct.draftAndPublish || opts.status !== 'draft';
    return this.writes.writing(ct, documentId, async () => {
      this.writes.describe({ actor: opts.actor, action: opts.action ?? writeAction(ct, 'create', publishing), locale });
      this.writes.expectAbsent(ct, documentId);
      const doc: DocumentRecord = { uid: ct.uid, documentId, slots: new SlotMap() };
      const slot: Slot = {};
      doc.slots.set(locale ?? NO_LOCALE, slot);
      const draft = firstVersion(ct, documentId, locale, now());
      const touched = workingSet(doc);
      this.linking.applyInput(ct, doc, draft, input, touched);
      if (publishing) checkPublishable(this.schemas, this.unique, ct, draft, input, true);
      if (ct.draftAndPublish) {
        slot.draft = draft;
        if (publishing) slot.published = publishedCopy(draft);
      } else {
        slot.published = draft;
      }
      // Its unique values, checked above, are held for it until it is indexed.
      const release = publishing ? this.unique.claim(ct, draft) : undefined;
      await this.writes.commit(ct, doc, touched).finally(release);
      this.emit('entry.create', ct, draft);
      if (ct.draftAndPublish && publishing) this.emit('entry.publish', ct, slot.published!);
      return publishing ? (slot.published ?? draft) : draft;
    });
  }

  /**
   * Applies `data` to the addressed locale: the draft on D&P types (then publishes unless `status=draft`),
   * the single version otherwise. A locale the document does not have yet is created from the shared fields.
   * Returns undefined when the document does not exist in any locale.
   */
  async update(
    ctName: string,
    documentId: string,
    data: Record<string, unknown>,
    opts: WriteOptions = {},
  ): Promise<Version | undefined> {
    const ct = this.contentType(ctName);
    const locale = this.writeLocale(ct, opts.locale);
    const input = await this.parse(ct, data, locale);
    const publishing = !ct.draftAndPublish || opts.status !== 'draft';
    return this.writes.writing(ct, documentId, async () => {
      const current = this.writes.current(ct, documentId);
      if (!current) return undefined;
      const doc = cloneDocument(current);
      const key = locale ?? NO_LOCALE;
      let slot = doc.slots.get(key);
      const t = now();
      let created = false;
      if (!slot) {
        slot = {};
        doc.slots.set(key, slot);
        created = true;
        const v = firstVersion(ct, documentId, locale, t);
        copySharedFields(ct, current, v);
        if (ct.draftAndPublish) slot.draft = v;
        else slot.published = v;
      }
      const action = opts.action ?? writeAction(ct, created ? 'create' : 'update', publishing);
      this.writes.describe({ actor: opts.actor, action, locale });
      const target = ct.draftAndPublish ? slot.draft! : slot.published!;
      const touched = workingSet(doc);
      this.linking.applyInput(ct, doc, target, input, touched);
      target.updatedAt = t;
      if (publishing) checkPublishable(this.schemas, this.unique, ct, target, input, created);
      if (!ct.draftAndPublish) target.publishedAt = t;
      else if (publishing) slot.published = publishedCopy(target);
      syncSharedFields(ct, doc, key, target);
      if (ct.draftAndPublish && publishing) syncSharedFields(ct, doc, key, slot.published!);
      const release = publishing ? this.unique.claim(ct, target) : undefined;
      await this.writes.commit(ct, doc, touched).finally(release);
      this.emit(created ? 'entry.create' : 'entry.update', ct, target);
      if (ct.draftAndPublish && publishing) this.emit('entry.publish', ct, slot.published!);
      return publishing ? (slot.published ?? target) : target;
    });
  }

  /**
   * Deletes every version of the addressed locale (`'*'`: all locales). Relations that pointed at the
   * versions removed (every version, when the document is gone entirely) are removed from their sources in
   * the same write. Returns the number of versions removed.
   */
  async delete(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<number> {
    const ct = this.contentType(ctName);
    const locale = ct.localized ? (opts.locale ?? this.config.defaultLocale) : null;
    return this.writes.writing(ct, documentId, async () => {
      this.writes.describe({ actor: opts.actor, action: 'delete', locale: locale === '*' ? null : locale });
      const current = this.writes.current(ct, documentId);
      if (!current) return 0;
      const doc = cloneDocument(current);
      const removed: Version[] = [];
      for (const [code, slot] of [...doc.slots]) {
        if (locale !== null && locale !== '*' && code !== locale) continue;
        if (slot.draft) removed.push(slot.draft);
        if (slot.published) removed.push(slot.published);
        doc.slots.delete(code);
      }
      if (!removed.length) return 0;
      if (doc.slots.size === 0) {
        this.linking.deleting.add(`${ct.uid}/${documentId}`);
        try {
          const touched = await this.linking.detachEverywhere(ct, documentId);
          await this.writes.commit(undefined, undefined, touched, { ct, documentId });
        } finally {
          this.linking.deleting.delete(`${ct.uid}/${documentId}`);
        }
      } else {
        const touched = workingSet(doc);
        if (locale !== null && locale !== '*') await this.linking.detachLocale(ct, documentId, locale, touched);
        await this.writes.commit(ct, doc, touched);
      }
      for (const v of removed) this.emit('entry.delete', ct, v);
      return removed.length;
    });
  }

  /** Publishes the draft of a locale (the document service's `publish`; over REST a PUT does this). */
  async publish(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    await this.unique.ready(this.contentType(ctName));
    return this.lifecycle(ctName, documentId, opts, 'publish', publishStep(this.schemas, this.unique));
  }

  /** Removes the published version of a locale, keeping the draft. */
  async unpublish(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    return this.lifecycle(ctName, documentId, opts, 'unpublish', unpublishStep);
  }

  /** Replaces the draft of a locale with a copy of its published version. */
  async discardDraft(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    return this.lifecycle(ctName, documentId, opts, 'discard draft', discardStep);
  }

  private lifecycle(ctName: string, documentId: string, opts: DeleteOptions, action: string, step: LifecycleStep) {
    const ct = this.contentType(ctName);
    if (!ct.draftAndPublish) throw validationError(`${ct.uid} does not use draft & publish`);
    const locale = this.writeLocale(ct, opts.locale);
    const note = { actor: opts.actor, action, locale };
    return runLifecycle(this.writes, (e, t, v) => this.emit(e, t, v), ct, documentId, locale ?? NO_LOCALE, step, note);
  }

  // ---------------------------------------------------------------- media links

  /**
   * Appends a media file to a media field of the version with numeric `id` (the upload plugin's
   * `ref` / `refId` / `field`); a single media field is replaced. Returns false when there is no such version.
   */
  linkMedia(ctName: string, versionId: number, field: string, fileDocumentId: string, actor?: Actor) {
    return linkMedia(this.mediaLinks, this.contentType(ctName), versionId, field, fileDocumentId, actor);
  }

  /** Removes a deleted media file from every media field (also inside components and zones) that used it. */
  detachMedia(fileDocumentId: string, actor?: Actor): Promise<number> {
    return detachMedia(this.mediaLinks, fileDocumentId, actor);
  }

  // ---------------------------------------------------------------- locales

  /**
   * What `changeLocales` would do, from the index (nothing is written): the warning before a locale is removed.
   */
  previewLocalesChange(next: LocalesChange): LocalesChangeResult {
    const read = (ct: ContentType, id: string) => this.index.get(ct.uid, id);
    return localesChangeResult(planLocalesChange(this.schemas, this.config, this.index, next, read));
  }

  /**
   * Changes the default locale to `next.defaultLocale` and removes `next.removed`, as one write under the
   * project's write lock: links from types without locales keep naming the same versions (a bare link names
   * the default locale's, see file-format.ts), the versions in the removed locale go and so do the links
   * naming it (as Strapi deletes a locale's entries and their join rows), and documents left without any
   * version are removed. `save` writes the new settings first and answers how to put them back, which is done
   * when the documents cannot all be written.
   */
  async changeLocales(
    next: LocalesChange,
    save: () => Promise<() => Promise<void>>,
    actor?: Actor,
  ): Promise<LocalesChangeResult> {
    const emit = (event: string, ct: ContentType, v: Version) => this.emit(event, ct, v);
    return commitLocalesChange(this.schemas, this.config, this.index, this.writes, emit, next, save, actor);
  }

  // ---------------------------------------------------------------- id clashes

  /**
   * Rewrites the file of every document holding a version renumbered in memory (an id clash after a
   * merge, or a version without an id), which gives those versions fresh ids there, so every file's ids
   * are its own again. Answers each rewritten version's old and new id.
   */
  rewriteRenumbered(): Promise<RenumberedVersion[]> {
    return rewriteRenumbered(this.schemas, this.index, this.writes);
  }

  // ---------------------------------------------------------------- internals

  /** A write body checked against the schema (required fields only where nothing is a draft), passwords hashed. */
  private async parse(ct: ContentType, data: Record<string, unknown>, locale: string | null) {
    const input = parseInput(this.schemas, ct.attributes, data, !ct.draftAndPublish, {
      localized: ct.localized,
      draftAndPublish: ct.draftAndPublish,
      locale,
    });
    await hashPasswordValues(this.schemas, ct.attributes, input.values);
    // The values of the type's unique fields are known before the write checks its own against them.
    await this.unique.ready(ct);
    return input;
  }

  private writeLocale(ct: ContentType, locale: string | undefined): string | null {
    return writeLocale(this.config, ct, locale);
  }

  /**
   * What keeps a stored version from being publishable (required fields, minimums, formats), for
   * `folio validate`. Unique values are left to the caller, which can check them all at once.
   */
  publishProblems(ct: ContentType, v: Version): FieldProblem[] {
    return publishProblems(this.schemas, ct, v);
  }

  private emit(event: string, ct: ContentType, version: Version) {
    this.events.emit({ event, uid: ct.uid, model: ct.singularName, version });
  }
}
