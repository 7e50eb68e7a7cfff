import { describe, expect, it } from 'vitest';
import { Column } from '../src/documents/column.js';
import type { Version } from '../src/documents/model.js';
import { finishNow } from '../src/documents/sliced-work.js';
import { SortedOrder } from '../src/documents/sorted-order.js';
import { type SortColumn, sortedPage } from '../src/query/walk.js';

/**
 * A sorted page read off a field's sorted order (what a list query with `sort` answers from the indexes), against a
 * plain sort of the same rows: every sort direction, with a second key or not, every row or some, pages at the
 * start, across runs of tied values and past the end. Values tie, some are null, ids are not contiguous.
 */

type Value = number | string | boolean | null;

/** A column holding `values` (by id), as the indexes hold one field. */
function columnOf(values: Map<number, Value>): Column {
  const column = new Column((v) => (v.data as { x: Value }).x, 1 << 20);
  for (const [id, x] of values) column.set(id, { id, data: { x } } as unknown as Version);
  return column;
}

/** The plain order: nulls first, then by value, reversed for a descending key; ties by id. */
function plainCompare(keys: Array<{ values: Map<number, Value>; desc: boolean }>, a: number, b: number) {
  for (const { values, desc } of keys) {
    const x = values.get(a) ?? null;
    const y = values.get(b) ?? null;
    const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
    if (c !== 0) return desc ? -c : c;
  }
  return a - b;
}

function run<T>(work: Generator<unknown, T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const r = work.next();
    if (r.done) return { value: r.value, pauses };
    pauses++;
  }
}

const N = 300;
const ids = Int32Array.from({ length: N }, (_, i) => 3 * i + 2);
const FIELDS: Record<string, Map<number, Value>> = {
  // Long runs of ties, and nulls.
  views: new Map([...ids].map((id, i) => [id, i % 11 === 0 ? null : (i * 7) % 5])),
  // Mostly distinct, a few ties.
  score: new Map([...ids].map((id, i) => [id, (i * 37) % 250])),
  title: new Map([...ids].map((id, i) => [id, i % 13 === 0 ? null : ['b', 'a', 'B', 'c', 'ab'][i % 5]])),
  flag: new Map([...ids].map((id, i) => [id, i % 9 === 0 ? null : i % 2 === 0])),
};
const columns = Object.fromEntries(Object.entries(FIELDS).map(([k, v]) => [k, columnOf(v)]));
const orders = Object.fromEntries(
  Object.keys(FIELDS).map((k) => {
    const order = new SortedOrder(columns[k], ids);
    finishNow(order.build());
    return [k, order];
  }),
);

const SORTS: Array<Array<[field: string, desc: boolean]>> = [
  [['views', false]],
  [['views', true]],
  [['score', false]],
  [['score', true]],
  [['title', false]],
  [['title', true]],
  [['flag', true]],
  [
    ['views', false],
    ['score', true],
  ],
  [
    ['views', true],
    ['title', false],
  ],
  [
    ['flag', false],
    ['views', true],
  ],
  [
    ['title', true],
    ['flag', false],
    ['score', false],
  ],
];
const every = [...ids];
const MATCHES: Array<[name: string, ids: number[] | undefined, member?: boolean]> = [
  ['every row', undefined],
  ['every row, as matches', every],
  ['every third row', every.filter((_, i) => i % 3 === 0)],
  ['every third row, with a member test', every.filter((_, i) => i % 3 === 0), true],
  ['most rows', every.filter((_, i) => i % 17 !== 4)],
  ['a few rows', every.filter((_, i) => i % 60 === 7)],
  ['one row', [every[120]]],
  ['no row', []],
];
const PAGES: Array<[start: number, limit: number]> = [
  [0, 1],
  [0, 10],
  [0, 1000],
  [5, 7],
  [24, 3],
  [60, 25],
  [99, 1],
  [N - 4, 10],
  [N, 5],
  [N + 20, 5],
];

describe('sorted pages read off a sorted order', () => {
  it.each(MATCHES)('match %s as a plain sort does', (_name, matches, member) => {
    for (const sort of SORTS) {
      const keys: SortColumn[] = sort.map(([f, desc]) => ({ column: columns[f], desc }));
      const plainKeys = sort.map(([f, desc]) => ({ values: FIELDS[f], desc }));
      const rows = matches ?? every;
      const expected = [...rows].sort((a, b) => plainCompare(plainKeys, a, b));
      const set = new Set(rows);
      const found = matches && {
        matches: Int32Array.from(matches),
        member: member ? (id: number) => set.has(id) : undefined,
      };
      for (const [start, limit] of PAGES) {
        const page = run(sortedPage(orders[sort[0][0]], keys, found, start, limit, N)).value;
        expect([...page], JSON.stringify({ sort, start, limit })).toEqual(expected.slice(start, start + limit));
      }
    }
  });
});

