import * as format from '../documents/file-format.js';
import { bytes } from './scan-plan.js';

/** JSON read straight from bytes, for the byte scanner (scan-document.ts): each answers an index, or -1. */

// Byte classes. STOP: ends a run of plain string bytes (a quote, a backslash, a control character).
export const STOP = new Uint8Array(256);
for (let c = 0; c < 32; c++) STOP[c] = 1;
STOP[0x22] = 1;
STOP[0x5c] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** The index of the first byte at or after `i` that is not JSON white space. */
export function ws(b: Uint8Array, i: number): number {
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
export function viewOf(b: Uint8Array): DataView<ArrayBufferLike> {
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
export function skipString(b: Uint8Array, i: number, end: number): number {
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
export function skipNumber(b: Uint8Array, i: number): number {
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
export function skipValue(b: Uint8Array, i: number, end: number): number {
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
export function keyEnd(b: Uint8Array, i: number, end: number): number {
  i++;
  while (i < end && STOP[b[i]] === 0) i++;
  return i < end && b[i] === 0x22 ? i : -1;
}

/** Whether `b[from…]` spells `word` then a closing quote, before `end`: the quote's index, or -1. */
export function keyAt(b: Uint8Array, from: number, end: number, word: Uint8Array): number {
  const close = from + word.length;
  if (close >= end || b[close] !== 0x22) return -1;
  for (let k = 0; k < word.length; k++) if (b[from + k] !== word[k]) return -1;
  return close;
}

export const sameBytes = (b: Uint8Array, from: number, to: number, word: Uint8Array) => {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[from + k] !== word[k]) return false;
  return true;
};

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
export function isoTimestamp(b: Uint8Array, i: number, end: number): number {
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
