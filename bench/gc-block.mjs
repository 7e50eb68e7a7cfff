// `node bench/gc-block.mjs --dir DIR [--runs N] [name='bin [node flags]' ...]`: the first filtered query after a
// restart over the snapshot, and the warm-up after it, for comparing builds or V8 flags on a large project (the
// bench's "longest event-loop block from the first answer to the end of the warm-up"). Each build in turn, run
// after run (A B A B …): a restart, the first filtered query, then the warm-up until the server's CPU time stops
// growing. Per run: the longest stretch of the server's main thread between two ticks of a 1 ms timer, in wall
// time and split into its own CPU time, its wait for a core and the time it was blocked (lib/thread-probe.mjs);
// its CPU time and the process's; RSS after the warm-up; the load average. On a machine shared with other work,
// the wall time is mostly the wait for a core: the own CPU and blocked stretches are what the server can change.
// The project needs a snapshot (one `folio serve` over it that ran to the end of its warm-up writes it).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, sleep } from './net.mjs';

const REPO = resolve(import.meta.dirname, '..');
const PROBE = join(import.meta.dirname, 'lib', 'thread-probe.mjs');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dir: { type: 'string' }, runs: { type: 'string', default: '3' } },
});
if (!values.dir || !existsSync(join(values.dir, '.folio', 'cache', 'documents.snapshot')))
  throw new Error('--dir: a project with a start-up snapshot');
const dir = resolve(values.dir);
const builds = (positionals.length ? positionals : [`this=${join(REPO, 'bin', 'folio')}`]).map((p) => {
  const at = p.indexOf('=');
  const [bin, ...flags] = p.slice(at + 1).split(' ');
  return { name: p.slice(0, at), bin: resolve(bin), flags };
});

/** CPU time (user + system, ms) of a process. */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function run({ bin, flags }) {
  const port = await freePort();
  const args = ['--import', PROBE, ...flags, bin, 'serve', '--dir', dir, '--port', String(port), '--quiet'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  try {
    await new Promise((res, rej) => {
      let out = '';
      child.stdout.on('data', (d) => {
        if (out !== null && (out += d).includes('Folio is serving')) {
          out = null;
          res();
        }
      });
      child.once('exit', (code) => rej(new Error(`folio serve exited with ${code}`)));
    });
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
    const api = `http://localhost:${port}/api/articles`;
    await (await fetch(api)).arrayBuffer();
    await ask('reset', 'reset');
    const t0 = Date.now();
    await (await fetch(`${api}?filters[views][$gt]=901&sort=title:asc&pagination[page]=3`)).arrayBuffer();
    const firstMs = Date.now() - t0;
    // The warm-up is over when the server's CPU time grows by no more than the probe's own cost for a second.
    for (let last = -1, still = 0; still < 4;) {
      await sleep(250);
      const cpu = cpuOf(child.pid);
      still = cpu - last <= 30 ? still + 1 : 0;
      last = cpu;
    }
    const p = await ask('probe', 'wall');
    return { firstMs, ...p, cpuMs: cpuOf(child.pid), load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] };
  } finally {
    child.kill('SIGTERM');
    await new Promise((res) => (child.exitCode === null ? child.once('exit', res) : res()));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const KEYS = ['wall', 'ownCpu', 'runQueue', 'blocked', 'mainCpuMs', 'cpuMs', 'rssMb', 'firstMs'];
const results = builds.map(() => []);
for (let i = 0; i < Number(values.runs); i++)
  for (const [b, build] of builds.entries()) {
    const r = await run(build);
    results[b].push(r);
    const line = KEYS.map((k) => `${k} ${Math.round(r[k])}`).join(', ');
    console.log(`${build.name} run ${i + 1}: ${line}, load ${r.load}`);
  }
console.log('\nmedians (longest stretch of the main thread from the first query to the end of the warm-up, ms):');
for (const [b, build] of builds.entries()) {
  const line = KEYS.map((k) => `${k} ${Math.round(median(results[b].map((r) => r[k])))}`).join(', ');
  console.log(`${build.name}: ${line}`);
}
