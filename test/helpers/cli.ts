import { execFile } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { BIN } from './project.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Standard input (ended): what a pipe would give the command. */
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
}

/** `folio …` as a user runs it: `node bin/folio` (the built dist/) in a process of its own. */
export function spawnFolio(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1', ...opts.env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
    // A command that exits before reading its input closes the pipe: that is its answer, not the test's error.
    child.stdin!.on('error', () => {});
    child.stdin!.end(opts.input ?? '');
  });
}

/** Thrown in place of ending the process: nothing after process.exit() may run or print. */
class Exited extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

let running: Promise<unknown> = Promise.resolve();

/**
 * `folio …` run in this process by the CLI's `main(argv)`, as `spawnFolio` runs it in its own: standard
 * input, output and error, the environment, the working folder, the exit code (process.exitCode, or the
 * code process.exit() was called with: what was printed after it is dropped) are this run's alone.
 * Runs one at a time, as they swap process-wide state.
 */
export function runFolio(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const next = running.then(() => runInProcess(args, opts));
  running = next.catch(() => undefined);
  return next;
}

async function runInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  let exited: { code: number; stdout: string; stderr: string } | undefined;
  const sink = (into: string[]) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        if (!exited) into.push(chunk.toString());
        done();
      },
    });
  const streams = { stdin: Readable.from([Buffer.from(opts.input ?? '')]), stdout: sink(out), stderr: sink(err) };
  const saved = {
    descriptors: Object.fromEntries(
      Object.keys(streams).map((k) => [k, Object.getOwnPropertyDescriptor(process, k)!]),
    ) as Record<keyof typeof streams, PropertyDescriptor>,
    exit: process.exit,
    exitCode: process.exitCode,
    env: { ...process.env },
    cwd: process.cwd(),
  };
  for (const [k, stream] of Object.entries(streams))
    Object.defineProperty(process, k, { value: stream, configurable: true, writable: true, enumerable: true });
  process.exit = ((code?: number | string | null) => {
    const c = Number(code ?? process.exitCode ?? 0);
    exited ??= { code: c, stdout: out.join(''), stderr: err.join('') };
    throw new Exited(c);
  }) as typeof process.exit;
  process.exitCode = undefined;
  Object.assign(process.env, { NO_COLOR: '1' }, opts.env);
  if (opts.cwd) process.chdir(opts.cwd);
  try {
    await main([process.execPath, BIN, ...args]).catch((e: unknown) => {
      if (!(e instanceof Exited)) throw e;
    });
    return exited ?? { code: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
  } finally {
    for (const [k, d] of Object.entries(saved.descriptors)) Object.defineProperty(process, k, d);
    process.exit = saved.exit;
    process.exitCode = saved.exitCode;
    for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k];
    Object.assign(process.env, saved.env);
    if (opts.cwd) process.chdir(saved.cwd);
  }
}
