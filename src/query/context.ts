import type { FolioConfig } from '../config.js';
import type { DocumentIndex } from '../documents/doc-index.js';
import { pickVersion } from '../documents/doc-index.js';
import type { MediaFile, MediaLibrary } from '../documents/media.js';
import { NO_LOCALE, type Status, type Version } from '../documents/model.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType, RelationAttribute } from '../schema/types.js';
import { isOwningSide } from '../schema/types.js';

/** What a read needs: the schemas, the index, and who is asking (for populate permissions). */
export interface ReadContext {
  schemas: SchemaRegistry;
  index: DocumentIndex;
  config: FolioConfig;
  media: MediaLibrary;
  status: Status;
  /** Whether the caller may `find` a content-type; relations to types it may not are left out. */
  canFind(uid: string): boolean;
}

/**
 * The target versions a relation attribute of `source` points at, in stored order, resolved to the read's
 * status and the source's locale. Targets without such a version are left out.
 */
export function relatedVersions(
  ctx: ReadContext,
  ct: ContentType,
  source: Version,
  name: string,
  attr: RelationAttribute,
): Version[] {
  const target = ctx.schemas.contentTypes.get(attr.target);
  if (!target) return [];
  const locale = target.localized ? (source.locale ?? ctx.config.defaultLocale) : NO_LOCALE;
  const pick = (documentId: string): Version | undefined => {
    const doc = ctx.index.get(target.uid, documentId);
    const slot = doc?.slots.get(locale);
    return slot ? pickVersion(target, slot, ctx.status) : undefined;
  };
  const out: Version[] = [];
  if (isOwningSide(attr)) {
    const value = source.data[name];
    const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    for (const id of ids) {
      const v = typeof id === 'string' ? pick(id) : undefined;
      if (v) out.push(v);
    }
    return out;
  }
  // Inverse side: the owners whose matching version points back at this document.
  const ownerAttr = attr.mappedBy!;
  for (const ownerId of ctx.index.referrers(target.uid, ownerAttr, source.documentId)) {
    const v = pick(ownerId);
    if (!v) continue;
    const value = v.data[ownerAttr];
    if (value === source.documentId || (Array.isArray(value) && value.includes(source.documentId))) out.push(v);
  }
  out.sort((a, b) => a.id - b.id);
  void ct;
  return out;
}

/** Target versions for a plain list of documentIds (relations inside components), in the read's status. */
export function targetsByIds(ctx: ReadContext, target: ContentType, value: unknown, locale: string | null): Version[] {
  const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const code = target.localized ? (locale ?? ctx.config.defaultLocale) : NO_LOCALE;
  const out: Version[] = [];
  for (const id of ids) {
    const slot = typeof id === 'string' ? ctx.index.get(target.uid, id)?.slots.get(code) : undefined;
    const v = slot ? pickVersion(target, slot, ctx.status) : undefined;
    if (v) out.push(v);
  }
  return out;
}

export function mediaFiles(ctx: ReadContext, value: unknown): MediaFile[] {
  const refs = typeof value === 'string' || typeof value === 'number' ? [value] : Array.isArray(value) ? value : [];
  const out: MediaFile[] = [];
  for (const r of refs) {
    const f = ctx.media.resolve(r as string | number);
    if (f) out.push(f);
  }
  return out;
}

/** Attributes of an upload file record, for deep filters and sorts through media fields. */
export const FILE_FIELDS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'width',
  'height',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'createdAt',
  'updatedAt',
  'publishedAt',
];
