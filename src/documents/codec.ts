import type { ContentType } from '../schema/types.js';
import { type DocumentRecord, type Slot, type Status, type Version, NO_LOCALE, SlotMap, storedAttributes } from './model.js';

/**
 * The document file format (one file per document, every locale and version in it):
 *
 *   { "documentId": "…", "locales": { "en": { "draft": {…}, "published": {…} } } }   localized types
 *   { "documentId": "…", "draft": {…}, "published": {…} }                            other types
 *
 * A version is `{ id, <attributes in schema order>, createdAt, updatedAt, publishedAt }`.
 * Types without draft & publish hold only `published`.
 */

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function encodeDocument(ct: ContentType, doc: DocumentRecord): Record<string, unknown> {
  const names = storedAttributes(ct);
  const encodeVersion = (v: Version) => {
    const out: Record<string, unknown> = { id: v.id };
    for (const n of names) out[n] = v.data[n] ?? null;
    out.createdAt = v.createdAt;
    out.updatedAt = v.updatedAt;
    out.publishedAt = v.publishedAt;
    return out;
  };
  const encodeSlot = (slot: Slot) => {
    const out: Record<string, unknown> = {};
    if (slot.draft) out.draft = encodeVersion(slot.draft);
    if (slot.published) out.published = encodeVersion(slot.published);
    return out;
  };
  if (ct.localized) {
    const locales: Record<string, unknown> = {};
    for (const code of [...doc.slots.keys()].sort()) locales[code] = encodeSlot(doc.slots.get(code)!);
    return { documentId: doc.documentId, locales };
  }
  return { documentId: doc.documentId, ...encodeSlot(doc.slots.get(NO_LOCALE) ?? {}) };
}

export class DecodeError extends Error {}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const namesCache = new WeakMap<ContentType, { names: string[]; known: Set<string> }>();

/** Stored attribute names of a type, and every key a version may hold; computed once per schema. */
function attributeNames(ct: ContentType) {
  let c = namesCache.get(ct);
  if (!c) {
    const names = storedAttributes(ct);
    c = { names, known: new Set([...names, 'id', 'createdAt', 'updatedAt', 'publishedAt']) };
    namesCache.set(ct, c);
  }
  return c;
}

/**
 * Reads a document file body. Ids are taken as stored; the index renumbers clashes (after a git merge two
 * branches may have used the same id).
 */
export function decodeDocument(ct: ContentType, documentId: string, body: Record<string, unknown>): DocumentRecord {
  const doc: DocumentRecord = { uid: ct.uid, documentId, slots: new SlotMap() };
  const { names, known } = attributeNames(ct);
  const decodeVersion = (raw: unknown, locale: string, status: Status, where: string): Version => {
    if (!isObject(raw)) throw new DecodeError(`${where} must be an object`);
    const data: Record<string, unknown> = {};
    for (const n of names) data[n] = raw[n] === undefined ? null : raw[n];
    for (const k in raw) {
      if (!known.has(k)) throw new DecodeError(`${where}.${k} is not an attribute of ${ct.uid}`);
    }
    const ts = (k: string, nullable: boolean) => {
      const t = raw[k];
      if (t === null && nullable) return null;
      // Files Folio wrote hold canonical timestamps: only other forms need parsing (start-up speed).
      if (typeof t === 'string' && ISO_MS.test(t)) return t;
      if (typeof t !== 'string' || Number.isNaN(Date.parse(t))) throw new DecodeError(`${where}.${k} must be an ISO date`);
      return new Date(t).toISOString();
    };
    return {
      id: typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id > 0 ? raw.id : 0,
      documentId,
      locale: locale === NO_LOCALE ? null : locale,
      status,
      createdAt: ts('createdAt', false)!,
      updatedAt: ts('updatedAt', false)!,
      publishedAt: status === 'draft' ? null : ts('publishedAt', false),
      data,
    };
  };
  const decodeSlot = (raw: unknown, locale: string, where: string): Slot => {
    if (!isObject(raw)) throw new DecodeError(`${where} must be an object`);
    for (const k of Object.keys(raw)) if (k !== 'draft' && k !== 'published') throw new DecodeError(`${where}.${k} is not a version (draft or published)`);
    const slot: Slot = {};
    if (raw.draft !== undefined) {
      if (!ct.draftAndPublish) throw new DecodeError(`${where}.draft: ${ct.uid} has no draft & publish`);
      slot.draft = decodeVersion(raw.draft, locale, 'draft', `${where}.draft`);
    }
    if (raw.published !== undefined) slot.published = decodeVersion(raw.published, locale, 'published', `${where}.published`);
    if (ct.draftAndPublish && !slot.draft && slot.published) {
      // A published version always has a draft in Strapi; recreate it from the published one.
      slot.draft = { ...slot.published, id: 0, status: 'draft', publishedAt: null, data: structuredClone(slot.published.data) };
    }
    if (!slot.draft && !slot.published) throw new DecodeError(`${where} holds no version`);
    return slot;
  };
  if (ct.localized) {
    if (!isObject(body.locales)) throw new DecodeError('"locales" must be an object of locale codes');
    for (const [code, raw] of Object.entries(body.locales)) {
      if (!/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(code)) throw new DecodeError(`locales.${code} is not a locale code`);
      doc.slots.set(code, decodeSlot(raw, code, `locales.${code}`));
    }
  } else {
    const { documentId: _ignored, ...rest } = body;
    doc.slots.set(NO_LOCALE, decodeSlot(rest, NO_LOCALE, 'document'));
  }
  if (doc.slots.size === 0) throw new DecodeError('the document holds no version');
  return doc;
}
