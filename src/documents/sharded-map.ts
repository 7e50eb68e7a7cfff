import type { Key } from './unique-places.js';

/** Maps per `ShardedMap`: a Map's growth rehashes all its entries at once, so each holds a sixteenth of them. */
const SHARDS = 16;

/** The shard of `key`, from its last characters (a string), its value (a number). */
function shardOf(key: Key): number {
  if (typeof key === 'string') {
    const n = key.length;
    return n ? (key.charCodeAt(n - 1) + 7 * (n > 1 ? key.charCodeAt(n - 2) : 0) + n) & (SHARDS - 1) : 0;
  }
  if (typeof key === 'number') return Number.isInteger(key) ? key & (SHARDS - 1) : 0;
  return key ? 1 : 0;
}

/**
 * A Map split into a few, by key: filled with a value per document of a large type (a million entries), one Map
 * would now and then rehash them all in one go, holding the event loop for tens of milliseconds; a shard rehashes
 * a sixteenth as long.
 */
export class ShardedMap<V> {
  private readonly shards = Array.from({ length: SHARDS }, () => new Map<Key, V>());

  get(key: Key): V | undefined {
    return this.shards[shardOf(key)].get(key);
  }

  set(key: Key, value: V): this {
    this.shards[shardOf(key)].set(key, value);
    return this;
  }

  delete(key: Key): boolean {
    return this.shards[shardOf(key)].delete(key);
  }

  get size(): number {
    let n = 0;
    for (const s of this.shards) n += s.size;
    return n;
  }
}
