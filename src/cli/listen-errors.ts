import { DEFAULT_CONFIG } from '../config.js';
import { CliError } from './output.js';

/** Where `folio serve` took its address from: the flag, folio.json, or the default. */
export interface AddressSources {
  port: number;
  host: string;
  portFlag: boolean;
  hostFlag: boolean;
}

const portFrom = (a: AddressSources) =>
  a.portFlag
    ? 'from --port'
    : a.port === DEFAULT_CONFIG.server.port
      ? 'the default port'
      : 'from server.port in content/folio.json';
const hostFrom = (a: AddressSources) =>
  a.hostFlag
    ? 'from --host'
    : a.host === DEFAULT_CONFIG.server.host
      ? 'the default host'
      : 'from server.host in content/folio.json';

/**
 * Why the server could not listen, said as what to change (a taken port, a host name that does not resolve
 * or is not this machine's, a port that needs privileges); undefined for other errors, reported as they are.
 */
export function listenFailure(err: unknown, a: AddressSources): CliError | undefined {
  const e = err as NodeJS.ErrnoException;
  const hosts = 'use a name or address of this machine (localhost, 127.0.0.1, or 0.0.0.0 for every interface)';
  if (e?.code === 'EADDRINUSE')
    return new CliError(
      `port ${a.port} on ${a.host} is already in use (${portFrom(a)}): stop the program using it, ` +
        `or choose a free port with --port <port> (--port 0 picks any free port)`,
    );
  if (e?.code === 'ENOTFOUND')
    return new CliError(`cannot listen on "${a.host}" (${hostFrom(a)}): no host has that name; ${hosts}`);
  if (e?.code === 'EAI_AGAIN')
    return new CliError(`cannot listen on "${a.host}" (${hostFrom(a)}): its name could not be looked up; ${hosts}`);
  if (e?.code === 'EADDRNOTAVAIL')
    return new CliError(`cannot listen on ${a.host} (${hostFrom(a)}): it is not an address of this machine; ${hosts}`);
  if (e?.code === 'EACCES')
    return new CliError(
      `not allowed to listen on port ${a.port} (${portFrom(a)}): ports below 1024 need administrator rights; ` +
        'choose another with --port <port>',
    );
  return undefined;
}
