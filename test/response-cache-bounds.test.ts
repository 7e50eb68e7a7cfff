import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../src/http/response-cache.js';

/**
 * The answers cache of the content API: a URL asked once (a crawl, each visitor's own filter) is not kept, one
 * asked again is; what it holds stays within its bounds however many URLs are asked.
 */
describe('the response cache', () => {
  const owner = {};
  const answer = (body: string) => ({ status: 200, body, etag: 'W/"x"' });

  it('keeps an answer from the second time its URL is asked in a generation', () => {
    const cache = new ResponseCache();
    cache.set(owner, 1, '/a', answer('one'));
    expect(cache.get(owner, 1, '/a')).toBeUndefined();
    cache.set(owner, 1, '/a', answer('one'));
    expect(cache.get(owner, 1, '/a')?.body).toBe('one');
    expect(cache.get(owner, 2, '/a')).toBeUndefined();
    cache.set(owner, 2, '/a', answer('two'));
    expect(cache.get(owner, 2, '/a')).toBeUndefined();
  });

  it('holds at most its bytes of answers and its count of URLs asked once', () => {
    const cache = new ResponseCache(1000, 500, 64);
    for (let i = 0; i < 10_000; i++) {
      const key = `/api/articles?filters[views][$gt]=${i % 200}&n=${i}`;
      cache.set(owner, 1, key, answer('x'.repeat(100)));
      if (i % 3 === 0) cache.set(owner, 1, key, answer('x'.repeat(100)));
      const held = cache.held();
      expect(held.bytes).toBeLessThanOrEqual(1000);
      expect(held.seen).toBeLessThanOrEqual(64);
    }
    expect(cache.held().answers).toBe(10);
    cache.set(owner, 1, '/big', answer('x'.repeat(501)));
    cache.set(owner, 1, '/big', answer('x'.repeat(501)));
    expect(cache.get(owner, 1, '/big')).toBeUndefined();
  });

  it('keeps an answer cut from a larger buffer as bytes of its own, not the whole buffer', () => {
    const cache = new ResponseCache();
    const shared = Buffer.alloc(256 * 1024, 0x20);
    const body = shared.subarray(1024, 1024 + 9);
    body.write('{"data":1}'.slice(0, 9));
    cache.set(owner, 1, '/a', { status: 200, body });
    cache.set(owner, 1, '/a', { status: 200, body });
    const kept = cache.get(owner, 1, '/a')?.body as Buffer;
    expect(kept.toString()).toBe('{"data":1');
    expect(kept.buffer.byteLength).toBe(9);
    expect(cache.held().bytes).toBe(9);
    // Bytes written later into the shared buffer do not change the kept answer.
    shared.fill(0x21);
    expect(kept.toString()).toBe('{"data":1');
  });
});
