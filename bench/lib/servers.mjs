// The processes the bench drives: the real `folio serve`, the bare node:http ceiling, and CLI runs, each in a
// process of its own. Every child is killed and every generated project removed when the bench ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sleep } from '../net.mjs';

export const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'folio');
const PROBE = join(import.meta.dirname, 'probe.mjs');
const PEAK = join(import.meta.dirname, 'peak.mjs');

const children = new Set();
const dirs = new Set();
export const removeLater = (dir) => dirs.add(dir);
export function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

export async function waitFor(url, ms = 20000) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    try {
      const r = await fetch(url);
      if (r.status === 200) {
        await r.arrayBuffer();
        return Date.now() - start;
      }
    } catch {
      /* not up yet */
    }
    await sleep(10);
  }
  throw new Error(`no answer from ${url} within ${ms} ms`);
}

/**
 * `folio serve` over `dir`. With `probe`, the bench's preload measures its event loop (see probe.mjs):
 * `child.probe()` answers `{ maxBlockMs, rssMb }` and `child.resetProbe()` starts a new measure.
 */
export function startFolio(dir, port, { probe = false } = {}) {
  const args = [BIN, 'serve', '--dir', dir, '--port', String(port), '--host', '127.0.0.1', '--quiet'];
  const child = spawn(process.execPath, probe ? ['--import', PROBE, ...args] : args, {
    stdio: ['ignore', 'pipe', 'inherit', ...(probe ? ['ipc'] : [])],
  });
  children.add(child);
  // Printed once it listens (with --quiet too). Read as it comes, so the pipe never fills.
  let out = '';
  child.ready = new Promise((res, rej) => {
    child.stdout.on('data', (d) => {
      if (out !== null && (out += d).includes('Folio is serving')) {
        out = null;
        res();
      }
    });
    child.once('exit', (code) => rej(new Error(`folio serve exited with ${code} before it was ready`)));
  });
  child.ready.catch(() => undefined);
  if (probe) {
    const ask = (m, key) =>
      new Promise((res) => {
        const on = (a) => {
          if (key in a) {
            child.off('message', on);
            res(a);
          }
        };
        child.on('message', on);
        child.send(m);
      });
    child.probe = () => ask('probe', 'maxBlockMs');
    child.resetProbe = () => ask('reset', 'reset');
  }
  return child;
}

/**
 * Starts `folio serve` and times it to the answer of one request sent when it says it listens. Polling
 * instead (a fetch every 10 ms) took 0.15 to 0.25 s of this process's CPU over a start, from a server using
 * every core.
 */
export async function timeStart(dir, port, options) {
  const t0 = Date.now();
  const server = startFolio(dir, port, options);
  let timer;
  await Promise.race([
    server.ready,
    new Promise((_, rej) => {
      timer = setTimeout(() => rej(new Error('no ready line within 600 s')), 600000);
    }),
  ]).finally(() => clearTimeout(timer));
  const res = await fetch(`http://127.0.0.1:${port}/api/articles`);
  if (res.status !== 200) throw new Error(`first answer: ${res.status}`);
  await res.arrayBuffer();
  return { ms: Date.now() - t0, server };
}

export function startCeiling(port) {
  const code = `const body = JSON.stringify({ data: 'x'.repeat(1000) });
const answer = (q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end(body); };
require('node:http').createServer(answer).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'inherit' });
  children.add(child);
  return child;
}

export const stopAndWait = (child) =>
  new Promise((r) => {
    children.delete(child);
    if (child.exitCode !== null || child.signalCode !== null) r();
    else {
      child.once('exit', r);
      child.kill('SIGTERM');
    }
  });

/** CPU time (user + system, ms) and RSS (MB) of a live process, from /proc. */
export function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024,
  };
}

/**
 * Waits until a process is idle (its warm-up done): under 3% of a core over the last second, at most `ms`. Not
 * "no CPU at all": the bench's probe (a 1 ms timer) and V8's idle-time collection of a large heap keep an idle
 * server's CPU time growing by a few clock ticks a second.
 */
export async function settle(pid, ms = 120000) {
  const seen = [];
  for (const t0 = Date.now(); Date.now() - t0 < ms;) {
    await sleep(250);
    seen.push(usage(pid).cpuMs);
    if (seen.length > 5 && seen.at(-1) - seen.at(-5) <= 30) return;
  }
}

/**
 * Runs the CLI as a user does (`folio <args>`, its own process, stdout and stderr not a terminal) and reports
 * its wall time, peak RSS (see peak.mjs), exit code and the last line of its standard error.
 */
export function runCli(args) {
  const tmp = mkdtempSync(join(tmpdir(), 'folio-bench-peak-'));
  const peakFile = join(tmp, 'peak');
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', PEAK, BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BENCH_PEAK_FILE: peakFile },
  });
  children.add(child);
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d).slice(-4000);
  });
  return new Promise((res) => {
    child.once('exit', (code) => {
      children.delete(child);
      const ms = Date.now() - t0;
      let peakMb = NaN;
      try {
        peakMb = Number(readFileSync(peakFile, 'utf8'));
      } catch {
        /* killed before its exit handler ran */
      }
      rmSync(tmp, { recursive: true, force: true });
      const lines = err.trim().split('\n');
      res({ code, ms, peakMb, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}
