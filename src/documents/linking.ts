import { validationError } from '../errors.js';
import type { FolioConfig } from '../config.js';
import type { SchemaRegistry } from '../schema/registry.js';
import {
  type Attribute,
  type ContentType,
  type RelationAttribute,
  isOwningSide,
  isRelation,
  isToMany,
} from '../schema/types.js';
import type { DocumentIndex } from './doc-index.js';
import type { DocumentWrites } from './document-writes.js';
import type { ParsedInput, RelationOp, RelationRef } from './input.js';
import type { MediaLibrary } from './media.js';
import { resolveMedia } from './media-links.js';
import { type DocumentRecord, type Version, versions } from './model.js';
import { applyRelationOp, inverseEditsAcrossLocales, targetList } from './relations.js';
import { canonicalLink, linkDocumentId, linkEntry, linkParts, linksNameLocale, linksTo } from './file-format.js';
import { componentsReaching, holdsAnyOf, relationWalker } from './relation-walk.js';
import { LOOKS_PER_READ, pauser } from './pauser.js';

/**
 * Writes a parsed body into a version: values, media and relations, the latter on both sides. The
 * documents a write changes besides the one written (the other side of a relation) are working copies
 * in `touched`, committed with it.
 */
export class Linking {
  /**
   * The documents (`uid/documentId`) whose delete is unlinking their referrers: a delete does so over several turns
   * of the event loop, and a link made meanwhile to a referrer it has passed would be left pointing at nothing.
   */
  readonly deleting = new Set<string>();

  constructor(
    private readonly schemas: SchemaRegistry,
    private readonly config: FolioConfig,
    private readonly index: DocumentIndex,
    private readonly writes: DocumentWrites,
    private readonly media: MediaLibrary,
    private readonly contentType: (name: string) => ContentType,
  ) {}

