import { invalidKey, validationError } from '../errors.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import { FILE_OBJECT_KEYS } from '../documents/media.js';

const SYSTEM = ['createdAt', 'updatedAt', 'publishedAt'];

/**
 * `fields=title,slug` / `fields[0]=title`: scalar attributes only; `id` and `documentId` always come back.
 * Returns undefined for "all fields".
 */
export function parseFields(
  owner: ContentType | Record<string, Attribute> | 'media',
  raw: unknown,
): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let list: string[];
  if (typeof raw === 'string')
    list = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  else if (Array.isArray(raw) && raw.every((x) => typeof x === 'string'))
    list = raw.flatMap((s: string) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );
  else throw validationError('Invalid fields parameter. Expected a string or an array of strings');
  if (list.includes('*')) return undefined;
  for (const f of list) {
    if (f === 'id' || f === 'documentId') continue;
    if (owner === 'media') {
      // Every key of a file object can be selected (its objects too), as Strapi's file attributes are scalar.
      if (!(FILE_OBJECT_KEYS as readonly string[]).includes(f))
        throw invalidKey(f, { path: null, source: 'query', param: 'fields' });
      continue;
    }
    const isCt = 'uid' in owner && 'attributes' in owner && typeof (owner as ContentType).kind === 'string';
    const attrs = isCt ? (owner as ContentType).attributes : (owner as Record<string, Attribute>);
    if (isCt && SYSTEM.includes(f)) continue;
    if (isCt && f === 'locale' && (owner as ContentType).localized) continue;
    const attr = Object.prototype.hasOwnProperty.call(attrs, f) ? attrs[f] : undefined;
    if (!attr) throw invalidKey(f, { path: null, source: 'query', param: 'fields' });
    if (!isScalar(attr) || attr.private || attr.type === 'password')
      throw invalidKey(f, { path: f, source: 'query', param: 'fields' });
  }
  return list;
}
