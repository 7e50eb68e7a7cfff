import type { ContentType } from '../schema/types.js';
import { NO_LOCALE } from '../documents/model.js';
import * as format from '../documents/file-format.js';

/**
 * The fast path of a first start: checks a document file's bytes and summarises it (as `summarizeBody`
 * does, see file-format.ts) without decoding it into a string or parsing it into objects. On 100,000 files that
 * saves most of the reader threads' JSON work and the garbage it leaves.
 *
 * It only ever says yes when the slow path would: it validates the whole text as JSON and applies
 * `summarizeBody`'s checks, and answers -1 ("unsure") at the first thing it does not handle itself:
 * invalid JSON, an escaped key, a key out of Folio's order, an id or timestamp in another form, a
 * duplicate key, a missing or unknown one. The caller then runs `JSON.parse` and `summarizeBody`, which
 * accept what they accept and word every error. Files Folio wrote always take the fast path.
 */

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
interface Layout {
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

function layoutFor(keys: Uint8Array[], indent: Uint8Array): Layout {
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

const OTHER = 0;
const ID = 1;
const CREATED = 2;
const UPDATED = 3;
const PUBLISHED = 4;

/** How each of a version's own keys is checked (a key the format gains must be given one here). */
const OWN_KINDS: Record<format.VersionKey, number> = {
  id: ID,
  createdAt: CREATED,
  updatedAt: UPDATED,
  publishedAt: PUBLISHED,
};

const bytes = (s: string) => Buffer.from(s, 'latin1');
const DOCUMENT_ID = bytes(format.DOCUMENT_ID);
const LOCALES = bytes(format.LOCALES);
const DRAFT = bytes(format.DRAFT);
const PUBLISHED_KEY = bytes(format.PUBLISHED);
const LOCALE_CODE = format.LOCALE_CODE;

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

// Byte classes. STOP: ends a run of plain string bytes (a quote, a backslash, a control character).
const STOP = new Uint8Array(256);
for (let c = 0; c < 32; c++) STOP[c] = 1;
STOP[0x22] = 1;
STOP[0x5c] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** The index of the first byte at or after `i` that is not JSON white space. */
function ws(b: Uint8Array, i: number): number {
  let c = b[i];
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i];
  return i;
}

/**
 * A DataView of the buffer being scanned, made again only when the buffer changes (readers reuse
 * theirs): the hot paths below check four or eight bytes a step through it.
 */
let viewed: Uint8Array | undefined;
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
function viewOf(b: Uint8Array): DataView<ArrayBufferLike> {
  if (b !== viewed) {
    viewed = b;
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  return view;
}

/**
 * Whether one of the four bytes of `w` ends a run of plain string bytes (a quote, a backslash, a control
 * character): the classic test for a byte below n, `(w - n * 0x01010101) & ~w & 0x80808080`, exact as
 * to whether there is one, for bytes below 0x20 and, after an exclusive or, for 0x22 and 0x5c.
 */
function stopIn(w: number): boolean {
  const q = w ^ 0x22222222;
  const s = w ^ 0x5c5c5c5c;
  return ((((w - 0x20202020) & ~w) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) !== 0;
}

/** `b[i]` opens a string: the index after its closing quote, or -1 when it is not a valid JSON string. */
function skipString(b: Uint8Array, i: number, end: number): number {
  const v = viewOf(b);
  i++;
  for (;;) {
    while (i + 4 <= end && !stopIn(v.getInt32(i, true))) i += 4;
    while (i < end && STOP[b[i]] === 0) i++;
    if (i >= end) return -1;
    const c = b[i++];
    if (c === 0x22) return i;
    if (c !== 0x5c) return -1; // a raw control character
    const e = b[i++];
    if (e === 0x75) {
      if (i + 4 > end || !(HEX[b[i]] & HEX[b[i + 1]] & HEX[b[i + 2]] & HEX[b[i + 3]])) return -1;
      i += 4;
    } else if (!(
      e === 0x22 ||
      e === 0x5c ||
      e === 0x2f ||
      e === 0x62 ||
      e === 0x66 ||
      e === 0x6e ||
      e === 0x72 ||
      e === 0x74
    ))
      return -1;
  }
}

/** `b[i]` starts a number: the index after it, or -1 when it is not JSON's number grammar. */
function skipNumber(b: Uint8Array, i: number): number {
  let c = b[i];
  if (c === 0x2d) c = b[++i];
  if (c === 0x30) c = b[++i];
  else if (c >= 0x31 && c <= 0x39) {
    do c = b[++i];
    while (isDigit(c));
  } else return -1;
  if (c === 0x2e) {
    c = b[++i];
    if (!isDigit(c)) return -1;
    do c = b[++i];
    while (isDigit(c));
  }
  if (c === 0x65 || c === 0x45) {
    c = b[++i];
    if (c === 0x2b || c === 0x2d) c = b[++i];
    if (!isDigit(c)) return -1;
    do c = b[++i];
    while (isDigit(c));
  }
  return i;
}

/** Whether `b[i…]` spells `word` (true, false, null). */
function literal(b: Uint8Array, i: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return false;
  return true;
}
const TRUE = bytes('true');
const FALSE = bytes('false');
const NULL = bytes('null');

/** Containers open while skipping one value (1: object, 2: array); reused, as values are skipped one at a time. */
const stack: number[] = [];

/** `b[i]` starts any JSON value: the index after it, or -1 when it is not valid JSON. */
function skipValue(b: Uint8Array, i: number, end: number): number {
  let sp = 0;
  for (;;) {
    // A value starts at b[i].
    const c = b[i];
    if (c === 0x22) {
      if ((i = skipString(b, i, end)) < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) {
      i = ws(b, i + 1);
      if (b[i] === (c === 0x7b ? 0x7d : 0x5d)) i++;
      else {
        stack[sp++] = c === 0x7b ? 1 : 2;
        if (c === 0x7b) {
          if (b[i] !== 0x22 || (i = skipString(b, i, end)) < 0) return -1;
          i = ws(b, i);
          if (b[i] !== 0x3a) return -1;
          i = ws(b, i + 1);
        }
        continue;
      }
    } else if (c === 0x74) {
      if (!literal(b, i, TRUE)) return -1;
      i += 4;
    } else if (c === 0x66) {
      if (!literal(b, i, FALSE)) return -1;
      i += 5;
    } else if (c === 0x6e) {
      if (!literal(b, i, NULL)) return -1;
      i += 4;
    } else if ((i = skipNumber(b, i)) < 0) return -1;
    // After a value: close containers, or go on to the next member.
    for (;;) {
      if (sp === 0) return i > end ? -1 : i;
      i = ws(b, i);
      const d = b[i++];
      if (d === 0x2c) {
        i = ws(b, i);
        if (stack[sp - 1] === 1) {
          if (b[i] !== 0x22 || (i = skipString(b, i, end)) < 0) return -1;
          i = ws(b, i);
          if (b[i] !== 0x3a) return -1;
          i = ws(b, i + 1);
        }
        break;
      }
      if (d !== (stack[sp - 1] === 1 ? 0x7d : 0x5d)) return -1;
      sp--;
    }
  }
}

/** `b[i]` opens a key: the index of its closing quote, or -1 for a key with escapes (left to the slow path). */
function keyEnd(b: Uint8Array, i: number, end: number): number {
  i++;
  while (i < end && STOP[b[i]] === 0) i++;
  return i < end && b[i] === 0x22 ? i : -1;
}

/** Whether `b[from…]` spells `word` then a closing quote, before `end`: the quote's index, or -1. */
function keyAt(b: Uint8Array, from: number, end: number, word: Uint8Array): number {
  const close = from + word.length;
  if (close >= end || b[close] !== 0x22) return -1;
  for (let k = 0; k < word.length; k++) if (b[from + k] !== word[k]) return -1;
  return close;
}

const sameBytes = (b: Uint8Array, from: number, to: number, word: Uint8Array) => {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[from + k] !== word[k]) return false;
  return true;
};

/** The key of the member `member` read last: `b[keyFrom, keyTo)`. */
let keyFrom = 0;
let keyTo = 0;

/** `b[i]` should open an object member, `"key":`: sets `keyFrom` and `keyTo`; the index of its value, or -1. */
function member(b: Uint8Array, i: number, end: number): number {
  if (b[i] !== 0x22) return -1;
  const close = keyEnd(b, i, end);
  if (close < 0) return -1;
  keyFrom = i + 1;
  keyTo = close;
  i = ws(b, close + 1);
  return b[i] === 0x3a ? ws(b, i + 1) : -1;
}

/** ISO_MS_FORM (file-format.ts) byte by byte: 0 stands for a digit. */
const ISO_MS = Uint8Array.from([...format.ISO_MS_FORM].map((ch) => (ch === '0' ? 0 : ch.charCodeAt(0))));

/**
 * ISO_MS four bytes at a time (little-endian words, as DataView reads them): per word, which bytes must
 * be digits (0xff each), and the other bytes' values.
 */
const ISO_DIGITS = new Int32Array(6);
const ISO_OTHERS = new Int32Array(6);
for (let k = 0; k < 24; k++) {
  if (ISO_MS[k] === 0) ISO_DIGITS[k >> 2] |= 0xff << (8 * (k & 3));
  else ISO_OTHERS[k >> 2] |= ISO_MS[k] << (8 * (k & 3));
}

/** `b[i]` opens a string in the exact form ISO_MS takes as stored: the index after it, or -1. */
function isoTimestamp(b: Uint8Array, i: number, end: number): number {
  if (i + 26 > end || b[i] !== 0x22 || b[i + 25] !== 0x22) return -1;
  const v = viewOf(b);
  for (let q = 0; q < 6; q++) {
    const w = v.getInt32(i + 1 + 4 * q, true);
    const digits = ISO_DIGITS[q];
    const d = w & digits;
    // A digit is 0x30 to 0x39: its high half is 3, and still 3 with 6 added (a byte that carries into
    // the next one is not a digit, so the word fails either way).
    if (
      (w & ~digits) !== ISO_OTHERS[q] ||
      (d & 0xf0f0f0f0) !== (0x30303030 & digits) ||
      ((d + (0x06060606 & digits)) & 0xf0f0f0f0 & digits) !== (0x30303030 & digits)
    )
      return -1;
  }
  return i + 26;
}

/** The id of the version just scanned (set by `scanVersion`). */
let versionId = 0;

/** Whether `b[i…]` holds a layout's separator (`words`, `n` bytes) before `end`: the index after it, or -1. */
function separatorAt(v: DataView<ArrayBufferLike>, i: number, end: number, words: Float64Array, n: number): number {
  if (n === 0 || i + n > end) return -1;
  const last = words.length - 1;
  for (let q = 0; q < last; q++) if (v.getFloat64(i + 8 * q, true) !== words[q]) return -1;
  return v.getFloat64(i + n - 8, true) === words[last] ? i + n : -1;
}

/**
 * `b[i]` opens a version object: checks its keys and timestamps, sets `versionId`, returns the index
 * after it or -1.
 */
function scanVersion(plan: ScanPlan, b: Uint8Array, i: number, end: number, draft: boolean): number {
  if (b[i] !== 0x7b) return -1;
  const open = i + 1;
  i = ws(b, open);
  const { keys, kinds } = plan;
  // The layout is the first version's; a version indented otherwise (edited by hand) is read without it.
  let layout = plan.layout;
  if (layout === undefined && i > open) layout = plan.layout = layoutFor(keys, b.subarray(open, i));
  else if (layout !== undefined && !sameBytes(b, open, i, layout.indent)) layout = undefined;
  const v = layout === undefined ? undefined : viewOf(b);
  let next = 0;
  let id = 0;
  let timestamps = 0;
  let c: number;
  // The key whose separator the layout just matched (the value comes next), or -1: find the key.
  let k = -1;
  if (b[i] === 0x7d) return -1;
  // The hot loop of a first start (twenty-odd members a version): white space is skipped inline, as
  // a call per skip costs more here than the bytes do.
  for (;;) {
    if (k < 0) {
      if (b[i] !== 0x22) return -1;
      // Keys come in Folio's order: the next one is compared in place, its closing quote included (keys
      // are plain names, so that is the key's whole text). Otherwise, as some may be missing (a newer
      // schema), its end is found and the keys after it are looked through.
      k = next;
      let close = k < keys.length ? keyAt(b, i + 1, end, keys[k]) : -1;
      if (close < 0) {
        close = keyEnd(b, i, end);
        if (close < 0) return -1;
        while (k < keys.length && !sameBytes(b, i + 1, close, keys[k])) k++;
        if (k === keys.length) return -1;
      }
      i = close + 1;
      while ((c = b[i]) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      if (c !== 0x3a) return -1;
      i++;
    }
    next = k + 1;
    while ((c = b[i]) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    const kind = kinds[k];
    if (kind === ID) {
      // A plain positive integer of up to 15 digits is a safe integer as stored; other forms: slow path.
      let n = 0;
      let digits = 0;
      if (c === 0x30 || !isDigit(c)) return -1;
      while (isDigit((c = b[i]))) {
        n = n * 10 + (c - 0x30);
        i++;
        digits++;
      }
      if (digits > 15 || c === 0x2e || c === 0x65 || c === 0x45) return -1;
      id = n;
    } else if (kind === OTHER || (kind === PUBLISHED && draft)) {
      // The usual values inline; objects and non-empty arrays through the general skipper.
      if (c === 0x6e) {
        if (b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) return -1;
        i += 4;
      } else if (c === 0x22) {
        if ((i = skipString(b, i, end)) < 0) return -1;
      } else if (c === 0x5b && b[i + 1] === 0x5d) i += 2;
      else if ((i = skipValue(b, i, end)) < 0) return -1;
    } else {
      if ((i = isoTimestamp(b, i, end)) < 0) return -1;
      timestamps |= 1 << kind;
    }
    // In Folio's layout, the next key and the bytes around it are checked in one go (the same bytes the
    // steps below would pass, as the layout's indentation is white space and ends before the quote).
    if (v !== undefined && next < keys.length) {
      const after = separatorAt(v, i, end, layout!.words[next], layout!.lengths[next]);
      if (after >= 0) {
        i = after;
        k = next;
        continue;
      }
    }
    k = -1;
    while ((c = b[i]) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    i++;
    if (c === 0x7d) break;
    if (c !== 0x2c) return -1;
    while ((c = b[i]) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
  }
  const needed = (1 << CREATED) | (1 << UPDATED) | (draft ? 0 : 1 << PUBLISHED);
  if ((timestamps & needed) !== needed) return -1;
  versionId = id;
  return i;
}

/** Versions found in the slot just scanned (-2: none). */
let slotDraft = -2;
let slotPublished = -2;

/**
 * `b[i]` opens a slot, or the whole file of a non-localized type (`top`, where `documentId` may also
 * stand): scans its versions into `slotDraft` and `slotPublished`; the index after it, or -1.
 */
function scanSlot(plan: ScanPlan, b: Uint8Array, i: number, end: number, top: string | undefined): number {
  slotDraft = -2;
  slotPublished = -2;
  if (b[i] !== 0x7b) return -1;
  i = ws(b, i + 1);
  let sawDocumentId = false;
  if (b[i] === 0x7d) return -1;
  for (;;) {
    if ((i = member(b, i, end)) < 0) return -1;
    if (sameBytes(b, keyFrom, keyTo, DRAFT)) {
      if (slotDraft !== -2 || !plan.draftAndPublish || (i = scanVersion(plan, b, i, end, true)) < 0) return -1;
      slotDraft = versionId;
    } else if (sameBytes(b, keyFrom, keyTo, PUBLISHED_KEY)) {
      if (slotPublished !== -2 || (i = scanVersion(plan, b, i, end, false)) < 0) return -1;
      slotPublished = versionId;
    } else if (top !== undefined && !sawDocumentId && sameBytes(b, keyFrom, keyTo, DOCUMENT_ID)) {
      if ((i = documentIdValue(b, i, end, top)) < 0) return -1;
      sawDocumentId = true;
    } else return -1;
    i = ws(b, i);
    const d = b[i++];
    if (d === 0x7d) break;
    if (d !== 0x2c) return -1;
    i = ws(b, i);
  }
  return slotDraft === -2 && slotPublished === -2 ? -1 : i;
}

/** `b[i]` should be the string `documentId` (ids are plain ASCII): the index after it, or -1. */
function documentIdValue(b: Uint8Array, i: number, end: number, documentId: string): number {
  if (b[i] !== 0x22 || i + documentId.length + 2 > end || b[i + documentId.length + 1] !== 0x22) return -1;
  for (let k = 0; k < documentId.length; k++) if (b[i + 1 + k] !== documentId.charCodeAt(k)) return -1;
  return i + documentId.length + 2;
}

/** Appends a slot's summary as `summarizeBody` does: the locale's position, draft id, published id. */
function pushSlot(plan: ScanPlan, code: string, table: Map<string, number>, out: number[]) {
  let at = table.get(code);
  if (at === undefined) table.set(code, (at = table.size));
  // A D&P slot with only a published version gets its draft recreated at load: 0 asks for a fresh id.
  out.push(at, slotDraft !== -2 ? slotDraft : plan.draftAndPublish ? 0 : -1, slotPublished !== -2 ? slotPublished : -1);
}

/** The last locale code read, reused while files keep naming the same one (most do). */
let lastCode = '';

/** The key `b[from, to)` as a string (locale codes are ASCII; others fail the pattern anyway). */
function codeAt(b: Uint8Array, from: number, to: number): string {
  if (sameChars(b, from, to, lastCode)) return lastCode;
  let s = '';
  for (let k = from; k < to; k++) s += String.fromCharCode(b[k]);
  return (lastCode = s);
}
const sameChars = (b: Uint8Array, from: number, to: number, s: string) => {
  if (to - from !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (b[from + k] !== s.charCodeAt(k)) return false;
  return true;
};

/**
 * `b[i]` opens the `locales` object: scans every slot onto `out` (this file's from `first`); the index
 * after it, or -1.
 */
function scanLocales(
  plan: ScanPlan,
  b: Uint8Array,
  i: number,
  end: number,
  table: Map<string, number>,
  out: number[],
  first: number,
): number {
  if (b[i] !== 0x7b) return -1;
  i = ws(b, i + 1);
  if (b[i] === 0x7d) return -1;
  for (;;) {
    if ((i = member(b, i, end)) < 0 || keyTo - keyFrom > 63) return -1;
    const code = codeAt(b, keyFrom, keyTo);
    if (!LOCALE_CODE.test(code)) return -1;
    // A locale named twice: JSON.parse keeps the last, in the first one's place; the slow path knows how.
    const at = table.get(code);
    if (at !== undefined) for (let k = first; k < out.length; k += 3) if (out[k] === at) return -1;
    if ((i = scanSlot(plan, b, i, end, undefined)) < 0) return -1;
    pushSlot(plan, code, table, out);
    i = ws(b, i);
    const d = b[i++];
    if (d === 0x7d) return i;
    if (d !== 0x2c) return -1;
    i = ws(b, i);
  }
}

/**
 * Summarises the document file `b[start, end)` (the file named `documentId`.json) onto `out` and returns
 * how many numbers it appended, exactly as `summarizeBody(ct, parseDocumentText(text, documentId), …)`
 * would; or -1, leaving `out` as it was, when the slow path must decide.
 */
export function scanDocument(
  plan: ScanPlan,
  b: Uint8Array,
  start: number,
  end: number,
  documentId: string,
  table: Map<string, number>,
  out: number[],
): number {
  const before = out.length;
  let i = ws(b, start);
  if (plan.localized) i = scanLocalizedFile(plan, b, i, end, documentId, table, out);
  else if ((i = scanSlot(plan, b, i, end, documentId)) >= 0) pushSlot(plan, NO_LOCALE, table, out);
  if (i >= 0) {
    // Only white space may follow, up to `end` and not past it: what lies beyond is not this file's.
    let c = b[i];
    while (i < end && (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) c = b[++i];
    if (i === end) return out.length - before;
  }
  out.length = before;
  return -1;
}

/** `{ "documentId": …, "locales": { … } }`, in either order, nothing else. */
function scanLocalizedFile(
  plan: ScanPlan,
  b: Uint8Array,
  i: number,
  end: number,
  documentId: string,
  table: Map<string, number>,
  out: number[],
): number {
  const first = out.length;
  if (b[i] !== 0x7b) return -1;
  i = ws(b, i + 1);
  let sawDocumentId = false;
  let sawLocales = false;
  if (b[i] === 0x7d) return -1;
  for (;;) {
    if ((i = member(b, i, end)) < 0) return -1;
    if (!sawDocumentId && sameBytes(b, keyFrom, keyTo, DOCUMENT_ID)) {
      if ((i = documentIdValue(b, i, end, documentId)) < 0) return -1;
      sawDocumentId = true;
    } else if (!sawLocales && sameBytes(b, keyFrom, keyTo, LOCALES)) {
      if ((i = scanLocales(plan, b, i, end, table, out, first)) < 0) return -1;
      sawLocales = true;
    } else return -1;
    i = ws(b, i);
    const d = b[i++];
    if (d === 0x7d) return sawLocales ? i : -1;
    if (d !== 0x2c) return -1;
    i = ws(b, i);
  }
}
