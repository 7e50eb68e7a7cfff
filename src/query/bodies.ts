import { hash } from 'node:crypto';
import type { Version } from '../documents/model.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { type Selection, shapeDocument } from './output.js';

/**
 * Shaped documents as UTF-8 JSON bytes with a digest of them, reused from answer to answer for one generation
 * of the index (any change empties it): a list page costs about its rows' lookups and a copy of their bytes,
 * not their shaping, serialising and hashing, when its documents were shown before with the same selection.
 * Keyed by `selection` (the caller's permissions, the status, the type, `fields` and `populate`: all a shaped
 * document depends on besides the version) and by version. Each entry keeps the read budget its shaping spent,
 * counted again when it is reused. Bounded by the bytes held: past the bound the cache starts again empty.
 */
interface Shaped {
  bytes: Buffer;
  /** SHA-1 of `bytes`, as five words (in the platform's byte order, so their bytes are the digest's). */
  digest: Int32Array;
  rows: number;
  budgetBytes: number;
}

/** The bytes a generation's entries may hold (texts and digests); the next entry past it empties the cache. */
export const MAX_SHAPED_BYTES = 32 * 1024 * 1024;
/** What an entry costs besides its text: the digest, the entry and its slot in a Map, roughly. */
const ENTRY_OVERHEAD = 160;
const DIGEST_BYTES = 20;
const DIGEST_WORDS = 5;

/**
 * Where a page's digest input is put together (its documents' digests, then its meta text), hashed at once and
 * so reused by every page.
 */
let digestWords = new Int32Array(DIGEST_WORDS * 100 + 64);
let digestBytes = new Uint8Array(digestWords.buffer);

function digestScratch(bytes: number) {
  if (bytes > digestBytes.length) {
    digestWords = new Int32Array(Math.ceil(bytes / 4) * 2);
    digestBytes = new Uint8Array(digestWords.buffer);
  }
}

interface Cache {
  generation: number;
  bytes: number;
  bySelection: Map<string, Map<Version, Shaped>>;
}
const caches = new WeakMap<object, Cache>();

/** A list answer as bytes, and a digest that changes whenever they do (for an ETag). */
export interface PageBody {
  bytes: Buffer;
  digest: string;
}

/**
 * Answers are cut from shared slabs rather than allocated one by one: a buffer of its own costs a backing store,
 * its tracking and its release, about as much as assembling the page. A slab is freed once none of its answers is
 * referenced; the response cache copies an answer it keeps (see ResponseCache.set), so it holds no slab. An answer
 * a slow client has not taken yet holds its whole slab: slabs are kept small so that costs a few answers more.
 */
const SLAB_BYTES = 128 * 1024;
/** A larger answer gets a buffer of its own. */
const OWN_BUFFER_OVER = 32 * 1024;
let slab = Buffer.alloc(0);
let slabUsed = 0;

