import { AsyncLocalStorage } from 'node:async_hooks';
import { FolioError, fieldErrors, notFound, validationError, type FieldProblem } from '../errors.js';
import type { FolioConfig } from '../config.js';
import type { SchemaRegistry } from '../schema/registry.js';
import {
  type Attribute,
  type ContentType,
  type RelationAttribute,
  isLocalizedAttribute,
  isOwningSide,
  isRelation,
  isScalar,
  isToMany,
} from '../schema/types.js';
import { type DiskStamp, type Store, StaleFileError, textDigest } from '../store/store.js';
import { parseDocumentText } from '../store/document-text.js';
import { KeyedLock } from '../store/atomic.js';
import { decodeDocument, encodeDocument } from './file-format.js';
import { DocumentIndex, pickVersion } from './doc-index.js';
import { collected, emptyValue, parseInput, type ParsedInput, type RelationOp, type RelationRef } from './input.js';
import { refusedMediaType, type MediaLibrary } from './media.js';
import { hashPasswordValues } from './passwords.js';
import {
  type DocumentRecord,
  type Slot,
  type Status,
  type Version,
  NO_LOCALE,
  SlotMap,
  copyVersion,
  newDocumentId,
  now,
  versions,
} from './model.js';
import { applyRelationOp, inverseEditsAcrossLocales } from './relations.js';
import { defaultValue, publishChecks, typeMessage, yupTypeOf } from './values.js';
import { EventBus } from './events.js';
import { valuesProblem } from '../validate/stored-values.js';

export interface WriteOptions {
  status?: Status;
  locale?: string;
}
export interface DeleteOptions {
  locale?: string;
}

/** What filling the index needs of the service: the rules a file's values pass, and what to do with late findings. */
export interface LoadHooks {
  onStale: (ct: ContentType, doc: DocumentRecord) => void;
  check?: (ct: ContentType, body: Record<string, unknown>) => string | undefined;
  onInvalid?: (ct: ContentType, doc: DocumentRecord, problem: string) => void;
  /** The load's report once made: problems found later are added to it. */
  report?: { problems: Array<{ file: string; message: string }> };
}

/**
 * The document service: the rules of versions, locales, relations and components over the store and its
 * in-memory index. The HTTP layer and the CLI both go through it; it knows nothing of either.
 */
export class DocumentService {
  readonly index = new DocumentIndex();
  private lock = new KeyedLock();

  constructor(
    readonly schemas: SchemaRegistry,
    readonly config: FolioConfig,
    readonly store: Store,
    readonly media: MediaLibrary,
    /** Shared with the project so listeners survive a reload of schemas. */
    readonly events: EventBus = new EventBus(),
  ) {}

  /** Resolves when every write that was accepted has reached the disk. */
  idle(): Promise<void> {
    return this.lock.idle();
  }

  /**
   * Re-reads one document file after a change on disk (another process, an editor, a git checkout).
   * A file this process wrote itself is skipped. A broken file keeps the last good version in the index
   * and is reported. Returns what happened.
   */
  async reloadDocument(
    ct: ContentType,
    documentId: string,
    file: string,
    text: string | undefined,
  ): Promise<'own' | 'updated' | 'removed' | 'unchanged' | { problem: string }> {
    if (this.store.isOwnWrite(file, text)) return 'own';
    // The file held something else than this process wrote: a later return to that text (a file moved
    // back, a git switch) is a change to index, not an own write.
    this.store.forgetOwnWrites(file);
    return this.reindex(ct, documentId, () => (text === undefined ? undefined : parseDocumentText(text, documentId)));
  }

  /** Indexes one document again from its file as it is now (read under the document's lock). */
  refreshDocument(ct: ContentType, documentId: string) {
    this.store.forgetOwnWrites(this.store.fileOf(ct.pluralName, documentId));
    return this.reindex(ct, documentId, () => this.store.readDocument(ct.pluralName, documentId)?.body);
  }

  /** Indexes one document again from `body()` (its file's, read under the document's lock; undefined: gone). */
  private reindex(
    ct: ContentType,
    documentId: string,
    body: () => Record<string, unknown> | undefined,
  ): Promise<'updated' | 'removed' | 'unchanged' | { problem: string }> {
    return this.lock.run(`${ct.uid}/${documentId}`, async () => {
      const existed = this.index.get(ct.uid, documentId);
      let read: Record<string, unknown> | undefined;
      try {
        read = body();
      } catch (err) {
        return { problem: (err as Error).message };
      }
      if (read === undefined) {
        if (!existed) return 'unchanged';
        this.index.remove(ct.uid, documentId);
        for (const v of versions(existed)) this.emit('entry.delete', ct, v);
        return 'removed';
      }
      try {
        const doc = decodeDocument(ct, documentId, read);
        const problem = this.checkValues(ct, read);
        if (problem) return { problem };
        this.index.put(doc);
        const first = versions(doc)[0];
        if (first) this.emit(existed ? 'entry.update' : 'entry.create', ct, first);
        return 'updated';
      } catch (err) {
        return { problem: (err as Error).message };
      }
    });
  }

