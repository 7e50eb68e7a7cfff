import { type Column, compareKindValues } from '../documents/column.js';
import type { SortedOrder } from '../documents/sorted-order.js';
import { IdSet } from './id-sets.js';
import { compareValues } from './sort.js';
import type { Pause } from '../documents/sliced-work.js';

/** A sort key read from its column. */
export interface SortColumn {
  column: Column;
  desc: boolean;
}

function setOf(ids: Int32Array): (id: number) => boolean {
  const set = IdSet.of(ids);
  return (id) => set.has(id);
}

/** Takes the rows of `ids[from, to)` that `member` accepts, passing over `skip.left` first, up to `limit`. */
function walkForward(
  ids: Int32Array,
  from: number,
  to: number,
  member: (id: number) => boolean,
  skip: { left: number },
  limit: number,
  out: number[],
) {
  for (let i = from; i < to && out.length < limit; i++) {
    if (!member(ids[i])) continue;
    if (skip.left > 0) skip.left--;
    else out.push(ids[i]);
  }
}

/** Rows walked between pauses. */
const STEP = 4096;

/** Compares two rows by the sort keys, ties by id: the order `compileSort` gives over rows in id order. */
export function compareRows(keys: SortColumn[], a: number, b: number): number {
  for (const { column, desc } of keys) {
    const c = compareValues(column.value(a), column.value(b));
    if (c !== 0) return desc ? -c : c;
  }
  return a - b;
}

/**
 * The page `[start, start + limit)` of the rows `matches` (undefined: every row of the order `within` its
 * positions `[from, to)`, which hold every row of each value they span) sorted by `keys`,
 * whose first key's sorted `order` is walked from the end the sort starts at until the page is full. Rows
 * that tie on the first key form a run of the order (in id order), sorted by the other keys when there are some.
 * Few matches among many rows are sorted outright instead, as the walk would pass over most of the order.
 */
export function* sortedPage(
  order: SortedOrder,
  keys: SortColumn[],
  found: { matches: Int32Array; member?: (id: number) => boolean } | undefined,
  start: number,
  limit: number,
  rowCount: number,
  within: { from: number; to: number } = { from: 0, to: order.length },
): Generator<Pause, Int32Array | number[]> {
  const want = start + limit;
  const matches = found?.matches;
  // Stryker disable BlockStatement,ConditionalExpression,EqualityOperator,LogicalOperator,ArithmeticOperator:
  // equivalent, shortcuts of cost only: the walk below answers the same page, empty ones included (sorted-pages).
  if (matches) {
    if (!matches.length || start >= matches.length) return new Int32Array(0);
    // The walk passes about want * rowCount / matches rows; sorting the matches costs about m log m.
    const walk = (want * rowCount) / matches.length;
    if (matches.length * Math.log2(matches.length + 1) * 2 < walk) {
      // Stryker restore all
      const sorted = matches.slice().sort((a, b) => compareRows(keys, a, b));
      return sorted.slice(start, want);
    }
  }
  const member = found && (found.member ?? setOf(found.matches));
  const ids = order.ids;
  const first = keys[0];
  // Stryker disable next-line MethodExpression: equivalent, the first key again only ties each run's rows.
  const rest = keys.slice(1);
  // The page is all it holds: a plain list, as a typed array of a few ids costs more to make.
  const out: number[] = [];
  let skipped = 0;
  const take = (id: number) => {
    if (skipped < start) skipped++;
    else out.push(id);
  };
  const { from, to } = within;
  if (!first.desc && !rest.length) {
    if (!member) return ids.slice(Math.min(from + start, to), Math.min(from + want, to));
    const skip = { left: start };
    for (let i = from; i < to && out.length < limit; i += STEP) {
      walkForward(ids, i, Math.min(to, i + STEP), member, skip, limit, out);
      yield;
    }
    return out;
  }
  // Runs of equal first-key values, from the end the sort starts at; each run in id order (its order in
  // `order`), sorted by the other keys when there are some. A run's far end is looked for only when its
  // neighbour holds the same value (most runs are one row long).
  const col = first.column;
  let walked = 0;
  let i = first.desc ? to - 1 : from;
  while (i >= from && i < to && out.length < limit) {
    const value = col.value(ids[i]);
    let lo = i;
    let hi = i + 1;
    if (first.desc && i > from && compareKindValues(col.value(ids[i - 1]), value) === 0)
      lo = value === null ? 0 : order.from(value, false);
    // Stryker disable next-line LogicalOperator: equivalent, a run's far end looked for once too often is i + 1.
    else if (!first.desc && i + 1 < to && compareKindValues(col.value(ids[i + 1]), value) === 0)
      hi = value === null ? order.nullEnd() : order.from(value, true);
    // Stryker disable next-line ArithmeticOperator: equivalent, a one-row run taken as a run is taken the same.
    if (hi - lo === 1) {
      if (!member || member(ids[lo])) take(ids[lo]);
    } else if (!member && !rest.length && skipped + (hi - lo) <= start) skipped += hi - lo;
    else {
      let run: number[] = [];
      for (let k = lo; k < hi; k++) if (!member || member(ids[k])) run.push(ids[k]);
      if (skipped + run.length <= start) skipped += run.length;
      else {
        // Stryker disable next-line LogicalOperator,ConditionalExpression,EqualityOperator: equivalent, a run is in
        // id order, as the last tie-break sorts, and a run of one row is sorted (the mark also covers the killed
        // `false`, which leaves runs unsorted by the other keys).
        if (rest.length && run.length > 1) run = run.sort((a, b) => compareRows(rest, a, b));
        for (let k = 0; k < run.length && out.length < limit; k++) take(run[k]);
      }
    }
    i = first.desc ? lo - 1 : hi;
    // Stryker disable next-line ArithmeticOperator: equivalent, pausing sooner than every STEP rows costs time only.
    walked += hi - lo;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, a pause at STEP rows, at each
    // run or never answers the same page.
    if (walked > STEP) {
      walked = 0;
      yield;
    }
  }
  return out;
}
