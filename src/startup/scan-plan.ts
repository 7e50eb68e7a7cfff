import type { ContentType } from '../schema/types.js';
import * as format from '../documents/file-format.js';

/** What a type's files are checked against, computed once per reader. */
export interface ScanPlan {
  localized: boolean;
  draftAndPublish: boolean;
  /** Every key a version may hold, in the order Folio writes them (`encodeDocument`). */
  keys: Uint8Array[];
  kinds: Uint8Array;
  /** The layout of the versions read so far (see `Layout`), taken from the first one. */
  layout?: Layout;
}

/**
 * Folio writes every version of a type with the same white space, so what lies between one value and
 * the next key's value is known in advance: `,`, the version's line break and indentation, `"key": `.
 * Matched eight bytes at a time, as that separator is a large part of every file.
 */
export interface Layout {
  /** The white space between a version's `{` and its first key. */
  indent: Uint8Array;
  /**
   * Per key: the bytes from the comma before it to the space after its colon, as the doubles their
   * eight-byte words spell: at 0, 8, 16… and last the word that ends with the last byte (overlapping
   * the one before unless the length is a multiple of eight). Equal doubles that are not zero are equal
   * bytes; a NaN, which only bytes above 0x7f can spell, equals nothing, so such a key is always read the
   * general way, as is one whose separator is shorter than a word (length 0 here).
   */
  words: Float64Array[];
  lengths: number[];
}

export function layoutFor(keys: Uint8Array[], indent: Uint8Array): Layout {
  const words: Float64Array[] = [];
  const lengths: number[] = [];
  for (const key of keys) {
    const sep = Buffer.concat([Buffer.of(0x2c), indent, Buffer.of(0x22), key, Buffer.of(0x22, 0x3a, 0x20)]);
    const n = sep.length < 8 ? 0 : sep.length;
    const w = new Float64Array(Math.ceil(n / 8));
    for (let q = 0; q < w.length - 1; q++) w[q] = sep.readDoubleLE(q * 8);
    if (n) w[w.length - 1] = sep.readDoubleLE(n - 8);
    words.push(w);
    lengths.push(n);
  }
  return { indent: Uint8Array.from(indent), words, lengths };
}

export const OTHER = 0;
export const ID = 1;
export const CREATED = 2;
export const UPDATED = 3;
export const PUBLISHED = 4;

/** How each of a version's own keys is checked (a key the format gains must be given one here). */
const OWN_KINDS: Record<format.VersionKey, number> = {
  id: ID,
  createdAt: CREATED,
  updatedAt: UPDATED,
  publishedAt: PUBLISHED,
};

/** A string's bytes, for ASCII text. */
export const bytes = (s: string) => Buffer.from(s, 'latin1');

export function scanPlan(ct: ContentType): ScanPlan {
  const names = format.versionKeys(ct);
  const kind = (n: string, at: number) => {
    // Attributes come between the head and the tail of own keys, so one named like an own key is an attribute.
    if (at >= format.VERSION_HEAD.length && at < names.length - format.VERSION_TAIL.length) return OTHER;
    return OWN_KINDS[n as format.VersionKey];
  };
  return {
    localized: ct.localized,
    draftAndPublish: ct.draftAndPublish,
    keys: names.map(bytes),
    kinds: Uint8Array.from(names.map(kind)),
  };
}