  /**
   * What filling the index at start needs of this service: files that changed since they were indexed
   * are indexed again, and values are checked by the write rules (unless `checkValues` is false).
   */
  loadHooks(checkValues = true): LoadHooks {
    // A document decoded from a file that changed since start: indexed again, as a change on disk is
    // (unless written or removed here since, which indexed it already).
    const onStale = (ct: ContentType, doc: DocumentRecord) => {
      if (this.index.get(ct.uid, doc.documentId) !== doc) return;
      void this.reindex(ct, doc.documentId, () => this.store.readDocument(ct.pluralName, doc.documentId)?.body);
    };
    const hooks: LoadHooks = { onStale };
    if (!checkValues) return hooks;
    // A document decoded after start (read on a thread, or from the snapshot) whose values fail the write
    // rules: taken out of the index, as it would not have been indexed had it been checked at start.
    hooks.check = this.checkValues;
    hooks.onInvalid = (ct: ContentType, doc: DocumentRecord, message: string) => {
      const file = this.store.fileOf(ct.pluralName, doc.documentId);
      hooks.report?.problems.push({ file, message });
      this.onProblem?.({ file, message });
      void this.lock.run(`${ct.uid}/${doc.documentId}`, async () => {
        if (this.index.get(ct.uid, doc.documentId) === doc) this.index.remove(ct.uid, doc.documentId);
      });
    };
    return hooks;
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
    const input = parseInput(this.schemas, ct.attributes, data, !ct.draftAndPublish, {
      localized: ct.localized,
      draftAndPublish: ct.draftAndPublish,
      locale,
    });
    await hashPasswordValues(this.schemas, ct.attributes, input.values);
    const documentId = newDocumentId();
    return this.writing(ct, documentId, async () => {
      this.reads.getStore()?.set(`${ct.pluralName}/${documentId}`, null);
      const doc: DocumentRecord = { uid: ct.uid, documentId, slots: new SlotMap() };
      const slot: Slot = {};
      doc.slots.set(locale ?? NO_LOCALE, slot);
      const draft = this.firstVersion(ct, documentId, locale, now());
      const touched = workingSet(doc);
      this.applyInput(ct, doc, draft, input, touched);
      const publishing = !ct.draftAndPublish || opts.status !== 'draft';
      if (publishing) this.checkPublishable(ct, draft, input, true);
      if (ct.draftAndPublish) {
        slot.draft = draft;
        if (publishing) slot.published = this.publishedCopy(draft);
      } else {
        slot.published = draft;
      }
      await this.commit(ct, doc, touched);
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
    const input = parseInput(this.schemas, ct.attributes, data, !ct.draftAndPublish, {
      localized: ct.localized,
      draftAndPublish: ct.draftAndPublish,
      locale,
    });
    await hashPasswordValues(this.schemas, ct.attributes, input.values);
    return this.writing(ct, documentId, async () => {
      const current = this.current(ct, documentId);
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
        const v = this.firstVersion(ct, documentId, locale, t);
        // Shared (non-localized) fields come from an existing locale, the published version preferred.
        const source = [...current.slots.values()].map((s) => s.published ?? s.draft).find(Boolean);
        if (source)
          for (const [name, attr] of Object.entries(ct.attributes)) {
            if (!isLocalizedAttribute(attr) && name in source.data) v.data[name] = structuredClone(source.data[name]);
          }
        if (ct.draftAndPublish) slot.draft = v;
        else slot.published = v;
      }
      const target = ct.draftAndPublish ? slot.draft! : slot.published!;
      const touched = workingSet(doc);
      this.applyInput(ct, doc, target, input, touched);
      target.updatedAt = t;
      const publishing = !ct.draftAndPublish || opts.status !== 'draft';
      if (publishing) this.checkPublishable(ct, target, input, created);
      if (!ct.draftAndPublish) target.publishedAt = t;
      else if (publishing) slot.published = this.publishedCopy(target);
      this.syncSharedFields(ct, doc, key, target);
      if (ct.draftAndPublish && publishing) this.syncSharedFields(ct, doc, key, slot.published!);
      await this.commit(ct, doc, touched);
      this.emit(created ? 'entry.create' : 'entry.update', ct, target);
      if (ct.draftAndPublish && publishing) this.emit('entry.publish', ct, slot.published!);
      return publishing ? (slot.published ?? target) : target;
    });
  }

  /**
   * Deletes every version of the addressed locale (`'*'`: all locales). Relations that pointed at a
   * document that is gone entirely are removed from their sources in the same write. Returns the number of
   * versions removed.
   */
  async delete(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<number> {
    const ct = this.contentType(ctName);
    const locale = ct.localized ? (opts.locale ?? this.config.defaultLocale) : null;
    return this.writing(ct, documentId, async () => {
      const current = this.current(ct, documentId);
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
        await this.commit(undefined, undefined, this.detachEverywhere(ct, documentId), { ct, documentId });
      } else {
        await this.commit(ct, doc, new Map());
      }
      for (const v of removed) this.emit('entry.delete', ct, v);
      return removed.length;
    });
  }

  /** Publishes the draft of a locale (the document service's `publish`; over REST a PUT does this). */
  async publish(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    return this.lifecycle(ctName, documentId, opts.locale, (ct, doc, slot, key) => {
      if (!slot.draft) return undefined;
      this.checkPublishable(ct, slot.draft, undefined, false);
      slot.published = this.publishedCopy(slot.draft);
      this.syncSharedFields(ct, doc, key, slot.published);
      return { event: 'entry.publish', version: slot.published };
    });
  }

  /** Removes the published version of a locale, keeping the draft. */
  async unpublish(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    return this.lifecycle(ctName, documentId, opts.locale, (_ct, _doc, slot) => {
      if (!slot.published) return undefined;
      const gone = slot.published;
      delete slot.published;
      return { event: 'entry.unpublish', version: slot.draft ?? gone };
    });
  }

  /** Replaces the draft of a locale with a copy of its published version. */
  async discardDraft(ctName: string, documentId: string, opts: DeleteOptions = {}): Promise<Version | undefined> {
    return this.lifecycle(ctName, documentId, opts.locale, (_ct, _doc, slot) => {
      if (!slot.published) return undefined;
      // The published version's updatedAt stays, as in Strapi: the draft reads as unmodified.
      slot.draft = copyVersion(slot.published, {
        id: 0,
        status: 'draft',
        publishedAt: null,
        data: structuredClone(slot.published.data),
      });
      return { event: 'entry.draft-discard', version: slot.draft };
    });
  }

  private async lifecycle(
    ctName: string,
    documentId: string,
    locale: string | undefined,
    fn: (
      ct: ContentType,
      doc: DocumentRecord,
      slot: Slot,
      key: string,
    ) => { event: string; version: Version } | undefined,
  ): Promise<Version | undefined> {
    const ct = this.contentType(ctName);
    if (!ct.draftAndPublish) throw validationError(`${ct.uid} does not use draft & publish`);
    const code = this.writeLocale(ct, locale) ?? NO_LOCALE;
    return this.writing(ct, documentId, async () => {
      const current = this.current(ct, documentId);
      if (!current) throw notFound();
      const doc = cloneDocument(current);
      const slot = doc.slots.get(code);
      if (!slot) throw notFound();
      const result = fn(ct, doc, slot, code);
      if (!result) return undefined;
      await this.commit(ct, doc, new Map());
      this.emit(result.event, ct, result.version);
      return result.version;
    });
  }

  // ---------------------------------------------------------------- media links

  /**
   * Appends a media file to a media field of the version with numeric `id` (the upload plugin's
   * `ref` / `refId` / `field`); a single media field is replaced. Returns false when there is no such version.
   */
  async linkMedia(ctName: string, versionId: number, field: string, fileDocumentId: string): Promise<boolean> {
    const ct = this.contentType(ctName);
    const attr = ct.attributes[field];
    if (!attr || attr.type !== 'media') throw validationError(`${field} is not a media field of ${ct.uid}`);
    const found = this.index.byId(ct.uid, versionId);
    if (!found) return false;
    return this.writing(ct, found.documentId, async () => {
      const current = this.current(ct, found.documentId);
      if (!current) return false;
      const doc = cloneDocument(current);
      const v = versions(doc).find((x) => x.id === versionId);
      if (!v) return false;
      // Linking a published version also links its draft, so the next publish keeps the file.
      const slot = doc.slots.get(v.locale ?? NO_LOCALE);
      const targets = v.status === 'published' && slot?.draft ? [v, slot.draft] : [v];
      for (const t of targets)
        t.data[field] = attr.multiple ? [...toList(t.data[field]), fileDocumentId] : fileDocumentId;
      await this.commit(ct, doc, new Map());
      return true;
    });
  }

  /** Removes a deleted media file from every media field (also inside components and zones) that used it. */
  async detachMedia(fileDocumentId: string): Promise<number> {
    let changed = 0;
    const strip = (attrs: Record<string, Attribute>, data: Record<string, unknown>): boolean => {
      let hit = false;
      for (const [name, attr] of Object.entries(attrs)) {
        const value = data[name];
        if (attr.type === 'media') {
          if (value === fileDocumentId) {
            data[name] = null;
            hit = true;
          } else if (Array.isArray(value) && value.includes(fileDocumentId)) {
            data[name] = value.filter((x) => x !== fileDocumentId);
            hit = true;
          }
        } else if (attr.type === 'component' || attr.type === 'dynamiczone') {
          const items = Array.isArray(value) ? value : value ? [value] : [];
          for (const item of items as Array<Record<string, unknown>>) {
            const uid = attr.type === 'component' ? attr.component : (item.__component as string);
            const comp = this.schemas.components.get(uid);
            if (comp && strip(comp.attributes, item)) hit = true;
          }
        }
      }
      return hit;
    };
    for (const ct of this.schemas.contentTypes.values()) {
      for (const indexed of [...this.index.documents(ct.uid)]) {
        // Only documents whose indexed copy names the file are read again and rewritten: a documentId
        // is 24 random characters, so its text in the values is a safe first filter.
        if (!versions(indexed).some((v) => JSON.stringify(v.data).includes(fileDocumentId))) continue;
        const documentId = indexed.documentId;
        const hit = await this.writing(ct, documentId, async () => {
          const current = this.current(ct, documentId);
          if (!current) return false;
          const doc = cloneDocument(current);
          let found = false;
          for (const v of versions(doc)) if (strip(ct.attributes, v.data)) found = true;
          if (found) await this.commit(ct, doc, new Map());
          return found;
        });
        if (hit) changed++;
      }
    }
    return changed;
  }

  // ---------------------------------------------------------------- id clashes

  /**
   * Rewrites the file of every document holding a version renumbered in memory (an id clash after a
   * merge, or a version without an id), which gives those versions fresh ids there, so every file's ids
   * are its own again. Answers each rewritten version's old and new id.
   */
  async rewriteRenumbered(): Promise<
    Array<{ uid: string; documentId: string; path: string; from: number; to: number }>
  > {
    const out: Array<{ uid: string; documentId: string; path: string; from: number; to: number }> = [];
    for (const ct of this.schemas.contentTypes.values()) {
      const ids = [...new Set(this.index.renumberedVersions(ct.uid).map((r) => r.version.documentId))].sort();
      for (const documentId of ids) {
        await this.writing(ct, documentId, async () => {
          const current = this.current(ct, documentId);
          if (!current || !versions(current).some((v) => this.index.isRenumbered(ct.uid, v))) return;
          const doc = cloneDocument(current);
          const before = versions(doc).map((v) => v.id);
          await this.commit(ct, doc, new Map());
          versions(doc).forEach((v, i) => {
            if (v.id === before[i]) return;
            const path = `${v.locale ? `locales.${v.locale}.` : ''}${v.status}.id`;
            out.push({ uid: ct.uid, documentId, path, from: before[i], to: v.id });
          });
        });
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- internals

  private writeLocale(ct: ContentType, locale: string | undefined): string | null {
    if (!ct.localized) return null;
    const code = locale ?? this.config.defaultLocale;
    if (!this.config.locales.some((l) => l.code === code)) {
      throw validationError(
        `Invalid locale "${code}": it is not one of the configured locales ` +
          `(${this.config.locales.map((l) => l.code).join(', ')})`,
        { locale: code },
      );
    }
    return code;
  }

  /** A locale's first version, before any input: the draft on draft & publish types, else the published one. */
  private firstVersion(ct: ContentType, documentId: string, locale: string | null, t: string): Version {
    return {
      id: 0,
      documentId,
      locale,
      status: ct.draftAndPublish ? 'draft' : 'published',
      createdAt: t,
      updatedAt: t,
      publishedAt: ct.draftAndPublish ? null : t,
      data: this.initialData(ct),
    };
  }

  private initialData(ct: ContentType): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if (isRelation(attr) && !isOwningSide(attr)) continue;
      data[name] = isScalar(attr) ? defaultValue(name, attr) : emptyValue(attr);
    }
    return data;
  }

  private publishedCopy(draft: Version): Version {
    return copyVersion(draft, { id: 0, status: 'published', publishedAt: now(), data: structuredClone(draft.data) });
  }

  /** Copies non-localized attribute values from one version to the same-status versions of the other locales. */
  private syncSharedFields(ct: ContentType, doc: DocumentRecord, fromKey: string, from: Version) {
    if (!ct.localized) return;
    const shared = Object.entries(ct.attributes)
      .filter(([, a]) => !isLocalizedAttribute(a))
      .map(([n]) => n);
    if (!shared.length) return;
    for (const [code, slot] of doc.slots) {
      if (code === fromKey) continue;
      const other = from.status === 'draft' ? slot.draft : slot.published;
      if (!other) continue;
      for (const n of shared) other.data[n] = structuredClone(from.data[n]);
    }
  }

  /** Writes scalar, component, media and relation values of a parsed body into `version`. */
  private applyInput(
    ct: ContentType,
    doc: DocumentRecord,
    version: Version,
    input: ParsedInput,
    touched: Map<string, DocumentRecord>,
  ) {
    for (const [name, value] of Object.entries(input.values)) {
      version.data[name] = this.resolveNested(ct.attributes[name], value, version);
    }
    for (const [name, refs] of Object.entries(input.media)) {
      version.data[name] = this.resolveMedia(refs, [name], ct.attributes[name], input.entry);
    }
    for (const [name, op] of Object.entries(input.relations)) {
      const attr = ct.attributes[name] as RelationAttribute;
      if (isOwningSide(attr)) {
        const current = toList(version.data[name]);
        const next = this.applyOp(attr, current, op, version);
        version.data[name] = isToMany(attr) ? next : (next[0] ?? null);
        this.enforceExclusive(ct, name, attr, doc.documentId, next, version, touched);
      } else {
        this.writeInverse(ct, attr, doc.documentId, version, op, touched);
      }
    }
  }

  /** Resolves relation operations inside components (stored as plain target lists) recursively. */
  private resolveNested(attr: Attribute, value: unknown, version: Version): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolveNested(attr, v, version));
    if (!value || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    if (attr.type !== 'component' && attr.type !== 'dynamiczone') return value;
    const compUid = attr.type === 'component' ? attr.component : (obj.__component as string);
    const comp = this.schemas.components.get(compUid);
    if (!comp) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      const sub = comp.attributes[k];
      if (sub && isRelation(sub) && v && typeof v === 'object' && '$relation' in (v as object)) {
        const next = this.applyOp(sub, [], (v as { $relation: RelationOp }).$relation, version);
        out[k] = isToMany(sub) ? next : (next[0] ?? null);
      } else if (sub && sub.type === 'media') {
        out[k] = this.resolveMedia(v as never, [k], sub);
      } else if (sub && sub.type === 'component') {
        out[k] = this.resolveNested(sub, v, version);
      } else out[k] = v;
    }
    return out;
  }