/** `size` bytes for an answer, never handed out again (an answer may still be waiting to be written). */
function answerBytes(size: number): Buffer {
  if (size > OWN_BUFFER_OVER) return Buffer.allocUnsafeSlow(size);
  if (slabUsed + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const bytes = slab.subarray(slabUsed, slabUsed + size);
  // The next answer starts on an 8-byte boundary.
  slabUsed += (size + 7) & ~7;
  return bytes;
}

const OPEN = Buffer.from('{"data":[');
const META = Buffer.from('],"meta":');

function cacheOf(ctx: ReadContext): Cache {
  let c = caches.get(ctx.index);
  if (!c || c.generation !== ctx.index.generation || c.bytes > MAX_SHAPED_BYTES) {
    c = { generation: ctx.index.generation, bytes: 0, bySelection: new Map() };
    caches.set(ctx.index, c);
  }
  return c;
}

/** `v` shaped with `sel` as bytes, from the cache when it was shaped so before in this generation. */
function shaped(ctx: ReadContext, ct: ContentType, v: Version, sel: Selection, texts: Map<Version, Shaped>, c: Cache) {
  const hit = texts.get(v);
  if (hit) {
    ctx.budget?.rows(hit.rows);
    ctx.budget?.bytes(hit.budgetBytes);
    return hit;
  }
  const [rows, budgetBytes] = ctx.budget?.used() ?? [0, 0];
  const bytes = Buffer.from(JSON.stringify(shapeDocument(ctx, ct, v, sel)));
  const [rowsAfter, budgetAfter] = ctx.budget?.used() ?? [0, 0];
  const digest = new Int32Array(DIGEST_WORDS);
  new Uint8Array(digest.buffer).set(hash('sha1', bytes, 'buffer'));
  const entry = {
    bytes,
    digest,
    rows: rowsAfter - rows,
    budgetBytes: budgetAfter - budgetBytes,
  };
  texts.set(v, entry);
  c.bytes += bytes.length + DIGEST_BYTES + ENTRY_OVERHEAD;
  return entry;
}

/** Each meta key as JSON text. */
const metaKeys = new Map<string, string>();

/**
 * `JSON.stringify({ pagination: meta })` and the answer's closing brace, written out: the same text for a meta of
 * finite numbers (any other value is left to JSON.stringify), in about half the time.
 */
export function metaJson(meta: Record<string, number>): string {
  let text = '{"pagination":{';
  let first = true;
  for (const key in meta) {
    const value = meta[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${JSON.stringify({ pagination: meta })}}`;
    let quoted = metaKeys.get(key);
    if (quoted === undefined) {
      quoted = JSON.stringify(key);
      // The keys are pagination's own few: a bound all the same.
      if (metaKeys.size < 64) metaKeys.set(key, quoted);
    }
    text += `${first ? '' : ','}${quoted}:${value}`;
    first = false;
  }
  return `${text}}}}`;
}

const PAGINATION_OPEN = Buffer.from('{"pagination":{');
/** Each plain meta key as the bytes of its JSON text and a colon (`"page":`). */
const metaKeyBytes = new Map<string, Buffer>();
/** Room in the digest scratch for a meta written as bytes; a longer one is left to `metaJson`. */
const META_ROOM = 256;

/**
 * `metaJson(meta)` written as ASCII bytes into `out` from `at`, without making its text: answers where it ends,
 * or -1 when a value is not a safe integer other than -0 (as JSON.stringify prints those: all their digits), a
 * key is not a plain word, or it would pass `out`'s end. A caller then writes `metaJson`'s text instead.
 */
export function writeMeta(meta: Record<string, number>, out: Uint8Array, at: number): number {
  if (at + PAGINATION_OPEN.length > out.length) return -1;
  out.set(PAGINATION_OPEN, at);
  at += PAGINATION_OPEN.length;
  let first = true;
  for (const key in meta) {
    let n = meta[key];
    if (!Number.isSafeInteger(n) || Object.is(n, -0)) return -1;
    let k = metaKeyBytes.get(key);
    if (k === undefined) {
      // The keys are pagination's own few: a bound all the same.
      if (!/^[A-Za-z]{1,32}$/.test(key) || metaKeyBytes.size >= 64) return -1;
      metaKeyBytes.set(key, (k = Buffer.from(`"${key}":`)));
    }
    // A comma, the key, a sign and 16 digits, and the closing braces.
    if (at + k.length + 22 > out.length) return -1;
    if (!first) out[at++] = 0x2c; // ','
    first = false;
    for (let i = 0; i < k.length; i++) out[at++] = k[i];
    if (n < 0) {
      out[at++] = 0x2d; // '-'
      n = -n;
    }
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    for (let i = at + digits - 1; i >= at; i--) {
      out[i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    at += digits;
  }
  if (at + 3 > out.length) return -1;
  out[at++] = 0x7d; // '}'
  out[at++] = 0x7d;
  out[at++] = 0x7d;
  return at;
}

/**
 * The v5 list answer `{ data, meta: { pagination } }` of `page`, assembled from its documents' bytes: one copy
 * of each into the answer. Its digest is a SHA-1 of the documents' digests and the meta text, which together
 * decide every byte of the answer, so it changes whenever the answer does.
 */
export function pageBody(
  ctx: ReadContext,
  ct: ContentType,
  page: Version[],
  meta: Record<string, number>,
  sel: Selection,
  selection: string,
): PageBody {
  const c = cacheOf(ctx);
  let texts = c.bySelection.get(selection);
  if (!texts) c.bySelection.set(selection, (texts = new Map()));
  const entries = page.map((v) => shaped(ctx, ct, v, sel, texts, c));
  // The meta is written first where the digest's input is put together, after the documents' digests.
  const metaAt = entries.length * DIGEST_BYTES;
  digestScratch(metaAt + META_ROOM);
  let metaEnd = writeMeta(meta, digestBytes, metaAt);
  if (metaEnd < 0) {
    const text = metaJson(meta);
    digestScratch(metaAt + text.length);
    // The meta text is ASCII (keys and numbers): one byte per character.
    for (let i = 0; i < text.length; i++) digestBytes[metaAt + i] = text.charCodeAt(i);
    metaEnd = metaAt + text.length;
  }
  let size = OPEN.length + META.length + (metaEnd - metaAt) + Math.max(entries.length - 1, 0);
  for (const e of entries) size += e.bytes.length;
  const bytes = answerBytes(size);
  const words = digestWords;
  const digestText = digestBytes;
  bytes.set(OPEN, 0);
  let at = OPEN.length;
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) bytes[at++] = 0x2c; // ','
    const e = entries[i];
    bytes.set(e.bytes, at);
    at += e.bytes.length;
    const d = e.digest;
    const w = i * DIGEST_WORDS;
    words[w] = d[0];
    words[w + 1] = d[1];
    words[w + 2] = d[2];
    words[w + 3] = d[3];
    words[w + 4] = d[4];
  }
  bytes.set(META, at);
  at += META.length;
  for (let i = metaAt; i < metaEnd; i++) bytes[at++] = digestText[i];
  const digestSize = metaEnd;
  return { bytes, digest: hash('sha1', digestText.subarray(0, digestSize), 'base64url') };
}
