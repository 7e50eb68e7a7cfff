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
export function freeUid(unique: UniqueValues, at: UidPlace, value: string): string {
  const taken = unique.valuesLike(at.ct, at.field, at.locale, value, at.documentId);
  if (!taken.has(value)) return value;
  for (let i = 1; ; i++) if (!taken.has(`${value}-${i}`)) return `${value}-${i}`;
}

/**
 * A free uid made from the field's target field in `data` (Strapi's `generateUIDField`: slugified with the
 * attribute's `options`; an empty target gives the attribute's default, else the type's singular name).
 */
export function generateUid(unique: UniqueValues, at: UidPlace, data: Record<string, unknown>): string {
  const attr = at.ct.attributes[at.field] as ScalarAttribute & { options?: slugify.Options };
  const target = attr.targetField === undefined ? undefined : data[attr.targetField];
  const base = isEmpty(target) ? String(attr.default || at.ct.singularName) : String(target);
  return freeUid(unique, at, slugify(base, attr.options));
}

/** lodash's `isEmpty`, as Strapi applies it to the target value: numbers and booleans count as empty. */
function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
