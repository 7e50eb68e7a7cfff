/** A fixed-window counter per key (path + client address + e-mail), as koa2-ratelimit does for Strapi's auth routes. */
export class RateLimiter {
  private hits = new Map<string, { count: number; reset: number }>();

  constructor(
    private max: number,
    private intervalMs: number,
  ) {}

  /** Counts one request; returns the headers to send and whether it is over the limit. */
  hit(key: string, at = Date.now()) {
    let h = this.hits.get(key);
    if (!h || h.reset <= at) {
      h = { count: 0, reset: at + this.intervalMs };
      this.hits.set(key, h);
      if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (v.reset <= at) this.hits.delete(k);
    }
    h.count++;
    return {
      limited: h.count > this.max,
      headers: {
        'x-ratelimit-limit': String(this.max),
        'x-ratelimit-remaining': String(Math.max(this.max - h.count, 0)),
        'x-ratelimit-reset': String(Math.ceil(h.reset / 1000)),
      },
    };
  }
}