describe('a sorted order', () => {
  const order = (field: string) => orders[field];

  it('holds nulls first (in id order), then values ascending, ties in id order', () => {
    for (const [field, values] of Object.entries(FIELDS)) {
      const expected = [...ids].sort((a, b) => plainCompare([{ values, desc: false }], a, b));
      expect([...order(field).ids.subarray(0, order(field).length)], field).toEqual(expected);
    }
  });

  it('finds where values start and end, past the nulls', () => {
    for (const [field, values] of Object.entries(FIELDS)) {
      const o = order(field);
      const sorted = [...o.ids.subarray(0, o.length)].map((id) => values.get(id) ?? null);
      const nulls = sorted.filter((v) => v === null).length;
      expect(o.nullEnd(), field).toBe(nulls);
      const probes = [...new Set(sorted.filter((v) => v !== null))] as Array<number | string | boolean>;
      if (typeof probes[0] === 'number') probes.push(-1, 2.5, 1000);
      if (typeof probes[0] === 'string') probes.push('', 'A', 'aa', 'zz');
      for (const x of probes) {
        const below = sorted.filter((v) => v !== null && v < x).length;
        const upTo = sorted.filter((v) => v !== null && v <= x).length;
        expect(o.from(x, false), `${field} ${x}`).toBe(nulls + below);
        expect(o.from(x, true), `${field} ${x}`).toBe(nulls + upTo);
      }
    }
  });

  it('stays sorted through inserts and removals, and grows past the room it was made with', () => {
    const values = new Map<number, Value>();
    const column = columnOf(values);
    const setValue = (id: number, x: Value) => {
      values.set(id, x);
      column.set(id, { id, data: { x } } as unknown as Version);
    };
    const start = Int32Array.from({ length: 20 }, (_, i) => i * 2 + 1);
    for (const id of start) setValue(id, id % 5 === 0 ? null : id % 7);
    const o = new SortedOrder(column, start);
    finishNow(o.build());
    const held = new Set(start);
    const check = () => {
      const expected = [...held].sort((a, b) => plainCompare([{ values, desc: false }], a, b));
      expect([...o.ids.subarray(0, o.length)]).toEqual(expected);
    };
    check();
    for (let k = 0; k < 200; k++) {
      const id = 100 + k;
      setValue(id, k % 9 === 0 ? null : (k * 5) % 7);
      o.insert(id);
      held.add(id);
      if (k % 3 === 0) {
        // A value changed: out at its old place, in at its new one.
        const moved = 100 + Math.floor(k / 2);
        expect(o.remove(moved, values.get(moved) ?? null)).toBe(true);
        setValue(moved, k % 4);
        o.insert(moved);
      }
      if (k % 5 === 0) {
        const gone = start[k % start.length];
        if (held.has(gone)) {
          expect(o.remove(gone, values.get(gone) ?? null)).toBe(true);
          held.delete(gone);
        }
      }
    }
    check();
    // An id the order does not hold (another status's version, one removed already) leaves it as it was.
    const length = o.length;
    expect(o.remove(start[0], values.get(start[0]) ?? null)).toBe(false);
    expect(o.remove(9999, 3)).toBe(false);
    expect(o.remove(9999, null)).toBe(false);
    expect(o.length).toBe(length);
    check();
    // The last row taken out twice: the room past the end still holds it, and is no part of the order.
    const last = o.ids[o.length - 1];
    expect(o.remove(last, values.get(last) ?? null)).toBe(true);
    held.delete(last);
    expect(o.remove(last, values.get(last) ?? null)).toBe(false);
    expect(o.length).toBe(length - 1);
    check();
  });
});

describe('sorted orders and pages over many rows', () => {
  const M = 20_000;
  const big = Int32Array.from({ length: M }, (_, i) => i + 1);
  const values = new Map<number, Value>([...big].map((id) => [id, id % 100 === 0 ? null : (id * 7919) % 9973]));
  const column = columnOf(values);
  const order = new SortedOrder(column, big);
  const built = run(order.build());
  const plain = [...big].sort((a, b) => plainCompare([{ values, desc: false }], a, b));

  it('are built in order, pausing every few thousand rows', () => {
    expect([...order.ids.subarray(0, order.length)]).toEqual(plain);
    expect(built.pauses).toBeGreaterThanOrEqual(M / 8192);
  });

  it('are walked to the last page in order, pausing every few thousand rows', () => {
    const half = new Set([...big].filter((id) => id % 2 === 1));
    const member = (id: number) => half.has(id);
    const matches = Int32Array.from(half);
    for (const desc of [false, true]) {
      const rows = plain.filter(member);
      if (desc) rows.sort((a, b) => plainCompare([{ values, desc: true }], a, b));
      const keys = [{ column, desc }];
      const walked = run(sortedPage(order, keys, { matches, member }, rows.length - 5, 10, M));
      expect([...walked.value], `desc: ${desc}`).toEqual(rows.slice(-5));
      expect(walked.pauses, `desc: ${desc}`).toBeGreaterThanOrEqual(Math.floor(M / 4096) - 1);
    }
  });
});
