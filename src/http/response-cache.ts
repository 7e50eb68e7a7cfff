/**
 * Serialised answers to GET requests, kept for one generation of the document index: any write, file
 * change or reload moves the generation on and the cache starts empty. Bounded by total size (LRU).
 */
export class ResponseCache {
  private entries = new Map<string, { body: string; etag?: string; status: number }>();
  private bytes = 0;
  private generation = -1;
  private owner: object | undefined;

  constructor(
    private maxBytes = 32 * 1024 * 1024,
    private maxEntryBytes = 1024 * 1024,
  ) {}

  get(owner: object, generation: number, key: string) {
    if (owner !== this.owner || generation !== this.generation) return undefined;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(owner: object, generation: number, key: string, value: { body: string; etag?: string; status: number }) {
    if (owner !== this.owner || generation !== this.generation) {
      this.entries.clear();
      this.bytes = 0;
      this.owner = owner;
      this.generation = generation;
    }
    if (value.body.length > this.maxEntryBytes) return;
    this.entries.set(key, value);
    this.bytes += value.body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
  }
}
