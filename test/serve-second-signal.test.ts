import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * `folio serve` drains on its first SIGINT/SIGTERM (up to 2 s for requests in flight); a second signal, the same
 * one or the other, ends it at once with exit code 1.
 */
describe('a second signal while draining', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess | undefined;
  let socket: Socket | undefined;
  beforeAll(() => {
    made = makeProject();
  });
  afterEach(async () => {
    socket?.destroy();
    await serve?.stop();
  });
  afterAll(() => made.cleanup());

  /** A request whose body never comes: it stays in flight, so the first signal has something to wait for. */
  const slowRequest = async (base: string) => {
    const { hostname, port } = new URL(base);
    const s = connect(Number(port), hostname);
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    s.on('error', () => undefined);
    s.write('POST /api/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    await new Promise((r) => setTimeout(r, 200));
    return s;
  };

  for (const [first, second] of [
    ['SIGTERM', 'SIGTERM'],
    ['SIGINT', 'SIGINT'],
    ['SIGTERM', 'SIGINT'],
    ['SIGINT', 'SIGTERM'],
  ] as const) {
    it(`${first} then ${second} exits 1 at once`, async () => {
      serve = await spawnServe(made.dir);
      socket = await slowRequest(serve.base);
      serve.proc.kill(first);
      await new Promise((r) => setTimeout(r, 300));
      expect(serve.proc.exitCode).toBe(null);
      const sent = performance.now();
      serve.proc.kill(second);
      const code = await serve.exited;
      expect({ code, signal: serve.proc.signalCode }).toEqual({ code: 1, signal: null });
      // Well before the 2 s the drain would wait for the request in flight.
      expect(performance.now() - sent).toBeLessThan(1000);
      expect(serve.stderr()).toContain(`${first}: finishing in-flight writes`);
    });
  }
});
