import type { Version } from './model.js';

/*
 * Decoded documents share equal values rather than hold copies: with 100,000s of documents in memory, copies of
 * the same timestamps and links are much of the heap, and of the garbage collector's work. Safe because versions
 * in the index are never changed in place: a write works on a copy of the document (see document-writes.ts
 * `cloneDocument`).
 */

/** Whether two decoded JSON values are equal (same keys in the same order, same values). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // One list of keys, not two: every document's versions are compared as it is decoded.
  const kb = Object.keys(b);
  let i = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    i++;
  }
  return i === kb.length;
}

/**
 * Every empty list a decoded file holds (no tags, no links, an empty zone): one frozen array, not three new
 * objects per document. Frozen so that changing one in place fails rather than changes every document.
 */
export const NO_ITEMS: unknown[] = Object.freeze([]) as unknown as unknown[];

/** A published version whose values and timestamps equal its draft's (most do) holds the draft's. */
export function shareEqualValues(draft: Version, published: Version) {
  if (sameJson(draft.data, published.data)) published.data = draft.data;
  if (draft.createdAt === published.createdAt) published.createdAt = draft.createdAt;
  if (draft.updatedAt === published.updatedAt) published.updatedAt = draft.updatedAt;
}

/** A version's timestamps, one string where they are equal (a version never edited since it was made). */
export function shareTimestamps<T extends { createdAt: string; updatedAt: string; publishedAt: string | null }>(
  own: T,
): T {
  if (own.updatedAt === own.createdAt) own.updatedAt = own.createdAt;
  if (own.publishedAt === own.updatedAt) own.publishedAt = own.updatedAt;
  return own;
}

/**
 * Links (the documentIds a relation holds) seen before, one string each: many documents point at the same few
 * (every article of an author). Bounded: past the bound, new ones are kept as they come.
 */
const links = new Map<string, string>();
const LINKS_HELD = 1 << 16;

function sharedLink(link: string): string {
  const held = links.get(link);
  if (held !== undefined) return held;
  if (links.size < LINKS_HELD) links.set(link, link);
  return link;
}

/** A relation's stored value with its links shared (see `sharedLink`). */
export function sharedLinks(value: unknown): unknown {
  if (typeof value === 'string') return sharedLink(value);
  if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'string') value[i] = sharedLink(value[i]);
  return value;
}