  private resolveMedia(
    refs: Array<string | number> | string | number | null,
    path: string[],
    attr: Attribute | undefined,
    entry?: () => Record<string, unknown>,
  ): string | string[] | null {
    const one = (r: string | number) => {
      const f = this.media.resolve(r);
      const refused = f && attr?.type === 'media' ? refusedMediaType(attr.allowedTypes, f.mime) : undefined;
      if (refused) {
        const message = `${path.join('.')} ${refused}`;
        throw validationError(message, { errors: [{ path, message, name: 'ValidationError', value: r }] });
      }
      if (!f) {
        throw validationError('1 relation(s) of type plugin::upload.file associated with this entity do not exist', {
          errors: [
            {
              path: [],
              message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
              name: 'ValidationError',
              ...(entry ? { value: entry() } : {}),
            },
          ],
        });
      }
      return f.documentId;
    };
    if (refs === null) return null;
    if (Array.isArray(refs)) return refs.map(one);
    return one(refs);
  }

  private applyOp(attr: RelationAttribute, current: string[], op: RelationOp, version: Version): string[] {
    const target = this.contentType(attr.target);
    const resolve = (ref: RelationRef) => this.resolveTarget(target, ref, version);
    const label = (id: string) => {
      const doc = this.index.get(target.uid, id);
      const v = doc ? versions(doc)[0] : undefined;
      return v ? String(v.id) : id;
    };
    return applyRelationOp(attr, current, op, resolve, label);
  }

