import { type Column, compareKindValues } from './column.js';
import type { Work } from './sliced-work.js';
import { sortByKeys } from './sort-ids.js';

/** Rows read between pauses while an order is built. */
const STEP = 8192;

/** Splits `ids[from, to)` into those whose value is null and the others, in order (`count`: how many of each). */
function partition(
  col: Column,
  ids: Int32Array,
  from: number,
  to: number,
  nulls: Int32Array,
  rest: Int32Array,
  count: Int32Array,
) {
  for (let i = from; i < to; i++) {
    if (col.value(ids[i]) === null) nulls[count[0]++] = ids[i];
    else rest[count[1]++] = ids[i];
  }
}

/** The sort keys of `ids[from, to)`: their values, as numbers (booleans as 0 and 1) unless text. */
function keysOf(col: Column, ids: Int32Array, from: number, to: number, keys: string[] | number[]) {
  if (col.kind === 'string') for (let i = from; i < to; i++) keys[i] = col.value(ids[i]) as string;
  else for (let i = from; i < to; i++) keys[i] = Number(col.value(ids[i]));
}

/**
 * The ids of one row set (a type's versions of one status and locale) sorted by one column's value, ties by
 * id: what a sort walks to fill a page, and where a range of values is found by binary search (and counted by
 * the difference of two positions). Nulls come first, as an ascending sort puts them. Kept current by `insert`
 * and `remove` as versions change; only over a column whose values are of one kind.
 */
export class SortedOrder {
  ids: Int32Array;
  length = 0;

  constructor(
    readonly column: Column,
    rowIds: Int32Array,
  ) {
    this.ids = new Int32Array(Math.max(16, rowIds.length + (rowIds.length >> 4)));
    this.ids.set(rowIds);
    this.length = rowIds.length;
  }

  /** Sorts the ids given at construction, a slice at a time: nulls first (in id order), then by value. */
  *build(): Work {
    const col = this.column;
    const n = this.length;
    const ids = this.ids.subarray(0, n);
    const nulls = new Int32Array(n);
    const rest = new Int32Array(n);
    const count = new Int32Array(2);
    for (let i = 0; i < n; i += STEP) {
      partition(col, ids, i, Math.min(n, i + STEP), nulls, rest, count);
      yield;
    }
    const [nullCount, restCount] = count;
    ids.set(nulls.subarray(0, nullCount));
    const sorted = ids.subarray(nullCount);
    sorted.set(rest.subarray(0, restCount));
    // Stryker disable next-line ArrayDeclaration: equivalent, an array filled by index grows as it is filled.
    const keys = col.kind === 'string' ? new Array<string>(restCount) : new Array<number>(restCount);
    for (let i = 0; i < restCount; i += STEP) {
      // Stryker disable next-line MethodExpression: equivalent, keys read again or past the rows sorted are not read.
      keysOf(col, sorted, i, Math.min(restCount, i + STEP), keys);
      yield;
    }
    yield* sortByKeys(keys, sorted);
  }

  /** The position of (`value`, `id`) in the order, or where it would go. */
  private position(value: unknown, id: number): number {
    const col = this.column;
    const ids = this.ids;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = ids[mid];
      if ((compareKindValues(col.value(other), value) || other - id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds `id`, whose value the column holds now. */
  insert(id: number) {
    const at = this.position(this.column.value(id), id);
    // Stryker disable next-line EqualityOperator: equivalent, never made full, it would grow at each insert.
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.ids.length + (this.ids.length >> 1) + 16);
      grown.set(this.ids.subarray(0, this.length));
      this.ids = grown;
    }
    this.ids.copyWithin(at + 1, at, this.length);
    this.ids[at] = id;
    this.length++;
  }

  /** Takes out `id`, at the place of `value` (its value when it was inserted); answers whether it was there. */
  remove(id: number, value: unknown): boolean {
    const at = this.position(value, id);
    if (at >= this.length || this.ids[at] !== id) return false;
    this.ids.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }

  /** The first position whose value is not null. */
  nullEnd(): number {
    return this.bound((v) => v === null);
  }

  /** The first position whose value is at least `value` (`strict`: more than), past the nulls. */
  from(value: unknown, strict: boolean): number {
    return this.bound((v) => {
      if (v === null) return true;
      const c = compareKindValues(v, value);
      return strict ? c <= 0 : c < 0;
    });
  }

  /** The first position where `before` (true over a prefix of the order) is false. */
  private bound(before: (value: unknown) => boolean): number {
    const col = this.column;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(col.value(this.ids[mid]))) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
