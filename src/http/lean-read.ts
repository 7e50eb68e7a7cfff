import type { IncomingMessage, ServerResponse } from 'node:http';
import type { H3Event, NodeListener } from 'h3';
import { sendError } from '../http-kit/respond.js';

/**
 * A read of the content API without h3's machinery: the same steps (`answer`, the app's own), then the answer
 * written the way h3 writes it, but at once rather than after a `setImmediate`, and without h3's event, layer walk
 * and promise chain. It takes only what `takes` accepts: a GET or HEAD without a body that only the content API
 * may answer, whose handlers read nothing of the event but `event.node`.
 */
export function leanListener(
  generic: NodeListener,
  answer: (event: H3Event) => Promise<unknown>,
  takes: (req: IncomingMessage) => boolean,
  log: (msg: string) => void,
): NodeListener {
  return (req, res) => {
    if (!takes(req)) return generic(req, res);
    // The content API's handlers read `event.node` alone (see `takes`).
    const event = { node: { req, res }, context: {} } as unknown as H3Event;
    // `later` only queues the answer: nothing it does can fail.
    answer(event).then(
      (value) => later(event, value, log),
      (err: unknown) => failed(event, err, log),
    );
  };
}

/**
 * Answers ready in this turn of the event loop, written together once its I/O is handled (as h3 defers its writes):
 * requests that arrived together are answered together, which costs far less CPU per answer under load than
 * writing each answer as soon as it is ready.
 */
let ready: Array<{ event: H3Event; value: unknown; log: (msg: string) => void }> = [];

function later(event: H3Event, value: unknown, log: (msg: string) => void) {
  if (ready.length === 0) setImmediate(flush);
  ready.push({ event, value, log });
}

function flush() {
  const answers = ready;
  ready = [];
  for (const { event, value, log } of answers) {
    try {
      const written = write(event.node.res, value);
      if (written) written.catch((err: unknown) => failed(event, err, log));
    } catch (err) {
      failed(event, err, log);
    }
  }
}

/** Writes an answer as h3 would: text or bytes as the body, `null` as an answer without one. */
function write(res: ServerResponse, value: unknown): void | Promise<void> {
  if (res.writableEnded) return;
  if (value === null) {
    // h3's sendNoContent: a 304 keeps its status, a 200 without a body is a 204.
    const status = res.statusCode === 200 ? 204 : res.statusCode;
    if (status === 204) res.removeHeader('content-length');
    res.writeHead(status);
    res.end();
    return;
  }
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    res.end(value);
    return;
  }
  // A large answer compressed on the thread pool.
  if (value instanceof Promise) return value.then((v: unknown) => write(res, v));
  throw new Error(`the content API answered with ${typeof value}`);
}

/** What failed outside the route (see the app's onError): a 500 in the envelope, or a cut connection. */
function failed(event: H3Event, err: unknown, log: (msg: string) => void) {
  const res = event.node.res;
  if (res.headersSent) {
    log(`response failed: ${(err as Error)?.message ?? String(err)}`);
    res.destroy();
    return;
  }
  res.end(sendError(event, err, log));
}