  /** Maps a relation reference from a body to an existing target documentId (400 when there is none). */
  private resolveTarget(target: ContentType, ref: RelationRef, source: Version): string {
    const locale = target.localized ? (source.locale ?? ref.locale ?? this.config.defaultLocale) : null;
    if (ref.documentId !== undefined) {
      const doc = this.index.get(target.uid, ref.documentId);
      if (doc && (locale === null || doc.slots.has(locale))) return ref.documentId;
      throw validationError(`Document with id "${ref.documentId}", locale "${locale ?? 'null'}" not found`);
    }
    const v = ref.id !== undefined ? this.index.byId(target.uid, ref.id) : undefined;
    if (!v) {
      const message = `1 relation(s) of type ${target.uid} associated with this entity do not exist`;
      throw validationError(message, { errors: [{ path: [], message, name: 'ValidationError' }] });
    }
    return v.documentId;
  }

  /**
   * One-to-one and one-to-many owners hold their targets exclusively when bidirectional: linking a target
   * here unlinks it from any other source document.
   */
  private enforceExclusive(
    ct: ContentType,
    name: string,
    attr: RelationAttribute,
    documentId: string,
    targets: string[],
    version: Version,
    touched: Map<string, DocumentRecord>,
  ) {
    if (!attr.inversedBy || (attr.relation !== 'oneToOne' && attr.relation !== 'oneToMany')) return;
    for (const target of targets) {
      for (const sourceId of this.index.referrers(ct.uid, name, target)) {
        if (sourceId === documentId) continue;
        const other = this.touch(ct, sourceId, touched);
        for (const v of versions(other)) {
          if (v.status !== version.status || v.locale !== version.locale) continue;
          const list = toList(v.data[name]).filter((x) => x !== target);
          v.data[name] = isToMany(attr) ? list : (list[0] ?? null);
        }
      }
    }
  }

