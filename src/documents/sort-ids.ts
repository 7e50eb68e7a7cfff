import type { Work } from './sliced-work.js';

/** Runs sorted at once before they are merged: small enough to sort within a slice. */
const RUN = 1024;
/** How many rows a merge moves between pauses. */
const MERGE_STEP = 8192;

type Compare = (a: number, b: number) => number;

/**
 * Merges `src[a, mid)` and `src[b, hi)` into `dst` from `out` on, for up to `count` rows; answers the new
 * `a`, `b` and `out` (a plain loop, kept out of the generator below, which optimises less well).
 */
function merge(
  src: Int32Array,
  dst: Int32Array,
  compare: Compare,
  state: Int32Array,
  mid: number,
  hi: number,
  count: number,
) {
  let a = state[0];
  let b = state[1];
  let out = state[2];
  const stop = Math.min(hi, out + count);
  while (out < stop) {
    if (b >= hi || (a < mid && compare(src[a], src[b]) <= 0)) dst[out++] = src[a++];
    else dst[out++] = src[b++];
  }
  state[0] = a;
  state[1] = b;
  state[2] = out;
}

/**
 * Sorts `ids` in place by `compare` (a total order: it never answers 0 for two different ids), pausing every few
 * thousand rows, so a large collection is sorted a slice at a time (see sliced-work.ts): runs sorted at once,
 * then merged pairwise.
 */
export function* sortIds(ids: Int32Array, compare: Compare): Work {
  const n = ids.length;
  for (let i = 0; i < n; i += RUN) {
    ids.subarray(i, Math.min(n, i + RUN)).sort(compare);
    yield;
  }
  if (n <= RUN) return;
  let src: Int32Array = ids;
  let dst: Int32Array = new Int32Array(n);
  const state = new Int32Array(3);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      state[0] = lo;
      state[1] = mid;
      state[2] = lo;
      while (state[2] < hi) {
        merge(src, dst, compare, state, mid, hi, MERGE_STEP);
        yield;
      }
    }
    [src, dst] = [dst, src];
  }
  if (src !== ids) ids.set(src);
}

/**
 * Sort keys: numbers or texts, in plain arrays. Integers are then held as small integers, read without allocating
 * by code at every tier; a number read from a `Float64Array` by code not optimised yet is a new heap number.
 */
type Keys = number[] | string[];

/** Runs sorted by insertion before they are merged. */
const SMALL = 32;
/**
 * Rows sorted by insertion, and rows a keyed merge moves, between pauses. While V8 marks a large heap, every
 * 64 KB the main thread allocates costs it a marking step (tens of milliseconds on a busy machine), and a
 * fractional number read by code not optimised yet is a new heap number: so few rows per pause.
 */
const INSERTION_STEP = 256;
const KEYED_MERGE_STEP = 2048;

// Numbers and texts go through separate copies of the same two loops: one function reading both kinds of key
// would box every number it reads (see INSERTION_STEP) even once optimised.

function insertionSortNumbers(keys: number[], ids: Int32Array, from: number, to: number) {
  for (let i = from + 1; i < to; i++) {
    const k = keys[i];
    const id = ids[i];
    let j = i - 1;
    while (j >= from && (keys[j] > k || (keys[j] === k && ids[j] > id))) {
      keys[j + 1] = keys[j];
      ids[j + 1] = ids[j];
      j--;
    }
    keys[j + 1] = k;
    ids[j + 1] = id;
  }
}

function insertionSortTexts(keys: string[], ids: Int32Array, from: number, to: number) {
  for (let i = from + 1; i < to; i++) {
    const k = keys[i];
    const id = ids[i];
    let j = i - 1;
    while (j >= from && (keys[j] > k || (keys[j] === k && ids[j] > id))) {
      keys[j + 1] = keys[j];
      ids[j + 1] = ids[j];
      j--;
    }
    keys[j + 1] = k;
    ids[j + 1] = id;
  }
}

/**
 * Merges the runs `[a, mid)` and `[mid, hi)` of (`keys`, `ids`) into (`kOut`, `iOut`) by key then id, compared
 * inline (no comparator call per step), for up to `count` rows from `state` on.
 */
function mergeNumbers(
  keys: number[],
  ids: Int32Array,
  kOut: number[],
  iOut: Int32Array,
  state: Int32Array,
  mid: number,
  hi: number,
  count: number,
) {
  let a = state[0];
  let b = state[1];
  let out = state[2];
  const stop = Math.min(hi, out + count);
  while (out < stop) {
    let fromA = b >= hi;
    if (!fromA && a < mid) {
      const ka = keys[a];
      const kb = keys[b];
      fromA = ka < kb || (ka === kb && ids[a] < ids[b]);
    }
    if (fromA) {
      kOut[out] = keys[a];
      iOut[out++] = ids[a++];
    } else {
      kOut[out] = keys[b];
      iOut[out++] = ids[b++];
    }
  }
  state[0] = a;
  state[1] = b;
  state[2] = out;
}

/** `mergeNumbers` for texts. */
function mergeTexts(
  keys: string[],
  ids: Int32Array,
  kOut: string[],
  iOut: Int32Array,
  state: Int32Array,
  mid: number,
  hi: number,
  count: number,
) {
  let a = state[0];
  let b = state[1];
  let out = state[2];
  const stop = Math.min(hi, out + count);
  while (out < stop) {
    let fromA = b >= hi;
    if (!fromA && a < mid) {
      const ka = keys[a];
      const kb = keys[b];
      fromA = ka < kb || (ka === kb && ids[a] < ids[b]);
    }
    if (fromA) {
      kOut[out] = keys[a];
      iOut[out++] = ids[a++];
    } else {
      kOut[out] = keys[b];
      iOut[out++] = ids[b++];
    }
  }
  state[0] = a;
  state[1] = b;
  state[2] = out;
}

/**
 * Sorts `ids` in place by their `keys` (numbers or strings, one kind, aligned with `ids` and sorted with them),
 * ties by id: a merge sort comparing inline, pausing every few hundred to few thousand rows.
 */
export function* sortByKeys(keys: Keys, ids: Int32Array): Work {
  const n = ids.length;
  const numbers = typeof keys[0] === 'number';
  for (let lo = 0; lo < n; lo += SMALL) {
    const to = Math.min(n, lo + SMALL);
    if (numbers) insertionSortNumbers(keys as number[], ids, lo, to);
    else insertionSortTexts(keys as string[], ids, lo, to);
    if ((lo + SMALL) % INSERTION_STEP === 0) yield;
  }
  let kSrc = keys;
  let iSrc: Int32Array = ids;
  let kDst: Keys = numbers ? new Array<number>(n) : new Array<string>(n);
  let iDst: Int32Array = new Int32Array(n);
  const state = new Int32Array(3);
  for (let width = SMALL; width < n; width *= 2) {
    let moved = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      state[0] = lo;
      state[1] = mid;
      state[2] = lo;
      while (state[2] < hi) {
        const before = state[2];
        if (numbers) mergeNumbers(kSrc as number[], iSrc, kDst as number[], iDst, state, mid, hi, KEYED_MERGE_STEP);
        else mergeTexts(kSrc as string[], iSrc, kDst as string[], iDst, state, mid, hi, KEYED_MERGE_STEP);
        // Many small merges pause as one large one does: every few thousand rows moved.
        moved += state[2] - before;
        if (moved >= KEYED_MERGE_STEP) {
          moved = 0;
          yield;
        }
      }
    }
    [kSrc, kDst] = [kDst, kSrc];
    [iSrc, iDst] = [iDst, iSrc];
  }
  if (iSrc !== ids) ids.set(iSrc);
}
