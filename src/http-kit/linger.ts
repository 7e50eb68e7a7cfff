import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long, and how much more of a refused body, a connection keeps reading after its answer. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Ends the connection of a request whose body was refused before its end (413, malformed, aborted) without
 * losing the answer: a socket closed while the client still sends is reset, and a reset client often never reads
 * the answer already sent. So the connection half-closes after the answer and discards what still comes, until
 * the client stops sending, LINGER_BYTES more came or LINGER_MS passed (the lingering close of RFC 9112 §9.6).
 */
export function closeAfterAnswer(req: IncomingMessage): void {
  req.on('error', () => undefined);
  req.resume();
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // Node's HTTP server calls destroySoon once an answer sent with `Connection: close` is written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    let left = LINGER_BYTES;
    const cut = () => this.destroy();
    const timer = setTimeout(cut, LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', cut);
    this.on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left <= 0) cut();
    });
    this.end();
    this.resume();
  };
}
