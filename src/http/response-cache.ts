/**
 * Serialised answers to GET requests, kept for one generation of the document index: any write, file
 * change or reload moves the generation on and the cache starts empty. Bounded by total size (LRU).
 *
 * An answer is kept only when its key is asked for the second time in the generation: a crawl or many
 * visitors' own filters ask each URL once, and keeping those answers would only move every body into the
 * old generation of the heap, to be collected there. The keys asked once are remembered as 30-bit hashes
 * (a collision only keeps an answer one ask early), at most `maxSeen` of them before they are forgotten.
 */
export interface CachedAnswer {
  body: string | Buffer;
  etag?: string;
  status: number;
}

export class ResponseCache {
  private entries = new Map<string, CachedAnswer>();
  private seen = new Set<number>();
  private bytes = 0;
  private generation = -1;
  private owner: object | undefined;

  constructor(
    private maxBytes = 32 * 1024 * 1024,
    private maxEntryBytes = 1024 * 1024,
    private maxSeen = 65536,
  ) {}

  /** What the cache holds: answers and their bytes, and the keys remembered as asked once. */
  held() {
    return { answers: this.entries.size, bytes: this.bytes, seen: this.seen.size };
  }

  get(owner: object, generation: number, key: string) {
    if (owner !== this.owner || generation !== this.generation) return undefined;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(owner: object, generation: number, key: string, value: CachedAnswer) {
    if (owner !== this.owner || generation !== this.generation) {
      this.entries.clear();
      this.seen.clear();
      this.bytes = 0;
      this.owner = owner;
      this.generation = generation;
    }
    if (value.body.length > this.maxEntryBytes) return;
    const hash = hashOf(key);
    if (!this.seen.has(hash)) {
      if (this.seen.size >= this.maxSeen) this.seen.clear();
      this.seen.add(hash);
      return;
    }
    const old = this.entries.get(key);
    if (old) this.bytes -= old.body.length;
    this.entries.set(key, { ...value, body: ownBytes(value.body) });
    this.bytes += value.body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
  }
}

/**
 * The body as bytes of its own: an answer cut from a larger buffer (a slab of list pages, Node's pool) is copied,
 * so the cache holds its own bytes and not the whole buffer with it.
 */
function ownBytes(body: string | Buffer): string | Buffer {
  if (typeof body === 'string' || body.byteLength === body.buffer.byteLength) return body;
  const own = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(own);
  return own;
}

/** FNV-1a over the key's UTF-16 code units, cut to 30 bits: a small integer to V8, stored without a heap number. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}