  /**
   * A write on the inverse (mappedBy) side rewrites the owning side of each affected target document:
   * every version of the target in the matching locale (both draft and published, as Strapi links both
   * when the writer has no draft & publish of its own).
   */
  private writeInverse(
    ct: ContentType,
    attr: RelationAttribute,
    documentId: string,
    version: Version,
    op: RelationOp,
    touched: Map<string, DocumentRecord>,
  ) {
    const owner = this.contentType(attr.target);
    const ownerAttrName = attr.mappedBy!;
    const ownerAttr = owner.attributes[ownerAttrName] as RelationAttribute;
    const locale = owner.localized ? (version.locale ?? this.config.defaultLocale) : null;
    const sameStatus = (v: Version) => !ct.draftAndPublish || !owner.draftAndPublish || v.status === version.status;
    if (!ct.localized && owner.localized) {
      this.writeInverseAcrossLocales(ct, owner, ownerAttrName, attr, documentId, version, op, sameStatus, touched);
      return;
    }
    const matches = (v: Version) => (locale === null || v.locale === locale) && sameStatus(v);
    const current: string[] = [];
    for (const sourceId of this.index.referrers(owner.uid, ownerAttrName, documentId)) {
      const d = touched.get(`${owner.uid}/${sourceId}`) ?? this.index.get(owner.uid, sourceId);
      if (d && versions(d).some((v) => matches(v) && toList(v.data[ownerAttrName]).includes(documentId)))
        current.push(sourceId);
    }
    const next = this.applyOp(attr, current, op, version);
    const nextSet = new Set(next);
    const affected = new Set([...current, ...next]);
    for (const targetId of affected) {
      const d = this.touch(owner, targetId, touched);
      for (const v of versions(d)) {
        if (!matches(v)) continue;
        let list = toList(v.data[ownerAttrName]).filter((x) => x !== documentId);
        if (nextSet.has(targetId)) list = isToMany(ownerAttr) ? [...list, documentId] : [documentId];
        v.data[ownerAttrName] = isToMany(ownerAttr) ? list : (list[0] ?? null);
      }
    }
  }

