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

  /**
   * A request whose body never comes: it stays in flight, so the first signal has something to wait for. Its
   * `Expect: 100-continue` is answered once the server has the request: from then on it is in flight.
   */
  const slowRequest = async (base: string) => {
    const { hostname, port } = new URL(base);
    const s = connect(Number(port), hostname);
    s.on('error', () => undefined);
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    const head =
      'POST /api/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n' +
      'Expect: 100-continue\r\n\r\n';
    const continued = new Promise<void>((resolve) => {
      let got = '';
      s.on('data', (d: Buffer) => {
        got += d.toString('latin1');
        if (got.startsWith('HTTP/1.1 100 Continue\r\n')) resolve();
      });
    });
    s.write(head);
    await continued;
    s.write('{');
    return s;
  };

  /** Resolves once the process has printed `text` on stderr. */
  const printed = (serve: ServeProcess, text: string) =>
    new Promise<void>((resolve) => {
      const look = () => serve.stderr().includes(text) && resolve();
      serve.proc.stderr!.on('data', look);
      look();
    });

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
      // Draining: it waits (up to 2 s) for the request in flight, and would then exit 0.
      await printed(serve, `${first}: finishing in-flight writes`);
      expect(serve.proc.exitCode).toBe(null);
      serve.proc.kill(second);
      const code = await serve.exited;
      // Exit 1 is the second signal's: a drain that ran its course exits 0.
      expect({ code, signal: serve.proc.signalCode }).toEqual({ code: 1, signal: null });
    });
  }
});
