import type { FolioConfig } from '../config.js';
import { validationError } from '../errors.js';
import { type ContentType, isLocalizedAttribute, isOwningSide, isRelation, isScalar } from '../schema/types.js';
import { emptyValue } from './input.js';
import { type DocumentRecord, type Version, copyVersion, now } from './model.js';
import { defaultValue } from './values.js';

/** The locale a write addresses on `ct` (null when it has no locales); 400 for a locale not configured. */
export function writeLocale(config: FolioConfig, ct: ContentType, locale: string | undefined): string | null {
  if (!ct.localized) return null;
  const code = locale ?? config.defaultLocale;
  if (!config.locales.some((l) => l.code === code)) {
    throw validationError(
      `Invalid locale "${code}": it is not one of the configured locales ` +
        `(${config.locales.map((l) => l.code).join(', ')})`,
      { locale: code },
    );
  }
  return code;
}

/** A locale's first version, before any input: the draft on draft & publish types, else the published one. */
export function firstVersion(ct: ContentType, documentId: string, locale: string | null, t: string): Version {
  return {
    id: 0,
    documentId,
    locale,
    status: ct.draftAndPublish ? 'draft' : 'published',
    createdAt: t,
    updatedAt: t,
    publishedAt: ct.draftAndPublish ? null : t,
    data: initialData(ct),
  };
}

function initialData(ct: ContentType): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (isRelation(attr) && !isOwningSide(attr)) continue;
    data[name] = isScalar(attr) ? defaultValue(name, attr) : emptyValue(attr);
  }
  return data;
}

/** The published version a draft becomes: a copy with a fresh id and publication time. */
export function publishedCopy(draft: Version): Version {
  return copyVersion(draft, { id: 0, status: 'published', publishedAt: now(), data: structuredClone(draft.data) });
}

/** Shared (non-localized) fields of a new locale's version: from an existing locale, the published one preferred. */
export function copySharedFields(ct: ContentType, doc: DocumentRecord, v: Version) {
  const source = [...doc.slots.values()].map((s) => s.published ?? s.draft).find(Boolean);
  if (!source) return;
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (!isLocalizedAttribute(attr) && name in source.data) v.data[name] = structuredClone(source.data[name]);
  }
}

/** Copies non-localized attribute values from one version to the same-status versions of the other locales. */
export function syncSharedFields(ct: ContentType, doc: DocumentRecord, fromKey: string, from: Version) {
  if (!ct.localized) return;
  const shared = Object.entries(ct.attributes)
    .filter(([, a]) => !isLocalizedAttribute(a))
    .map(([n]) => n);
  if (!shared.length) return;
  for (const [code, slot] of doc.slots) {
    if (code === fromKey) continue;
    const other = from.status === 'draft' ? slot.draft : slot.published;
    if (!other) continue;
    for (const n of shared) other.data[n] = structuredClone(from.data[n]);
  }
}
