import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import type { DocumentIndex } from './doc-index.js';
import { type DocumentRecord, NO_LOCALE, type Status, type Version } from './model.js';

/** Whether a field's values must be unique per type and locale: `unique: true`, and every `uid` (as Strapi 5). */
export const isUniqueAttribute = (attr: Attribute): boolean =>
  isScalar(attr) && (attr.unique === true || attr.type === 'uid');

/** Values a unique field may share: none, and the empty string (as Strapi skips them). */
export const isSharedValue = (value: unknown): boolean => value === null || value === undefined || value === '';

/** Compared as `===` compares them: only scalars can be equal. */
type Key = string | number | boolean;
const keyOf = (value: unknown): Key | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;

/** Per field, locale and status: value -> the documents whose version holds it. */
type Holders = Map<string, Map<Key, Set<string>>>;

interface TypeValues {
  ct: ContentType;
  holders: Holders;
  /** Per document, the (field and locale, value) pairs it holds: what to take out when it changes. */
  held: Map<string, Array<[string, Key]>>;
}

const slotKey = (field: string, locale: string | null, status: Status = 'published') =>
  `${field}\u0000${locale ?? NO_LOCALE}\u0000${status}`;

/**
 * The values of unique fields in the versions of each type: who holds each. Strapi checks a published version
 * against the other documents' published versions of its locale (drafts are never checked); the drafts' values
 * tell which values are free to suggest. Built for a type when first asked, then kept current from the index's
 * changes. A write that checked its values claims them until its document is indexed, so two writes side by side
 * cannot both publish one value.
 */
export class UniqueValues {
  private readonly types = new Map<string, TypeValues>();
  private readonly claims = new Map<string, string>();

  constructor(private readonly index: DocumentIndex) {
    index.watch((uid, documentId, doc) => {
      const t = this.types.get(uid);
      if (t) this.reindex(t, documentId, doc);
    });
  }

  /**
   * Another document (not `documentId`) whose published version in `locale` (or draft, with `drafts`) holds
   * `value` in `field`, or that a write under way claimed it for; undefined when it is free.
   */
  holder(ct: ContentType, field: string, locale: string | null, value: unknown, documentId?: string, drafts = false) {
    const key = keyOf(value);
    if (key === undefined || isSharedValue(value)) return undefined;
    const claimed = this.claims.get(claimKey(ct, field, locale, key));
    if (claimed !== undefined && claimed !== documentId) return claimed;
    const t = this.of(ct);
    for (const status of drafts ? (['published', 'draft'] as const) : (['published'] as const))
      for (const other of t.holders.get(slotKey(field, locale, status))?.get(key) ?? [])
        if (other !== documentId) return other;
    return undefined;
  }

  /** Claims the unique values of `v`, a version about to be published, until `release` is called. */
  claim(ct: ContentType, v: Version): () => void {
    const mine: string[] = [];
    for (const [field, attr] of Object.entries(ct.attributes)) {
      const key = keyOf(v.data[field]);
      if (!isUniqueAttribute(attr) || key === undefined || isSharedValue(key)) continue;
      const claim = claimKey(ct, field, v.locale, key);
      if (this.claims.has(claim)) continue;
      this.claims.set(claim, v.documentId);
      mine.push(claim);
    }
    return () => {
      for (const claim of mine) this.claims.delete(claim);
    };
  }

  private of(ct: ContentType): TypeValues {
    let t = this.types.get(ct.uid);
    if (!t) {
      t = { ct, holders: new Map(), held: new Map() };
      this.types.set(ct.uid, t);
      if (Object.values(ct.attributes).some(isUniqueAttribute))
        for (const doc of this.index.documents(ct.uid)) this.reindex(t, doc.documentId, doc);
    }
    return t;
  }

  /** Takes a document's values out, and puts those of its new copy in (none: it is gone). */
  private reindex(t: TypeValues, documentId: string, doc: DocumentRecord | undefined) {
    for (const [slot, key] of t.held.get(documentId) ?? []) {
      const set = t.holders.get(slot)?.get(key);
      set?.delete(documentId);
      if (set && !set.size) t.holders.get(slot)!.delete(key);
    }
    t.held.delete(documentId);
    if (!doc) return;
    const attributes = t.ct.attributes;
    const held: Array<[string, Key]> = [];
    for (const [code, slot] of doc.slots) {
      for (const v of [slot.draft, slot.published]) {
        if (!v) continue;
        for (const [field, attr] of Object.entries(attributes)) {
          const key = keyOf(v.data[field]);
          if (!isUniqueAttribute(attr) || key === undefined || isSharedValue(key)) continue;
          const sk = slotKey(field, code === NO_LOCALE ? null : code, v.status);
          let values = t.holders.get(sk);
          if (!values) t.holders.set(sk, (values = new Map()));
          let set = values.get(key);
          if (!set) values.set(key, (set = new Set()));
          set.add(documentId);
          held.push([sk, key]);
        }
      }
    }
    if (held.length) t.held.set(documentId, held);
  }
}

const claimKey = (ct: ContentType, field: string, locale: string | null, key: Key) =>
  `${ct.uid}\u0000${slotKey(field, locale)}\u0000${typeof key}:${String(key)}`;

/** A value of a unique field that published versions of several documents hold in one locale. */
export interface UniqueClash {
  field: string;
  locale: string | null;
  value: unknown;
  /** The documents holding it, in the order met. */
  documentIds: string[];
}

/**
 * The values of unique fields (and uids) several documents' published versions of one locale share: what a
 * merge of two branches, or an import into a project with documents of its own, can bring.
 */
export function uniqueClashes(ct: ContentType, docs: Iterable<DocumentRecord>): UniqueClash[] {
  const fields = Object.entries(ct.attributes).filter(([, a]) => isUniqueAttribute(a));
  if (!fields.length) return [];
  const seen = new Map<string, UniqueClash>();
  for (const doc of docs) {
    for (const [code, slot] of doc.slots) {
      const v = slot.published;
      if (!v) continue;
      const locale = code === NO_LOCALE ? null : code;
      for (const [field] of fields) {
        const key = keyOf(v.data[field]);
        if (key === undefined || isSharedValue(key)) continue;
        const k = `${slotKey(field, locale)}\u0000${typeof key}:${String(key)}`;
        const clash = seen.get(k) ?? { field, locale, value: key, documentIds: [] };
        seen.set(k, clash);
        if (!clash.documentIds.includes(doc.documentId)) clash.documentIds.push(doc.documentId);
      }
    }
  }
  return [...seen.values()].filter((c) => c.documentIds.length > 1);
}
