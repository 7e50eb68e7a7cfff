import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthService } from '../src/auth/service.js';
import type { TokenRecord } from '../src/auth/state.js';
import { bearer } from './helpers/auth.js';
import { endedOrSeen, openEvents } from './helpers/event-stream.js';
import { startTestServer, type TestServer } from './helpers/project.js';

/**
 * A live events stream ends the first millisecond its API token no longer holds (a token holds through its
 * `expiresAt`, as in Strapi), not at the next periodic re-check of its credentials; and a token that runs out
 * further off than a timer can wait (2^31-1 ms, about 24.8 days) keeps its stream open. The server's clock is
 * a fake one the test moves, so "the millisecond before" and "the millisecond after" are exact.
 */
describe('a live stream and the expiry of its token', () => {
  let s: TestServer;
  let n = 0;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.stop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A read-only token that runs out `ms` milliseconds from now (the server's clock): its access key. */
  const tokenRunningOutIn = (ms: number) => {
    const auth = new AuthService(s.dir);
    const name = `expiring ${++n}`;
    const { accessKey } = auth.createToken({ name, type: 'read-only', lifespan: '90d' });
    const db = auth.state.tokens;
    db.sync(true);
    db.data.tokens.find((t: TokenRecord) => t.name === name)!.expiresAt = new Date(Date.now() + ms).toISOString();
    db.write();
    return accessKey;
  };
  /** Creates a tag (as full access): its documentId, which the stream's message of it carries. */
  const createTag = async () => {
    const res = await s.api('/api/tags', { method: 'POST', body: { data: { name: `tag ${++n}` } } });
    expect(res.status).toBe(201);
    return res.body.data.documentId as string;
  };
  const useFakeClock = () =>
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

  it('delivers through the last millisecond of its token, and ends the next one', async () => {
    useFakeClock();
    const stream = await openEvents(s.url, bearer(tokenRunningOutIn(1000)));
    // The token's last millisecond: still good, and so is the stream.
    vi.advanceTimersByTime(1000);
    expect(await endedOrSeen(stream, await createTag())).toBe('seen');
    // One millisecond later the token is refused: the stream has ended before anything else is written.
    vi.advanceTimersByTime(1);
    expect(await endedOrSeen(stream, await createTag())).toBe('ended');
    expect((await s.api('/api/tags', { headers: bearer(tokenRunningOutIn(-1)) })).status).toBe(401);
  });

  it('keeps a stream whose token runs out later than a timer can wait', async () => {
    useFakeClock();
    const streams = [
      await openEvents(s.url, bearer(tokenRunningOutIn(30 * 86400_000))),
      // The first expiry a timer cannot wait for (a wait of 2^31 ms, which a timer would take as 1 ms).
      await openEvents(s.url, bearer(tokenRunningOutIn(2 ** 31 - 1))),
    ];
    vi.advanceTimersByTime(1);
    const tag = await createTag();
    for (const stream of streams) expect(await endedOrSeen(stream, tag)).toBe('seen');
    for (const stream of streams) stream.close();
  });
});