  /**
   * `writeInverse` from a type without locales to a localized owner: every locale's version of an owner is
   * linked on its own; an entry's `locale` (default: the default locale) and `status` pick which.
   */
  private writeInverseAcrossLocales(
    ct: ContentType,
    owner: ContentType,
    ownerAttrName: string,
    attr: RelationAttribute,
    documentId: string,
    version: Version,
    op: RelationOp,
    sameStatus: (v: Version) => boolean,
    touched: Map<string, DocumentRecord>,
  ) {
    const ownerAttr = owner.attributes[ownerAttrName] as RelationAttribute;
    const current = new Map<string, { documentId: string; locale: string }>();
    for (const sourceId of this.index.referrers(owner.uid, ownerAttrName, documentId)) {
      const d = touched.get(`${owner.uid}/${sourceId}`) ?? this.index.get(owner.uid, sourceId);
      for (const v of d ? versions(d) : [])
        if (sameStatus(v) && v.locale && toList(v.data[ownerAttrName]).includes(documentId))
          current.set(`${sourceId}/${v.locale}`, { documentId: sourceId, locale: v.locale });
    }
    const edits = inverseEditsAcrossLocales(attr, [...current.values()], op, (ref) => ({
      documentId: this.resolveTarget(owner, ref, version),
      locale: ref.locale ?? this.config.defaultLocale,
      status: !ct.draftAndPublish && owner.draftAndPublish ? ref.status : undefined,
    }));
    for (const e of edits) {
      for (const v of versions(this.touch(owner, e.documentId, touched))) {
        if (v.locale !== e.locale || !(e.status ? v.status === e.status : sameStatus(v))) continue;
        let list = toList(v.data[ownerAttrName]).filter((x) => x !== documentId);
        if (e.link) list = isToMany(ownerAttr) ? [...list, documentId] : [documentId];
        v.data[ownerAttrName] = isToMany(ownerAttr) ? list : (list[0] ?? null);
      }
    }
  }

  /** A working copy of another document that this write modifies, kept once per write. */
  private touch(ct: ContentType, documentId: string, touched: Map<string, DocumentRecord>): DocumentRecord {
    const key = `${ct.uid}/${documentId}`;
    let d = touched.get(key);
    if (!d) {
      const current = this.current(ct, documentId);
      if (!current) throw notFound();
      d = cloneDocument(current);
      touched.set(key, d);
    }
    return d;
  }

  /** Removes `documentId` of `ct` from every owning relation that points at it. */
  private detachEverywhere(ct: ContentType, documentId: string): Map<string, DocumentRecord> {
    const touched = new Map<string, DocumentRecord>();
    for (const source of this.schemas.contentTypes.values()) {
      for (const [name, attr] of Object.entries(source.attributes)) {
        if (!isRelation(attr) || !isOwningSide(attr) || attr.target !== ct.uid) continue;
        for (const sourceId of this.index.referrers(source.uid, name, documentId)) {
          if (source.uid === ct.uid && sourceId === documentId) continue;
          const d = this.touch(source, sourceId, touched);
          for (const v of versions(d)) {
            const list = toList(v.data[name]).filter((x) => x !== documentId);
            v.data[name] = isToMany(attr) ? list : (list[0] ?? null);
          }
        }
      }
    }
    return touched;
  }

  /** Required fields, minimums, formats and unique values: checked when content becomes published. */
  /**
   * What keeps a stored version from being publishable (required fields, minimums, formats), for
   * `folio validate`. Unique values are left to the caller, which can check them all at once.
   */
  publishProblems(ct: ContentType, v: Version): FieldProblem[] {
    try {
      this.checkPublishable(ct, v, undefined, false, false);
      return [];
    } catch (err) {
      const details = (err as FolioError).details as { errors?: FieldProblem[] } | null;
      return details?.errors ?? [{ path: [], message: (err as Error).message }];
    }
  }

