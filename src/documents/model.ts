import { randomBytes } from 'node:crypto';
import type { ContentType } from '../schema/types.js';
import { isRelation, isOwningSide } from '../schema/types.js';

export type Status = 'draft' | 'published';

/**
 * One version of a document: Strapi's "row", one per (locale, draft|published).
 * `data` holds stored attribute values: scalars, inline components and zones, owning-side relations as
 * target documentIds, media as file references.
 */
export interface Version {
  id: number;
  documentId: string;
  locale: string | null;
  status: Status;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  data: Record<string, unknown>;
}

/** Draft and published versions of one locale. Types without draft & publish only have `published`. */
export interface Slot { draft?: Version; published?: Version }

export interface DocumentRecord {
  uid: string;
  documentId: string;
  /** Keyed by locale code; `''` for types that are not localized. */
  slots: Map<string, Slot>;
  /** Set on documents indexed from a start-up snapshot whose values are not decoded yet (see lazy.ts). */
  lazy?: { readonly loaded: boolean; load(): void };
}

/** A plain copy of a version (never a spread: snapshot versions keep their values behind accessors). */
export function copyVersion(v: Version, patch: Partial<Version> = {}): Version {
  return {
    id: v.id, documentId: v.documentId, locale: v.locale, status: v.status,
    createdAt: v.createdAt, updatedAt: v.updatedAt, publishedAt: v.publishedAt, data: v.data, ...patch,
  };
}

export const NO_LOCALE = '';

/** 24 lowercase alphanumerics starting with a letter, like cuid2's `createId()` that Strapi uses. */
export function newDocumentId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let out = alphabet[bytes[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[bytes[i] % 36];
  return out;
}

/** Strapi timestamps: ISO 8601 UTC with milliseconds. Strictly increasing within a process so order is stable. */
let lastNow = 0;
export function now(): string {
  let t = Date.now();
  if (t <= lastNow) t = lastNow + 1;
  lastNow = t;
  return new Date(t).toISOString();
}

/** Attributes kept in the document file: all but the derived (mappedBy) side of relations. */
export function storedAttributes(ct: ContentType): string[] {
  return Object.entries(ct.attributes)
    .filter(([, a]) => !(isRelation(a) && !isOwningSide(a)))
    .map(([name]) => name);
}

export function versions(doc: DocumentRecord): Version[] {
  const out: Version[] = [];
  for (const slot of doc.slots.values()) {
    if (slot.draft) out.push(slot.draft);
    if (slot.published) out.push(slot.published);
  }
  return out;
}