  /** Writes scalar, component, media and relation values of a parsed body into `version`. */
  applyInput(
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
      version.data[name] = resolveMedia(this.media, refs, [name], ct.attributes[name], input.entry);
    }
    for (const [name, op] of Object.entries(input.relations)) {
      const attr = ct.attributes[name] as RelationAttribute;
      if (isOwningSide(attr)) {
        const current = this.storedLinks(ct, attr, version.data[name]);
        const next = this.applyOp(attr, current, op, version);
        version.data[name] = isToMany(attr) ? next : (next[0] ?? null);
        this.enforceExclusive(ct, name, attr, doc.documentId, next, version, touched);
      } else {
        this.writeInverse(ct, attr, doc.documentId, version, op, touched);
      }
    }
  }

  /**
   * Removes `documentId` of `ct` from every owning relation that points at it (in any locale), and from the
   * relations inside components and dynamic-zone entries.
   */
  async detachEverywhere(ct: ContentType, documentId: string): Promise<Map<string, DocumentRecord>> {
    const touched = new Map<string, DocumentRecord>();
    for (const source of this.schemas.contentTypes.values()) {
      for (const [name, attr] of Object.entries(source.attributes)) {
        if (!isRelation(attr) || !isOwningSide(attr) || attr.target !== ct.uid) continue;
        for await (const sourceId of this.referrersOf(source, name, documentId)) {
          if (source.uid === ct.uid && sourceId === documentId) continue;
          const d = this.writes.touchIfThere(source, sourceId, touched);
          for (const v of d ? versions(d) : []) {
            const list = targetList(v.data[name]).filter((x) => linkDocumentId(x) !== documentId);
            v.data[name] = isToMany(attr) ? list : (list[0] ?? null);
          }
        }
      }
    }
    await this.detachNested(ct, () => (_v, link) => linkDocumentId(link) === documentId, touched, documentId);
    return touched;
  }

  /**
   * Removes the links to the versions of `documentId` in `locale`, one locale of a localized `ct` being deleted
   * while others stay: in that locale's versions of localized sources, and where a source without locales
   * names that locale; at the top of a version and inside its components and dynamic-zone entries. Links to the
   * other locales stay, as in Strapi, whose join rows go with the rows deleted.
   */
  async detachLocale(ct: ContentType, documentId: string, locale: string, touched: Map<string, DocumentRecord>) {
    const named = linkEntry(documentId, locale, this.config.defaultLocale);
    for (const source of this.schemas.contentTypes.values()) {
      const namesLocale = linksNameLocale(source, ct);
      const linked = (x: string) =>
        namesLocale ? canonicalLink(x, this.config.defaultLocale) === named : x === documentId;
      for (const [name, attr] of Object.entries(source.attributes)) {
        if (!isRelation(attr) || !isOwningSide(attr) || attr.target !== ct.uid) continue;
        const holds = (v: Version) => (namesLocale || v.locale === locale) && targetList(v.data[name]).some(linked);
        for await (const sourceId of this.referrersOf(source, name, documentId)) {
          // Only the documents that link a deleted version are rewritten.
          const seen = touched.get(`${source.uid}/${sourceId}`) ?? this.writes.current(source, sourceId);
          if (!seen || !versions(seen).some(holds)) continue;
          for (const v of versions(this.writes.touch(source, sourceId, touched))) {
            if (!holds(v)) continue;
            const list = targetList(v.data[name]).filter((x) => !linked(x));
            v.data[name] = isToMany(attr) ? list : (list[0] ?? null);
          }
        }
      }
    }
    await this.detachNested(
      ct,
      (source) =>
        linksNameLocale(source, ct)
          ? (_v, link) => canonicalLink(link, this.config.defaultLocale) === named
          : (v, link) => v.locale === locale && link === documentId,
      touched,
    );
  }

  /**
   * The documents of `source` whose `name` links `documentId`, each once, a turn of the event loop taken every
   * few (see pauser); those another write links meanwhile come too, so none is left linking what goes.
   */
  private async *referrersOf(source: ContentType, name: string, documentId: string): AsyncGenerator<string> {
    const pause = pauser();
    const seen = new Set<string>();
    for (;;) {
      const fresh = [...this.index.referrers(source.uid, name, documentId)].filter((id) => !seen.has(id));
      if (!fresh.length) return;
      for (const id of fresh) {
        seen.add(id);
        await pause(1);
        yield id;
      }
    }
  }

  /**
   * Removes from the relations to `ct` inside components and dynamic-zone entries (nested ones too) the links
   * `drops` names (per source type: for a version of it holding them), in the documents that hold one (working
   * copies in `touched`), `deleted` aside (a document gone entirely). The index keeps no referrers of such
   * relations: the documents of the types whose components can hold one are looked through (from the index; only
   * the documents found holding a link are read again from their files).
   */
  private async detachNested(
    ct: ContentType,
    drops: (source: ContentType) => (v: Version, link: string) => boolean,
    touched: Map<string, DocumentRecord>,
    deleted?: string,
  ) {
    const pause = pauser();
    const reaching = componentsReaching(this.schemas, (a) => a.target === ct.uid);
    if (!reaching.size) return;
    for (const source of this.schemas.contentTypes.values()) {
      if (!holdsAnyOf(source.attributes, reaching)) continue;
      const walk = relationWalker(this.schemas, source.attributes, { into: reaching, nestedOnly: true });
      const dropped = drops(source);
      /** Whether `v` holds a link to drop; with `edit`, drops them. */
      const strip = (v: Version, edit: boolean) => {
        let held = false;
        walk(v.data, (attr, value, set) => {
          if (attr.target !== ct.uid) return;
          const drop = (x: unknown) => typeof x === 'string' && dropped(v, x);
          if (!(Array.isArray(value) ? value.some(drop) : drop(value))) return;
          held = true;
          if (!edit) return;
          const kept = targetList(value).filter((x) => !dropped(v, x));
          set(isToMany(attr) ? kept : (kept[0] ?? null));
        });
        return held;
      };
      const holds = (d: DocumentRecord) => versions(d).some((v) => strip(v, false));
      const key = (id: string) => `${source.uid}/${id}`;
      const found: string[] = [];
      await this.index.whenMapped(source.uid);
      for (const indexed of [...this.index.documents(source.uid)]) {
        await pause(LOOKS_PER_READ);
        const id = indexed.documentId;
        if (source.uid === ct.uid && id === deleted) continue;
        if (holds(touched.get(key(id)) ?? indexed)) found.push(id);
      }
      for (const id of found) {
        await pause(1);
        const seen = touched.get(key(id)) ?? this.writes.current(source, id);
        if (!seen || !holds(seen)) continue;
        for (const v of versions(this.writes.touch(source, id, touched))) strip(v, true);
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
        out[k] = resolveMedia(this.media, v as never, [k], sub);
      } else if (sub && sub.type === 'component') {
        out[k] = this.resolveNested(sub, v, version);
      } else out[k] = v;
    }
    return out;
  }

  /**
   * The links a stored relation value holds, each in the form Folio writes it (see file-format.ts), so one
   * link is spelled one way whatever a hand-written file said.
   */
  private storedLinks(ct: ContentType, attr: RelationAttribute, value: unknown): string[] {
    const list = targetList(value);
    if (!linksNameLocale(ct, this.contentType(attr.target))) return list;
    return list.map((x) => canonicalLink(x, this.config.defaultLocale));
  }

  /** Applies a relation operation to a list of stored links; each reference in it resolves to a link. */
  private applyOp(attr: RelationAttribute, current: string[], op: RelationOp, version: Version): string[] {
    const target = this.contentType(attr.target);
    const resolve = (ref: RelationRef) => this.resolveLink(target, ref, version);
    const label = (link: string) => {
      const { documentId, locale } = linkParts(link);
      const doc = this.index.get(target.uid, documentId);
      const slot = locale ? doc?.slots.get(locale) : undefined;
      const v = slot ? (slot.draft ?? slot.published) : doc ? versions(doc)[0] : undefined;
      return v ? String(v.id) : documentId;
    };
    return applyRelationOp(attr, current, op, resolve, label);
  }

  /**
   * Maps a relation reference from a body to the link `source` stores (400 when there is no such target):
   * the target's documentId, with the locale of the version linked when `source`'s type has no locales
   * and the target's has (the entry's `locale`, else the default locale; see file-format.ts).
   */
  private resolveLink(target: ContentType, ref: RelationRef, source: Version): string {
    const documentId = this.resolveTarget(target, ref, source);
    if (source.locale !== null || !target.localized) return documentId;
    const locale = ref.documentId !== undefined ? ref.locale : this.index.byId(target.uid, ref.id!)?.locale;
    return linkEntry(documentId, locale ?? this.config.defaultLocale, this.config.defaultLocale);
  }

  /** Maps a relation reference from a body to an existing target documentId (400 when there is none). */
  private resolveTarget(target: ContentType, ref: RelationRef, source: Version): string {
    const locale = target.localized ? (source.locale ?? ref.locale ?? this.config.defaultLocale) : null;
    // A document being deleted is gone for a link: its delete may have passed this write's document already.
    const gone = (documentId: string) => this.deleting.has(`${target.uid}/${documentId}`);
    if (ref.documentId !== undefined) {
      const doc = this.index.get(target.uid, ref.documentId);
      if (doc && (locale === null || doc.slots.has(locale)) && !gone(ref.documentId)) return ref.documentId;
      throw validationError(`Document with id "${ref.documentId}", locale "${locale ?? 'null'}" not found`);
    }
    const v = ref.id !== undefined ? this.index.byId(target.uid, ref.id) : undefined;
    if (!v || gone(v.documentId)) {
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
      for (const sourceId of this.index.referrers(ct.uid, name, linkDocumentId(target))) {
        if (sourceId === documentId) continue;
        const other = this.writes.touch(ct, sourceId, touched);
        for (const v of versions(other)) {
          if (v.status !== version.status || v.locale !== version.locale) continue;
          const list = targetList(v.data[name]).filter((x) => !linksTo(x, target, this.config.defaultLocale));
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
    // An owner without locales links this locale's version of a localized document (see file-format.ts).
    const link = linksNameLocale(owner, ct)
      ? linkEntry(documentId, version.locale, this.config.defaultLocale)
      : documentId;
    const linked = (value: unknown) => linksTo(value, link, this.config.defaultLocale);
    const current: string[] = [];
    // Owners every version of which this write sets links this document already (a draft may link it while the
    // published version links another).
    const settled = new Set<string>();
    for (const sourceId of this.index.referrers(owner.uid, ownerAttrName, documentId)) {
      const d = touched.get(`${owner.uid}/${sourceId}`) ?? this.index.get(owner.uid, sourceId);
      if (!d || !versions(d).some((v) => matches(v) && linked(v.data[ownerAttrName]))) continue;
      current.push(sourceId);
      if (versions(d).every((v) => !matches(v) || linked(v.data[ownerAttrName]))) settled.add(sourceId);
    }
    const next = this.applyOp(attr, current, op, version);
    const nextSet = new Set(next);
    const affected = new Set([...current, ...next]);
    for (const targetId of affected) {
      // An owner with one link, settled before and linked after, stays as it is: not read, not written.
      if (!isToMany(ownerAttr) && settled.has(targetId) && nextSet.has(targetId)) continue;
      const d = this.writes.touch(owner, targetId, touched);
      for (const v of versions(d)) {
        if (!matches(v)) continue;
        let list = targetList(v.data[ownerAttrName]).filter((x) => !linked(x));
        if (nextSet.has(targetId)) list = isToMany(ownerAttr) ? [...list, link] : [link];
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
        if (sameStatus(v) && v.locale && targetList(v.data[ownerAttrName]).includes(documentId))
          current.set(`${sourceId}/${v.locale}`, { documentId: sourceId, locale: v.locale });
    }
    const edits = inverseEditsAcrossLocales(attr, [...current.values()], op, (ref) => ({
      documentId: this.resolveTarget(owner, ref, version),
      locale: ref.locale ?? this.config.defaultLocale,
      status: !ct.draftAndPublish && owner.draftAndPublish ? ref.status : undefined,
    }));
    for (const e of edits) {
      for (const v of versions(this.writes.touch(owner, e.documentId, touched))) {
        if (v.locale !== e.locale || !(e.status ? v.status === e.status : sameStatus(v))) continue;
        let list = targetList(v.data[ownerAttrName]).filter((x) => x !== documentId);
        if (e.link) list = isToMany(ownerAttr) ? [...list, documentId] : [documentId];
        v.data[ownerAttrName] = isToMany(ownerAttr) ? list : (list[0] ?? null);
      }
    }
  }
}
