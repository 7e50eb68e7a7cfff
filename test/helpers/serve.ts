import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, watch } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BIN } from './project.js';
import { filesUnder } from './media.js';

/** `folio serve` run as a user runs it, on a port of its choosing, with what it printed so far. */
export interface ServeProcess {
  proc: ChildProcess;
  base: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts `folio serve --port 0` in `dir` and waits for its ready line. */
export async function spawnServe(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20000);
    const look = () => {
      // `localhost` stands for an address of every interface (0.0.0.0) in what serve prints.
      const m = /(http:\/\/(?:127\.0\.0\.1|localhost):\d+)\/api/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before it was ready: ${err}`));
    });
  });
  return {
    proc,
    base,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: unknown;
}

/**
 * One request written by hand (chunked, abandoned, with any header), for what fetch will not send.
 * `chunks` are written in turn; `abandon` destroys the request after them instead of ending it.
 * Resolves with the answer, or `undefined` when the connection ended without one.
 */
export function rawRequest(
  base: string,
  opts: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    chunks?: Array<Buffer | string>;
    abandon?: boolean;
    localAddress?: string;
  },
): Promise<RawAnswer | undefined> {
  const url = new URL(opts.path, base);
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: opts.method ?? 'POST', headers: opts.headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('error', () => resolve(undefined));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', () => resolve(undefined));
    const chunks = [...(opts.chunks ?? [])];
    const next = () => {
      while (chunks.length) {
        if (!req.write(chunks.shift()!)) {
          req.once('drain', next);
          return;
        }
      }
      if (opts.abandon) setTimeout(() => req.destroy(), 100);
      else req.end();
    };
    next();
  });
}

/** Whether the server answers its health check. */
export async function answers(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/_health`, { signal: AbortSignal.timeout(5000) });
    return res.status === 204;
  } catch {
    return false;
  }
}

/**
 * Each file under `dir` with the start of its content's sha256: a failed comparison names what changed. A file
 * removed while the tree is read (a server's temp file) is left out.
 */
export function treeListing(dir: string): string[] {
  return filesUnder(dir).flatMap((f) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, f));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return [`${f} ${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`];
  });
}

/**
 * Resolves once the tree under `dir` lists as `expected` (treeListing): at once when it does, else on the file
 * change that makes it so. Waits for that event, not for a time: pass the test's `signal` (aborted when the test
 * times out) to fail naming the files that stayed different.
 */
export function treeBecomes(dir: string, expected: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // Watching starts before the first look, so a change between the two is not missed.
    const watcher = watch(dir, { recursive: true });
    let now: string[] = [];
    const done = (err?: Error) => {
      watcher.close();
      signal?.removeEventListener('abort', abort);
      if (err) reject(err);
      else resolve();
    };
    const look = () => {
      now = treeListing(dir);
      if (now.join() === expected.join()) done();
    };
    const abort = () => {
      const added = now.filter((f) => !expected.includes(f));
      const gone = expected.filter((f) => !now.includes(f));
      done(
        new Error(
          `${dir} stayed changed: added ${added.join(', ') || 'nothing'}; gone ${gone.join(', ') || 'nothing'}`,
        ),
      );
    };
    signal?.addEventListener('abort', abort);
    watcher.on('change', look);
    watcher.on('error', (err) => done(err));
    look();
  });
}

export function treeHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of filesUnder(dir)) {
    h.update(f).update('\0');
    h.update(readFileSync(join(dir, f))).update('\0');
  }
  return h.digest('hex');
}

/** `folio serve` in a process of its own, on a free port, as a user runs it (watching content/). */
export async function serveProcess(dir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--dir', dir, '--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/api /.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`folio serve exited with ${code} before it was ready`)));
  });
  return { child, base };
}