  private checkPublishable(
    ct: ContentType,
    v: Version,
    input: ParsedInput | undefined,
    isNew: boolean,
    checkUnique = true,
  ) {
    const problems: FieldProblem[] = [];
    const directWrite = !ct.draftAndPublish;
    const check = (
      attrs: Record<string, Attribute>,
      data: Record<string, unknown>,
      path: string[],
      topLevel: boolean,
    ) => {
      for (const [name, attr] of Object.entries(attrs)) {
        const value = data[name];
        const p = [...path, name];
        const label = p.join('.');
        if (isScalar(attr)) {
          if (value === null || value === undefined) {
            if (attr.required) {
              if (topLevel && directWrite && isNew && input && !input.provided.has(name))
                problems.push({ path: p, message: `${label} must be defined.` });
              else problems.push({ path: p, message: typeMessage(label, yupTypeOf(attr.type), null), value: null });
            }
            continue;
          }
          const m = publishChecks(label, attr, value);
          if (m) problems.push({ path: p, message: m, value });
          if (checkUnique && attr.unique && value !== '' && topLevel && this.isDuplicate(ct, v, name, value)) {
            problems.push({ path: p, message: 'This attribute must be unique', value });
          }
        } else if (attr.type === 'component') {
          const comp = this.schemas.components.get(attr.component);
          if (!comp) continue;
          if (attr.repeatable) {
            const list = Array.isArray(value) ? value : [];
            if (attr.min !== undefined && (attr.required || list.length > 0) && list.length < attr.min) {
              problems.push({ path: p, message: `${label} field must have at least ${attr.min} items`, value });
            }
            list.forEach((item, i) =>
              check(comp.attributes, item as Record<string, unknown>, [...p, String(i)], false),
            );
          } else if (value) check(comp.attributes, value as Record<string, unknown>, p, false);
          else if (attr.required) problems.push({ path: p, message: typeMessage(label, 'object', null), value: null });
        } else if (attr.type === 'dynamiczone') {
          const list = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
          if (attr.min !== undefined && (attr.required || list.length > 0) && list.length < attr.min) {
            problems.push({ path: p, message: `${label} field must have at least ${attr.min} items`, value });
          }
          list.forEach((item, i) => {
            const comp = this.schemas.components.get(item.__component as string);
            if (comp) check(comp.attributes, item, [...p, String(i)], false);
          });
        }
      }
    };
    check(ct.attributes, v.data, [], true);
    const early = input?.problems;
    if (early?.length) {
      // A field refused at parse time was not stored, so its publish-time finding would be about the old value.
      const refused = new Set(early.map((p) => p.path.join('.')));
      const order = Object.keys(ct.attributes);
      const merged = [...early, ...problems.filter((p) => !refused.has(p.path.join('.')))];
      // Entry-wide problems (an empty path) come after the fields', as Strapi lists them.
      const rank = (p: FieldProblem) => (p.path.length ? order.indexOf(p.path[0]) : order.length);
      merged.sort((a, b) => rank(a) - rank(b));
      throw collected(merged);
    }
    if (problems.length) throw fieldErrors(problems);
  }

  private isDuplicate(ct: ContentType, v: Version, name: string, value: unknown): boolean {
    for (const doc of this.index.documents(ct.uid)) {
      if (doc.documentId === v.documentId) continue;
      const slot = doc.slots.get(v.locale ?? NO_LOCALE);
      const other = slot?.published;
      if (other && other.data[name] === value) return true;
    }
    return false;
  }

  /**
   * Persists the document and every other document the write touched (and removes `gone`, a document deleted
   * entirely) as one operation: all of it reaches the disk, or none of it does; indexed once all of it did.
   */
  private async commit(
    ct: ContentType | undefined,
    doc: DocumentRecord | undefined,
    touched: Map<string, DocumentRecord>,
    gone?: { ct: ContentType; documentId: string },
  ) {
    const docs: Array<[ContentType, DocumentRecord]> = ct && doc ? [[ct, doc]] : [];
    // A self-relation puts the document itself among the touched ones: it is written once.
    for (const d of touched.values()) if (d !== doc) docs.push([this.contentType(d.uid), d]);
    const planned = docs.map(([t, d]) => ({
      pluralName: t.pluralName,
      documentId: d.documentId,
      expect: this.expected(t, d.documentId),
    }));
    if (gone)
      planned.push({
        pluralName: gone.ct.pluralName,
        documentId: gone.documentId,
        expect: this.expected(gone.ct, gone.documentId),
      });
    const written: string[] = [];
    const run = async () => {
      for (const [i, [t, d]] of docs.entries()) written.push(await this.persist(t, d, planned[i].expect));
      if (gone) await this.store.remove(gone.ct.pluralName, gone.documentId, planned[docs.length].expect);
    };
    await (this.store.writing ? this.store.writing(planned, run) : run());
    for (const [i, [, d]] of docs.entries()) {
      this.writtenAs.set(d, written[i]);
      this.index.put(d);
    }
    if (gone) this.index.remove(gone.ct.uid, gone.documentId);
  }

  /** Writes one document's file (its new versions get their ids first); resolves with the digest of its text. */
  private persist(ct: ContentType, doc: DocumentRecord, expect: DiskStamp | null | undefined): Promise<string> {
    // New versions get their ids before the file is written, so the file holds them; so do versions
    // renumbered in memory after an id clash, which leaves this document's file clean.
    for (const v of versions(doc)) if (v.id === 0 || this.index.isRenumbered(ct.uid, v)) v.id = this.issueId(ct);
    return this.store.write(ct.pluralName, doc.documentId, encodeDocument(ct, doc), expect);
  }

