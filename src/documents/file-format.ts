import { LOCALE_CODE } from '../config.js';
import type { ContentType } from '../schema/types.js';
import {
  type DocumentRecord,
  type Slot,
  type Status,
  type Version,
  NO_LOCALE,
  SlotMap,
  storedAttributes,
} from './model.js';
import { NO_ITEMS, shareEqualValues, shareTimestamps, sharedLinks } from './shared-values.js';

/**
 * The document file format, written here only (the start-up byte scanner takes its names from the
 * constants below): one file per document, every locale and version in it:
 *
 *   { "documentId": "…", "locales": { "en": { "draft": {…}, "published": {…} } } }   localized types
 *   { "documentId": "…", "draft": {…}, "published": {…} }                            other types
 *
 * A version is `{ id, <attributes in schema order>, createdAt, updatedAt, publishedAt }`.
 * Types without draft & publish hold only `published`.
 *
 * A relation holds target documentIds (`"author": "abc"`, `"tags": ["abc", "def"]`). A type without locales
 * linking a localized type links one locale's version of each target: the default locale's is the bare
 * documentId, another locale's is written `"<documentId>@<locale>"` (`"favourites": ["abc", "def@fr"]`).
 */

/** The keys of a document file and of its locales. */
export const DOCUMENT_ID = 'documentId';
export const LOCALES = 'locales';
export const DRAFT = 'draft';
export const PUBLISHED = 'published';

/** A version's own keys: before its attributes, and after them, in the order files hold them. */
export const VERSION_HEAD = ['id'] as const;
export const VERSION_TAIL = ['createdAt', 'updatedAt', 'publishedAt'] as const;
export type VersionKey = (typeof VERSION_HEAD)[number] | (typeof VERSION_TAIL)[number];

/** Every key a version of the type may hold, in the order Folio writes them. */
export function versionKeys(ct: ContentType): string[] {
  return [...VERSION_HEAD, ...storedAttributes(ct), ...VERSION_TAIL];
}

/** A locale code as a file holds it under `locales`: the form folio.json's codes have. */
export { LOCALE_CODE };

/** Between a documentId and a locale in a link to a version of another locale than the default one. */
export const LINK_LOCALE = '@';

/** A stored link as its parts: the target's documentId, and the locale it names (undefined: none). */
export function linkParts(entry: string): { documentId: string; locale: string | undefined } {
  const at = entry.indexOf(LINK_LOCALE);
  return at < 0
    ? { documentId: entry, locale: undefined }
    : { documentId: entry.slice(0, at), locale: entry.slice(at + 1) };
}

/** The documentId a stored link points at. */
export function linkDocumentId(entry: string): string {
  const at = entry.indexOf(LINK_LOCALE);
  return at < 0 ? entry : entry.slice(0, at);
}

/**
 * How a link to `documentId` is stored: with `locale` when it is given and not `defaultLocale` (only links
 * from a type without locales to a localized one give it), else as the bare documentId.
 */
export function linkEntry(documentId: string, locale: string | null | undefined, defaultLocale: string): string {
  return locale && locale !== defaultLocale ? `${documentId}${LINK_LOCALE}${locale}` : documentId;
}

/** A stored link in the form Folio writes it: a default-locale link naming its locale is the bare documentId. */
export function canonicalLink(entry: string, defaultLocale: string): string {
  const { documentId, locale } = linkParts(entry);
  return linkEntry(documentId, locale, defaultLocale);
}

/** Whether a stored relation value (one link or a list) holds `entry` (a link in the form Folio writes). */
export function linksTo(value: unknown, entry: string, defaultLocale: string): boolean {
  const same = (x: unknown) => typeof x === 'string' && (x === entry || canonicalLink(x, defaultLocale) === entry);
  return Array.isArray(value) ? value.some(same) : same(value);
}

/** Whether links from `source` to `target` name a locale: from a type without locales to a localized one. */
export function linksNameLocale(source: { localized: boolean }, target: { localized: boolean }): boolean {
  return !source.localized && target.localized;
}

