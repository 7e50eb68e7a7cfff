import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { defineRoutes } from '../src/http-kit/route.js';
import { answers } from './helpers/serve.js';

/** Lines a server logs, with a promise of the first line that matches. */
function logLines() {
  const lines: string[] = [];
  const waiting: Array<{ re: RegExp; resolve: (line: string) => void }> = [];
  const log = (line: string) => {
    lines.push(line);
    for (const w of waiting.filter((x) => x.re.test(line))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(line);
    }
  };
  const next = (re: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = lines.find((l) => re.test(l));
      if (seen) resolve(seen);
      else waiting.push({ re, resolve });
    });
  return { lines, log, next };
}

describe('a verbose server', () => {
  const logged = logLines();
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ app: { verbose: true, log: logged.log } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('logs each request with its method, URL, status and the time it took', async () => {
    const started = performance.now();
    const r = await s.api('/api/articles?sort=title');
    const line = await logged.next(/^GET \/api\/articles\?sort=title /);
    const waited = performance.now() - started;
    expect(r.status).toBe(200);
    const m = /^GET \/api\/articles\?sort=title 200 (\d+\.\d)ms$/.exec(line);
    expect(m, line).not.toBeNull();
    // The server measured part of what the client waited for, never more.
    expect(Number(m![1])).toBeLessThanOrEqual(waited + 0.1);
    await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Logged' } } });
    expect(await logged.next(/^POST /)).toMatch(/^POST \/api\/articles 201 \d+\.\dms$/);
  });
});

describe('a server without a log of its own', () => {
  let s: TestServer;
  const write = vi.spyOn(process.stderr, 'write');
  beforeAll(async () => {
    s = await startTestServer({ app: { verbose: true, log: undefined } });
  });
  afterAll(async () => {
    await s.stop();
  });
  afterEach(() => {
    write.mockRestore();
  });

  it('logs on standard error, a line per request', async () => {
    const printed = new Promise<string>((resolve) => {
      write.mockImplementation((chunk: string | Uint8Array) => {
        if (String(chunk).startsWith('GET /_health')) resolve(String(chunk));
        return true;
      });
    });
    await fetch(`${s.url}/_health`);
    expect(await printed).toMatch(/^GET \/_health 204 \d+\.\dms\n$/);
  });
});

/**
 * A route's answer can be a stream (a stored file is one). When it fails before its first byte the client gets a
 * 500 in Strapi's envelope; after, the answer cannot become an error: the connection is cut, so the client sees
 * an incomplete answer rather than a complete-looking one, and the failure is logged. The server keeps answering.
 */
describe('a route whose answer stream fails', () => {
  const logged = logLines();
  let s: TestServer;
  const failing = defineRoutes({
    routes: [
      { method: 'GET', path: '/failing/at-once', handler: 'atOnce' },
      { method: 'GET', path: '/failing/midway', handler: 'midway' },
    ],
    load: async () => ({
      atOnce: () =>
        new Readable({
          read() {
            this.destroy(new Error('the disk is gone'));
          },
        }),
      midway: ({ event }) => {
        event.node.res.setHeader('content-type', 'text/plain');
        let sent = false;
        return new Readable({
          read() {
            if (sent) this.destroy(new Error('the disk went away midway'));
            else {
              sent = true;
              this.push('x'.repeat(64 * 1024));
            }
          },
        });
      },
    }),
  });
  beforeAll(async () => {
    s = await startTestServer({ app: { routes: [failing], log: logged.log } });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('answers a 500 in the envelope when nothing was sent yet', async () => {
    const r = await s.api('/failing/at-once');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      data: null,
      error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' },
    });
    expect(await logged.next(/the disk is gone/)).toMatch(/^internal error: /);
  });

  it('cuts the connection when part of the answer was sent, and logs why', async () => {
    const r = await fetch(`${s.url}/failing/midway`);
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow();
    expect(await logged.next(/midway/)).toBe('response failed: the disk went away midway');
    expect(await answers(s.url)).toBe(true);
    // Not verbose: the requests themselves were not logged.
    expect(logged.lines.filter((l) => /^GET /.test(l))).toEqual([]);
  });
});
