import { describe, expect, it } from 'vitest';
import { ShardedMap } from '../src/documents/sharded-map.js';

/** The values of unique fields are kept in a ShardedMap: it must answer exactly as one Map would. */
describe('ShardedMap', () => {
  it('holds, replaces and forgets keys as a Map does', () => {
    const keys = ['', 'a', 'slug-1', 'slug-10', 'slug-01', '1', 1, 0, -0, 1.5, NaN, 2 ** 40, -17, true, false];
    const map = new Map<string | number | boolean, number>();
    const sharded = new ShardedMap<number>();
    keys.forEach((k, i) => {
      map.set(k, i);
      sharded.set(k, i);
    });
    for (const k of keys) expect(sharded.get(k)).toBe(map.get(k));
    expect(sharded.size).toBe(map.size);
    for (const k of ['slug-1', 0, true, 'missing']) expect(sharded.delete(k)).toBe(map.delete(k));
    for (const k of [...keys, 'missing']) expect(sharded.get(k)).toBe(map.get(k));
    expect(sharded.size).toBe(map.size);
  });

  it('keeps a large number of keys apart', () => {
    const sharded = new ShardedMap<number>();
    for (let i = 0; i < 20000; i++) sharded.set(`article-${i}`, i);
    expect(sharded.size).toBe(20000);
    expect(sharded.get('article-12345')).toBe(12345);
    expect(sharded.get('article-20000')).toBeUndefined();
  });
});
