import { NO_LOCALE } from '../documents/model.js';
import * as format from '../documents/file-format.js';
import { CREATED, ID, OTHER, PUBLISHED, type ScanPlan, UPDATED, bytes, layoutFor } from './scan-plan.js';
import { isDigit, isoTimestamp, keyAt, keyEnd, sameBytes, skipString, skipValue, viewOf, ws } from './scan-json.js';

export { type ScanPlan, scanPlan } from './scan-plan.js';

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

const DOCUMENT_ID = bytes(format.DOCUMENT_ID);
const LOCALES = bytes(format.LOCALES);
const DRAFT = bytes(format.DRAFT);
const PUBLISHED_KEY = bytes(format.PUBLISHED);
const LOCALE_CODE = format.LOCALE_CODE;

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
