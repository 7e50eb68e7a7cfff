import { notFound } from '../errors.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { DRAFT, LOCALES, PUBLISHED, linkParts } from './file-format.js';
import type { DocumentIndex } from './doc-index.js';
import type { MediaLibrary } from './media.js';
import { storedAttributes } from './model.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The write body that restores one locale of a document to what an older copy of its file held (a version of
 * its history): the draft's values (the published ones on a type without drafts), as the API's write syntax
 * takes them. Passwords keep their current hash (a stored hash is no password to hash again); links to
 * documents and media files that are gone since are left out, as the API would refuse them.
 */
export function restoreBody(
  schemas: SchemaRegistry,
  index: DocumentIndex,
  media: MediaLibrary,
  ct: ContentType,
  body: Record<string, unknown>,
  locale: string | null,
): Record<string, unknown> {
  const slot = ct.localized ? (isObject(body[LOCALES]) ? body[LOCALES][locale ?? ''] : undefined) : body;
  const version = isObject(slot) ? (slot[DRAFT] ?? slot[PUBLISHED]) : undefined;
  if (!isObject(version))
    throw notFound(
      `The document had no ${locale ? `${locale} ` : ''}version in that commit: there is nothing to restore`,
    );
  const cx = { schemas, index, media };
  const data: Record<string, unknown> = {};
  for (const name of storedAttributes(ct)) {
    const attr = ct.attributes[name];
    if (attr.type === 'password' || !(name in version)) continue;
    data[name] = inputValue(cx, attr, version[name]);
  }
  return data;
}

interface Context {
  schemas: SchemaRegistry;
  index: DocumentIndex;
  media: MediaLibrary;
}

/** A stored value in the write syntax: links as documentIds (with their locale), components field by field. */
function inputValue(cx: Context, attr: Attribute, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (attr.type === 'relation') {
    const target = cx.schemas.contentTypes.get(attr.target);
    const links = (Array.isArray(value) ? value : [value]).filter((l): l is string => typeof l === 'string');
    const kept = links
      .map(linkParts)
      .filter((l) => target && cx.index.get(target.uid, l.documentId))
      .map((l) => (l.locale ? { documentId: l.documentId, locale: l.locale } : l.documentId));
    return Array.isArray(value) ? kept : (kept[0] ?? null);
  }
  if (attr.type === 'media') {
    const kept = (Array.isArray(value) ? value : [value]).filter(
      (ref) => (typeof ref === 'string' || typeof ref === 'number') && cx.media.resolve(ref),
    );
    return Array.isArray(value) ? kept : (kept[0] ?? null);
  }
  if (attr.type === 'component' || attr.type === 'dynamiczone') {
    const item = (raw: unknown) => {
      if (!isObject(raw)) return raw;
      const uid = attr.type === 'component' ? attr.component : String(raw.__component);
      const comp = cx.schemas.components.get(uid);
      if (!comp) return raw;
      const out: Record<string, unknown> = attr.type === 'dynamiczone' ? { __component: uid } : {};
      for (const [k, sub] of Object.entries(comp.attributes))
        if (k in raw && sub.type !== 'password') out[k] = inputValue(cx, sub, raw[k]);
      return out;
    };
    return Array.isArray(value) ? value.map(item) : item(value);
  }
  return value;
}