/** The timestamp form Folio writes (ISO 8601 UTC with milliseconds); `0` stands for a digit. */
export const ISO_MS_FORM = '0000-00-00T00:00:00.000Z';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function encodeDocument(ct: ContentType, doc: DocumentRecord): Record<string, unknown> {
  const names = storedAttributes(ct);
  const encodeVersion = (v: Version) => {
    const out: Record<string, unknown> = {};
    for (const k of VERSION_HEAD) out[k] = v[k];
    for (const n of names) out[n] = v.data[n] ?? null;
    for (const k of VERSION_TAIL) out[k] = v[k];
    return out;
  };
  const encodeSlot = (slot: Slot) => {
    const out: Record<string, unknown> = {};
    if (slot.draft) out[DRAFT] = encodeVersion(slot.draft);
    if (slot.published) out[PUBLISHED] = encodeVersion(slot.published);
    return out;
  };
  if (ct.localized) {
    const locales: Record<string, unknown> = {};
    for (const code of [...doc.slots.keys()].sort()) locales[code] = encodeSlot(doc.slots.get(code)!);
    return { [DOCUMENT_ID]: doc.documentId, [LOCALES]: locales };
  }
  return { [DOCUMENT_ID]: doc.documentId, ...encodeSlot(doc.slots.get(NO_LOCALE) ?? {}) };
}

export class DecodeError extends Error {}

const namesCache = new WeakMap<ContentType, { names: string[]; links: string[]; known: Set<string> }>();

/** Stored attribute names of a type, and every key a version may hold; computed once per schema. */
function attributeNames(ct: ContentType) {
  let c = namesCache.get(ct);
  if (!c) {
    const names = storedAttributes(ct);
    const links = names.filter((n) => ct.attributes[n].type === 'relation');
    c = { names, links, known: new Set(versionKeys(ct)) };
    namesCache.set(ct, c);
  }
  return c;
}

/** Rejects keys that are not attributes of the type (nor id or the timestamps). */
function checkKeys(ct: ContentType, known: Set<string>, raw: Record<string, unknown>, where: string) {
  for (const k in raw) {
    if (!known.has(k)) throw new DecodeError(`${where}.${k} is not an attribute of ${ct.uid}`);
  }
}

/** A stored timestamp, canonicalised; throws when it is not a date. */
function timestamp(raw: Record<string, unknown>, k: string, nullable: boolean, where: string): string | null {
  const t = raw[k];
  if (t === null && nullable) return null;
  // Files Folio wrote hold canonical timestamps: only other forms need parsing (start-up speed).
  if (typeof t === 'string' && ISO_MS.test(t)) return t;
  if (typeof t !== 'string' || Number.isNaN(Date.parse(t))) throw new DecodeError(`${where}.${k} must be an ISO date`);
  return new Date(t).toISOString();
}

/** A version's own values (all but its attributes), checked and canonicalised; throws when one is not valid. */
function ownValues(raw: Record<string, unknown>, status: Status, where: string): Pick<Version, VersionKey> {
  return {
    id: storedId(raw),
    createdAt: timestamp(raw, 'createdAt', false, where)!,
    updatedAt: timestamp(raw, 'updatedAt', false, where)!,
    publishedAt: status === 'draft' ? null : timestamp(raw, 'publishedAt', false, where),
  };
}

/** A stored id as the index takes it: 0 (a fresh one is given) unless a positive safe integer. */
const storedId = (raw: Record<string, unknown>) =>
  typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id > 0 ? raw.id : 0;

/**
 * The checks every document file passes, shared by decoding and summarising so both accept exactly the
 * same files: calls `version` for each stored version, and `slot` once per locale with what it returned
 * (`draftFromPublished`: a D&P slot holding only a published version, whose draft is to be recreated).
 */
