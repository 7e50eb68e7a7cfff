import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { FolioError } from '../errors.js';
import type { Project } from '../project.js';
import { FolioResponse } from '../http-kit/security-headers.js';
import { createFolioListener, type AppOptions } from './app.js';

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops at once: open connections (live event streams among them) are cut. */
  close(): Promise<void>;
  /** Stops taking requests, lets those in flight finish for up to `graceMs`, then cuts what is left. */
  shutdown(graceMs: number): Promise<void>;
}

/** The port asked for is taken: `folio serve` reports it rather than serving somewhere else. */
export class PortInUseError extends Error {
  readonly code = 'EADDRINUSE';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use`);
  }
}

/**
 * Starts the app on a plain node:http server: `folio serve` and the tests run the same server.
 * `onRequest` sees every request before the app does.
 */
export async function startServer(
  project: Project,
  opts: AppOptions & {
    port?: number;
    host?: string;
    onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
  } = {},
): Promise<RunningServer> {
  const handle = createFolioListener(project, opts);
  const onRequest = opts.onRequest;
  const server = createServer(
    { ServerResponse: FolioResponse },
    onRequest
      ? (req, res) => {
          onRequest(req, res);
          return handle(req, res);
        }
      : handle,
  );
  server.on('clientError', answerClientError);
  const port = opts.port ?? 0;
  const hostname = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, hostname) : err),
    );
    server.listen(port, hostname, () => resolve());
  });
  const { port: actual, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    server,
    close: async () => {
      server.close();
      server.closeAllConnections();
      await closed;
    },
    shutdown: async (graceMs: number) => {
      server.close();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** What node's HTTP parser refuses (a malformed request line or header, headers too large), in Strapi's envelope. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, name, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'RequestHeaderFieldsTooLargeError', 'Request Header Fields Too Large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'RequestTimeoutError', 'Request Timeout']
        : [400, 'BadRequestError', 'Bad Request'];
  const body = JSON.stringify(new FolioError(status, name, message, {}).toJSON());
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
