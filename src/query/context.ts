import type { FolioConfig } from '../config.js';
import type { DocumentIndex } from '../documents/doc-index.js';
import { pickVersion } from '../documents/doc-index.js';
import { linkEntry, linkParts, linksNameLocale, linksTo } from '../documents/file-format.js';
import type { MediaFile, MediaLibrary } from '../documents/media.js';
import { NO_LOCALE, type Status, type Version } from '../documents/model.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType, RelationAttribute } from '../schema/types.js';
import { isOwningSide } from '../schema/types.js';
import type { ReadBudget } from './bounds.js';

/** What a read needs: the schemas, the index, and who is asking (for populate permissions). */
export interface ReadContext {
  schemas: SchemaRegistry;
  index: DocumentIndex;
  config: FolioConfig;
  media: MediaLibrary;
  status: Status;
  /** Whether the caller may `find` a content-type; relations to types it may not are left out. */
  canFind(uid: string): boolean;
  /** The work this read may still do; reads made outside a request (webhooks) have none. */
  budget?: ReadBudget;
}

/**
 * The row a left join gives when nothing is related: every column null. Filters through a relation test
 * it when a document has no related row, as Strapi's SQL does (`filters[author][id][$null]=true`).
 */
export const NULL_ROW: Version = Object.freeze({ data: Object.freeze({}) }) as unknown as Version;

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
  if (!target || source === NULL_ROW) return [];
  const locale = target.localized ? (source.locale ?? ctx.config.defaultLocale) : NO_LOCALE;
  const pick = (documentId: string, code = locale): Version | undefined => {
    const doc = ctx.index.get(target.uid, documentId);
    const slot = doc?.slots.get(code);
    return slot ? pickVersion(target, slot, ctx.status) : undefined;
  };
  const out: Version[] = [];
  if (isOwningSide(attr)) {
    const value = source.data[name];
    const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    ctx.budget?.rows(ids.length);
    // From a type without locales each link names the locale of the version it links (see file-format.ts).
    const named = linksNameLocale(ct, target);
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const link = named ? linkParts(id) : undefined;
      const v = link ? pick(link.documentId, link.locale ?? locale) : pick(id);
      if (v) out.push(v);
    }
    return out;
  }
  // Inverse side: the owners whose matching version points back at this document. From a source without
  // locales every locale's version of a localized owner is linked on its own, so each one is listed; to a
  // localized source, an owner without locales links one locale's version, which its links name.
  const ownerAttr = attr.mappedBy!;
  const everyLocale = target.localized && !ct.localized;
  const referrers = ctx.index.referrers(target.uid, ownerAttr, source.documentId);
  ctx.budget?.rows(referrers.size);
  const back = linksNameLocale(target, ct) ? linkEntry(source.documentId, source.locale, ctx.config.defaultLocale) : '';
  const pointsBack = (v: Version) => {
    const value = v.data[ownerAttr];
    if (back) return linksTo(value, back, ctx.config.defaultLocale);
    return value === source.documentId || (Array.isArray(value) && value.includes(source.documentId));
  };
  for (const ownerId of referrers) {
    if (everyLocale) {
      const slots = ctx.index.get(target.uid, ownerId)?.slots;
      slots?.forEach((slot) => {
        const v = pickVersion(target, slot, ctx.status);
        if (v && pointsBack(v)) out.push(v);
      });
      continue;
    }
    const v = pick(ownerId);
    if (v && pointsBack(v)) out.push(v);
  }
  out.sort((a, b) => a.id - b.id);
  return out;
}

/**
 * Target versions for a plain list of documentIds (relations inside components of a document of type `owner`),
 * in the read's status: a localized target's version in `locale`, the locale of the document version holding
 * the component (as Strapi links from a localized source), else the default locale.
 */
export function targetsByIds(
  ctx: ReadContext,
  target: ContentType,
  value: unknown,
  locale: string | null,
  owner: ContentType | undefined,
): Version[] {
  const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  ctx.budget?.rows(ids.length);
  const code = target.localized ? (locale ?? ctx.config.defaultLocale) : NO_LOCALE;
  // A link names a locale only in a component of a type without locales (see file-format.ts).
  const named = owner !== undefined && linksNameLocale(owner, target);
  const out: Version[] = [];
  for (const id of ids) {
    const link = typeof id === 'string' && named ? linkParts(id) : undefined;
    const slot =
      typeof id === 'string'
        ? ctx.index.get(target.uid, link?.documentId ?? id)?.slots.get(link?.locale ?? code)
        : undefined;
    const v = slot ? pickVersion(target, slot, ctx.status) : undefined;
    if (v) out.push(v);
  }
  return out;
}

const HOLDER_LOCALE = Symbol('holderLocale');

/**
 * A component value read for a filter or a sort, carrying the locale of the document version holding it: the
 * relations inside it resolve in that locale (`holderLocale`). Values that are not objects are left as they are.
 */
export function inHolderLocale(value: unknown, locale: string | null): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [HOLDER_LOCALE]: locale } : value;
}

/** The locale `inHolderLocale` gave a component value (null: none, read as the default locale). */
export function holderLocale(value: unknown): string | null {
  return value && typeof value === 'object'
    ? ((value as { [HOLDER_LOCALE]?: string | null })[HOLDER_LOCALE] ?? null)
    : null;
}

export function mediaFiles(ctx: ReadContext, value: unknown): MediaFile[] {
  const refs = typeof value === 'string' || typeof value === 'number' ? [value] : Array.isArray(value) ? value : [];
  ctx.budget?.rows(refs.length);
  const out: MediaFile[] = [];
  for (const r of refs) {
    const f = ctx.media.resolve(r as string | number);
    if (f) out.push(f);
  }
  return out;
}