  /**
   * A fresh numeric id, past every id this process has seen and every id another process handed out
   * for the type (recorded under the write lock, so two processes creating at once never share one).
   */
  private issueId(ct: ContentType): number {
    const floor = (this.store.lastIssuedId?.(ct.pluralName) ?? 0) + 1;
    const id = this.index.allocateId(ct.uid, floor);
    this.store.recordIssuedId?.(ct.pluralName, id);
    return id;
  }

  /**
   * The digest of the text each document this process wrote was written as: writes of different documents
   * may rewrite one other document side by side, so its file can hold a newer text than its indexed copy.
   */
  private readonly writtenAs = new WeakMap<DocumentRecord, string>();

  /**
   * Per write in progress (several run side by side, on different documents): the stamps of the files it
   * read (null: absent), checked before each is replaced.
   */
  private readonly reads = new AsyncLocalStorage<Map<string, DiskStamp | null>>();

  /** The stamp a file must still have when the write in progress replaces it (undefined: not read, no check). */
  private expected(ct: ContentType, documentId: string): DiskStamp | null | undefined {
    const stamps = this.reads.getStore();
    const key = `${ct.pluralName}/${documentId}`;
    const stamp = stamps?.get(key);
    // Written once now: a second write of it in the same operation follows this one.
    stamps?.delete(key);
    return stamp;
  }

  /**
   * Runs one write of a document: after this process's other writes of it, holding the project's write
   * lock (shared with every other process), and again from the files if one changed under it.
   */
  private writing<T>(ct: ContentType, documentId: string, fn: () => Promise<T>): Promise<T> {
    const once = () => this.reads.run(new Map(), fn);
    const attempt = () => (this.store.exclusive ? this.store.exclusive(once) : once());
    return this.lock.run(`${ct.uid}/${documentId}`, async () => {
      let contended: string | undefined;
      for (let tries = 1; ; tries++) {
        try {
          return await (contended === undefined ? attempt() : this.retries.run(contended, attempt));
        } catch (err) {
          // Another write of this process, or an editor, changed a file this one read: start again from it.
          if (!(err instanceof StaleFileError)) throw err;
          if (tries >= 10) {
            const file = err.file.split(/[\\/]/).slice(-3).join('/');
            const message = `${file} kept changing while this write was made; nothing was written`;
            throw new FolioError(409, 'ApplicationError', `${message}, try again`, {});
          }
          contended = err.file;
          await new Promise((r) => setTimeout(r, Math.random() * 5 * tries));
        }
      }
    });
  }

  /**
   * Writes started again because a file changed under them, one at a time per file: many writes of
   * different documents rewriting one other document would otherwise keep spoiling each other's tries.
   */
  private readonly retries = new KeyedLock();

  /**
   * The document as its file holds it now (read under the write lock): indexed again first when another
   * process or an editor changed it, so a write never starts from a stale copy. Undefined when it is gone.
   */
  private current(ct: ContentType, documentId: string): DocumentRecord | undefined {
    const indexed = this.index.get(ct.uid, documentId);
    if (!this.store.readCurrent) return indexed;
    const disk = this.store.readCurrent(ct.pluralName, documentId);
    this.reads.getStore()?.set(`${ct.pluralName}/${documentId}`, disk?.stamp ?? null);
    if (!disk) {
      if (indexed) this.index.remove(ct.uid, documentId);
      return undefined;
    }
    // The indexed copy is what the file holds only if it was written as the very text on disk now.
    if (indexed && this.writtenAs.get(indexed) === textDigest(disk.text)) return indexed;
    const refuse = (why: string) =>
      new FolioError(
        409,
        'ApplicationError',
        `The file of ${ct.singularName} ${documentId} ${why}; fix it before writing to it`,
        {},
      );
    let doc: DocumentRecord;
    try {
      const body = parseDocumentText(disk.text, documentId);
      // Writing over values the API would refuse would write them back: the file is left for its author to fix.
      const invalid = this.checkValues(ct, body);
      if (invalid) throw refuse(`holds values a write would refuse (${invalid})`);
      doc = decodeDocument(ct, documentId, body);
    } catch (err) {
      if (err instanceof FolioError) throw err;
      throw refuse(`cannot be read (${(err as Error).message})`);
    }
    this.index.put(doc);
    return doc;
  }

  private emit(event: string, ct: ContentType, version: Version) {
    this.events.emit({ event, uid: ct.uid, model: ct.singularName, version });
  }
}

function toList(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

/**
 * The working copies of one write, one per document, starting with the document written: a relation of a
 * type to itself may name that document on its other side, which must then edit this same copy.
 */
function workingSet(doc: DocumentRecord): Map<string, DocumentRecord> {
  return new Map([[`${doc.uid}/${doc.documentId}`, doc]]);
}

function cloneDocument(doc: DocumentRecord): DocumentRecord {
  const slots = new SlotMap();
  for (const [code, slot] of doc.slots) {
    const copy: Slot = {};
    if (slot.draft) copy.draft = copyVersion(slot.draft, { data: structuredClone(slot.draft.data) });
    if (slot.published) copy.published = copyVersion(slot.published, { data: structuredClone(slot.published.data) });
    slots.set(code, copy);
  }
  return { uid: doc.uid, documentId: doc.documentId, slots };
}
