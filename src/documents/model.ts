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
export interface Slot {
  draft?: Version;
  published?: Version;
}

/**
 * A document's slots by locale code, in insertion order: the subset of Map the code uses, holding the
 * first slot inline. Almost every document has one or two locales, and 100,000 Maps are most of a large
 * index's memory and of its start-up garbage collection.
 */
export class SlotMap implements Iterable<[string, Slot]> {
  private k0: string | undefined;
  private v0: Slot | undefined;
  private rest: Map<string, Slot> | undefined;

  get size() {
    return (this.k0 === undefined ? 0 : 1) + (this.rest ? this.rest.size : 0);
  }

  /** The first slot in insertion order. */
  first(): Slot | undefined {
    return this.k0 === undefined ? this.rest?.values().next().value : this.v0;
  }

  get(code: string): Slot | undefined {
    if (code === this.k0) return this.v0;
    return this.rest?.get(code);
  }

  has(code: string) {
    return code === this.k0 || !!this.rest?.has(code);
  }

  set(code: string, slot: Slot): this {
    if (code === this.k0 || (this.k0 === undefined && !this.rest?.size)) {
      this.k0 = code;
      this.v0 = slot;
    } else (this.rest ??= new Map()).set(code, slot);
    return this;
  }

  delete(code: string): boolean {
    if (code !== this.k0) return !!this.rest?.delete(code);
    this.k0 = undefined;
    this.v0 = undefined;
    // Keep insertion order: the oldest of the others moves up.
    const first = this.rest?.entries().next();
    if (first && !first.done) {
      [this.k0, this.v0] = first.value;
      this.rest!.delete(first.value[0]);
    }
    return true;
  }

  /** Faster than iterating (no iterator or pair per step): for hot loops over many documents. */
  forEach(fn: (slot: Slot, code: string) => void) {
    if (this.k0 !== undefined) fn(this.v0!, this.k0);
    this.rest?.forEach(fn);
  }

  *entries(): IterableIterator<[string, Slot]> {
    if (this.k0 !== undefined) yield [this.k0, this.v0!];
    if (this.rest) yield* this.rest.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): IterableIterator<Slot> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

export interface DocumentRecord {
  uid: string;
  documentId: string;
  /** Keyed by locale code; `''` for types that are not localized. */
  slots: SlotMap;
}

/** A plain copy of a version (never a spread: snapshot versions keep their values behind accessors). */
export function copyVersion(v: Version, patch: Partial<Version> = {}): Version {
  return {
    id: v.id,
    documentId: v.documentId,
    locale: v.locale,
    status: v.status,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    publishedAt: v.publishedAt,
    data: v.data,
    ...patch,
  };
}

export const NO_LOCALE = '';

/** A new documentId: 24 lowercase alphanumerics starting with a letter, like cuid2's `createId()` that Strapi uses. */
export const newDocumentId = (): string => documentIdFrom(randomBytes(24));

/** The documentId form made from 24 bytes (random, or a digest for ids that must stay the same). */
export function documentIdFrom(bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
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
  doc.slots.forEach((slot) => {
    if (slot.draft) out.push(slot.draft);
    if (slot.published) out.push(slot.published);
  });
  return out;
}
