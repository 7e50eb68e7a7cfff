import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sortByKeys, sortIds } from '../src/documents/sort-ids.js';
import { finishNow } from '../src/documents/sliced-work.js';

/** The sorts the query indexes build their orders with (a slice at a time) against Array.prototype.sort. */
describe('sorting ids a slice at a time', () => {
  const ids = (n: number) => fc.uniqueArray(fc.integer({ min: 1, max: 1 << 20 }), { minLength: n, maxLength: n });

  it('sorts ids by a comparator as a stable sort does, across many runs', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 5000 })
          .chain((n) => fc.tuple(ids(n), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }))),
        ([list, values]) => {
          const value = new Map(list.map((id, i) => [id, values[i]]));
          const compare = (a: number, b: number) => value.get(a)! - value.get(b)! || a - b;
          const sorted = Int32Array.from(list);
          finishNow(sortIds(sorted, compare));
          expect([...sorted]).toEqual([...list].sort(compare));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('sorts ids by number or text keys, ties by id', () => {
    const keyed = fc.constantFrom('number' as const, 'string' as const);
    fc.assert(
      fc.property(keyed, fc.integer({ min: 0, max: 6000 }), fc.integer(), (kind, n, seed) => {
        let x = seed;
        const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
        const list = [...new Set(Array.from({ length: n }, () => (next() % 1_000_000) + 1))];
        const raw = list.map(() => next() % 50);
        const keys =
          kind === 'number'
            ? raw.map((r) => (r % 2 ? r / 4 : r))
            : raw.map((r) => `k${String.fromCharCode(200 + r)}${r % 7}`);
        const pairs = list.map((id, i) => [keys[i], id] as const);
        pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
        const sorted = Int32Array.from(list);
        finishNow(sortByKeys(keys, sorted));
        expect([...sorted]).toEqual(pairs.map((p) => p[1]));
      }),
      { numRuns: 40 },
    );
  });

  it('pauses every few hundred rows of a large keyed sort, so that one slice of it stays short', () => {
    // While V8 marks a large heap, what a slice allocates costs it marking steps: a slice ends only at a pause.
    const n = 100_000;
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    const ids = Int32Array.from({ length: n }, (_, i) => i + 1);
    const keyOf = [...keys];
    const work = sortByKeys(keys, ids);
    let pauses = 0;
    while (!work.next().done) pauses++;
    // One pause per 256 rows sorted by insertion, and per 2,048 rows moved in each of the 12 merge passes.
    expect(pauses).toBeGreaterThanOrEqual(n / 256 + 12 * (Math.floor(n / 2048) - 1));
    const sorted = [...ids].map((id) => [keyOf[id - 1], id]);
    expect(sorted).toEqual([...sorted].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  });
});
