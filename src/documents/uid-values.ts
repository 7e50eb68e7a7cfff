import slugify from '@sindresorhus/slugify';
import type { ContentType, ScalarAttribute } from '../schema/types.js';
import type { UniqueValues } from './unique-values.js';

/** Where a uid value is looked for: the type, the field, the locale (null on types without locales). */
export interface UidPlace {
  ct: ContentType;
  field: string;
  locale: string | null;
  /** The document the value is for: its own versions do not take it. */
  documentId?: string;
}

/** Whether no other document's version (draft or published) of the locale holds `value`. */
export function isUidAvailable(unique: UniqueValues, at: UidPlace, value: string): boolean {
  return !unique.valuesLike(at.ct, at.field, at.locale, value, at.documentId).has(value);
}

/**
 * `value`, or the first of `value-1`, `value-2`… no other document holds, as Strapi's content manager suggests
 * (`findUniqueUID`: the values starting with `value` read once).
 */
export function freeUid(unique: UniqueValues, at: UidPlace, value: string, max = Infinity): string {
  const taken = unique.valuesLike(at.ct, at.field, at.locale, value, at.documentId);
  if (!taken.has(value)) return value;
  for (let i = 1; ; i++) {
    // Within `max`: the value is shortened to make room for its suffix (then looked up on its own).
    const suffix = `-${i}`;
    const kept = cutSlug(value, Math.max(0, max - suffix.length), '-');
    const next = `${kept}${suffix}`;
    if (kept === value ? !taken.has(next) : isUidAvailable(unique, at, next)) return next;
  }
}

/** The longest uid a field holds when its schema names no `maxLength` (as values.ts checks it). */
const UID_MAX = 256;

/**
 * How much of the target's text is slugified, per character of uid: slugify drops spaces and punctuation, so
 * a uid of `max` characters may need more text, but no more than this. The bound matters: slugify's decamelize
 * step takes time quadratic in a run of capitals (a megabyte of them would hold the server for minutes).
 */
const TEXT_PER_UID_CHARACTER = 2;
/** Whatever the schema's `maxLength`, slugify's quadratic step runs on at most this many characters. */
const TEXT_MAX = 4096;

/**
 * A free uid made from the field's target field in `data` (Strapi's `generateUIDField`: slugified with the
 * attribute's `options`; an empty target gives the attribute's default, else the type's singular name). Made from
 * the start of a long text, and cut to the field's `maxLength` (256 by default) with room for a `-N` suffix: a
 * uid the field would refuse helps nobody.
 */
export function generateUid(unique: UniqueValues, at: UidPlace, data: Record<string, unknown>): string {
  const attr = at.ct.attributes[at.field] as ScalarAttribute & { options?: slugify.Options };
  const target = attr.targetField === undefined ? undefined : data[attr.targetField];
  const base = isEmpty(target) ? String(attr.default || at.ct.singularName) : String(target);
  const max = attr.maxLength ?? UID_MAX;
  const slug = slugify(base.slice(0, Math.min(max * TEXT_PER_UID_CHARACTER, TEXT_MAX)), attr.options);
  return freeUid(unique, at, cutSlug(slug, max, attr.options?.separator ?? '-'), max);
}

/**
 * A slug of at most `max` characters: cut after its last whole word that fits (at a separator), and never ending
 * on a separator, which slugify never leaves at an end.
 */
function cutSlug(slug: string, max: number, separator: string): string {
  if (slug.length <= max) return slug;
  let cut = slug.slice(0, max);
  if (separator && !slug.startsWith(separator, max)) {
    const word = cut.lastIndexOf(separator);
    if (word > 0) cut = cut.slice(0, word);
  }
  let end = cut.length;
  while (separator && end >= separator.length && cut.startsWith(separator, end - separator.length))
    end -= separator.length;
  return cut.slice(0, end);
}

/** lodash's `isEmpty`, as Strapi applies it to the target value: numbers and booleans count as empty. */
function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