function walkDocument<V>(
  ct: ContentType,
  body: Record<string, unknown>,
  version: (raw: Record<string, unknown>, locale: string, status: Status, where: string) => V,
  slot: (locale: string, draft: V | undefined, published: V | undefined, draftFromPublished: boolean) => void,
) {
  const walkVersion = (raw: unknown, locale: string, status: Status, where: string): V => {
    if (!isObject(raw)) throw new DecodeError(`${where} must be an object`);
    return version(raw, locale, status, where);
  };
  const walkSlot = (raw: unknown, locale: string, where: string) => {
    if (!isObject(raw)) throw new DecodeError(`${where} must be an object`);
    for (const k in raw)
      if (k !== DRAFT && k !== PUBLISHED) throw new DecodeError(`${where}.${k} is not a version (draft or published)`);
    let draft: V | undefined;
    let published: V | undefined;
    if (raw[DRAFT] !== undefined) {
      if (!ct.draftAndPublish) throw new DecodeError(`${where}.draft: ${ct.uid} has no draft & publish`);
      draft = walkVersion(raw[DRAFT], locale, 'draft', `${where}.draft`);
    }
    if (raw[PUBLISHED] !== undefined)
      published = walkVersion(raw[PUBLISHED], locale, 'published', `${where}.published`);
    if (draft === undefined && published === undefined) throw new DecodeError(`${where} holds no version`);
    slot(locale, draft, published, ct.draftAndPublish && draft === undefined);
  };
  let slots = 0;
  if (ct.localized) {
    const locales = body[LOCALES];
    if (!isObject(locales)) throw new DecodeError('"locales" must be an object of locale codes');
    for (const code in locales) {
      if (!LOCALE_CODE.test(code)) throw new DecodeError(`locales.${code} is not a locale code`);
      walkSlot(locales[code], code, `locales.${code}`);
      slots++;
    }
  } else {
    const { [DOCUMENT_ID]: _ignored, ...rest } = body;
    walkSlot(rest, NO_LOCALE, 'document');
    slots++;
  }
  if (slots === 0) throw new DecodeError('the document holds no version');
}

/**
 * Reads a document file body. Ids are taken as stored; the index renumbers clashes (after a git merge two
 * branches may have used the same id).
 */
export function decodeDocument(ct: ContentType, documentId: string, body: Record<string, unknown>): DocumentRecord {
  const doc: DocumentRecord = { uid: ct.uid, documentId, slots: new SlotMap() };
  const { names, links, known } = attributeNames(ct);
  walkDocument<Version>(
    ct,
    body,
    (raw, locale, status, where) => {
      const data: Record<string, unknown> = {};
      for (const n of names) {
        const x = raw[n];
        data[n] = x === undefined ? null : Array.isArray(x) && x.length === 0 ? NO_ITEMS : x;
      }
      for (const n of links) data[n] = sharedLinks(data[n]);
      checkKeys(ct, known, raw, where);
      const own = shareTimestamps(ownValues(raw, status, where));
      return {
        id: own.id,
        documentId,
        locale: locale === NO_LOCALE ? null : locale,
        status,
        createdAt: own.createdAt,
        updatedAt: own.updatedAt,
        publishedAt: own.publishedAt,
        data,
      };
    },
    (locale, draft, published, draftFromPublished) => {
      const slot: Slot = {};
      // A published version always has a draft in Strapi; recreate it from the published one.
      if (draftFromPublished)
        slot.draft = {
          ...published!,
          id: 0,
          status: 'draft',
          publishedAt: null,
          data: structuredClone(published!.data),
        };
      else if (draft) slot.draft = draft;
      if (published) slot.published = published;
      if (draft && published) shareEqualValues(draft, published);
      doc.slots.set(locale, slot);
    },
  );
  return doc;
}

/**
 * Checks a document file body exactly as `decodeDocument` does, without building its versions, and
 * appends its summary to `out` (see `summarize` in summary.ts: per slot the locale's position in `table`,
 * the draft id and the published id, -1 for none). Returns how many numbers were appended. This is what
 * a first start does to 100,000 files before its first answer; values are decoded later, on use.
 */
export function summarizeBody(
  ct: ContentType,
  body: Record<string, unknown>,
  table: Map<string, number>,
  out: number[],
): number {
  const { known } = attributeNames(ct);
  const before = out.length;
  walkDocument<number>(
    ct,
    body,
    (raw, _locale, status, where) => {
      checkKeys(ct, known, raw, where);
      return ownValues(raw, status, where).id;
    },
    (locale, draft, published, draftFromPublished) => {
      let at = table.get(locale);
      if (at === undefined) table.set(locale, (at = table.size));
      out.push(at, draft ?? (draftFromPublished ? 0 : -1), published ?? -1);
    },
  );
  return out.length - before;
}
