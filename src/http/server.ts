import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from 'h3';
import type { Project } from '../project.js';
import { createFolioApp, type AppOptions } from './app.js';

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Starts the app on a plain node:http server (tests and embedding; `folio serve` uses listhen). */
export async function startServer(
  project: Project,
  opts: AppOptions & { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const server = createServer(toNodeListener(createFolioApp(project, opts)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
