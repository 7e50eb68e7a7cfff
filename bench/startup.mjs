// `node bench/startup.mjs [options] [name=bin ...]`: the start-up part of `npm run bench` on its own, for
// comparing builds. Over one project of generated articles (100,000 by default), each build in turn, run after
// run (A B A B …, so a machine shared with other work slows each alike): a first start (no snapshot) timed to
// the first answer, then, with --restart, a restart over the snapshot that start wrote. After each start the
// server is left to finish its warm-up (and snapshot) until its CPU time stops growing, and its RSS is taken
// then. Prints every run (wall time, the server's CPU time to its first answer, RSS after warm-up) and the
// medians, with the fastest run in brackets. A build is a `bin/folio` (default: this repository's).
//   --docs N      articles (default 100000)       --runs N   runs per build (default 5)
//   --dir DIR     the project (generated there if it has no content/; kept afterwards)
//   --restart     also time a restart per run
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.mjs';
import { freePort, sleep } from './net.mjs';

const REPO = resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    docs: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    dir: { type: 'string' },
    restart: { type: 'boolean', default: false },
  },
});
const builds = (positionals.length ? positionals : [`this=${join(REPO, 'bin', 'folio')}`]).map((p) => {
  const at = p.indexOf('=');
  return at < 0 ? { name: p, bin: resolve(p) } : { name: p.slice(0, at), bin: resolve(p.slice(at + 1)) };
});
const docs = Number(values.docs);
const dir = resolve(values.dir ?? join(tmpdir(), `folio-startup-${docs}`));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** CPU time (user + system, clock ticks) and RSS (MB) of a process. */
function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpu: Number(fields[11]) + Number(fields[12]), rss: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024 };
}

/** Starts `bin serve` and times it to the answer of one request sent when it says it listens (as run.mjs does). */
async function timeStart(bin) {
  const port = await freePort();
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--dir', dir, '--port', String(port), '--host', '127.0.0.1', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.add(child);
  await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error('no ready line within 60 s')), 60000);
    child.stdout.on('data', (d) => {
      if (out !== null && (out += d).includes('Folio is serving')) {
        out = null;
        clearTimeout(timer);
        res();
      }
    });
    child.once('exit', (code) => rej(new Error(`folio serve exited with ${code} before it was ready`)));
  });
  const res = await fetch(`http://127.0.0.1:${port}/api/articles`);
  if (res.status !== 200) throw new Error(`first answer: ${res.status}`);
  await res.arrayBuffer();
  const ms = Date.now() - t0;
  // The server's CPU time to its first answer, every thread's: less swayed than the wall time by other work.
  return { ms, cpuMs: usage(child.pid).cpu * 10, child };
}

/** Waits until the server's CPU time has not grown for a second (warm-up and snapshot done); its RSS then. */
async function settledRss(child) {
  let last = -1;
  let still = 0;
  for (let i = 0; i < 600 && still < 4; i++) {
    await sleep(250);
    const { cpu } = usage(child.pid);
    still = cpu === last ? still + 1 : 0;
    last = cpu;
  }
  return usage(child.pid).rss;
}

const stop = (child) =>
  new Promise((r) => {
    children.delete(child);
    if (child.exitCode !== null) r();
    else {
      child.once('exit', r);
      child.kill('SIGTERM');
    }
  });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  if (!existsSync(join(dir, 'content'))) {
    generate(docs, dir);
    console.log(`generated ${docs} articles in ${dir}`);
  }
  // The files are on disk before they are served (a clone's are): no write-back competes with the timings.
  if (process.platform !== 'win32') spawnSync('sync');
  const results = new Map(
    builds.map((b) => [b.name, { first: [], firstCpu: [], firstRss: [], restart: [], restartCpu: [], restartRss: [] }]),
  );
  for (let run = 1; run <= Number(values.runs); run++) {
    for (const b of builds) {
      const r = results.get(b.name);
      rmSync(join(dir, '.folio'), { recursive: true, force: true });
      const first = await timeStart(b.bin);
      const firstRss = await settledRss(first.child);
      await stop(first.child);
      r.first.push(first.ms);
      r.firstCpu.push(first.cpuMs);
      r.firstRss.push(firstRss);
      let line = `run ${run} ${b.name}: first ${first.ms} ms (CPU ${first.cpuMs} ms), ${firstRss.toFixed(0)} MB`;
      if (values.restart) {
        if (!existsSync(join(dir, '.folio', 'cache', 'documents.snapshot'))) throw new Error('no snapshot written');
        const again = await timeStart(b.bin);
        const againRss = await settledRss(again.child);
        await stop(again.child);
        r.restart.push(again.ms);
        r.restartCpu.push(again.cpuMs);
        r.restartRss.push(againRss);
        line += `; restart ${again.ms} ms (CPU ${again.cpuMs} ms), ${againRss.toFixed(0)} MB`;
      }
      console.log(line);
    }
  }
  console.log(`\nmedians (fastest) over ${values.runs} runs, ${docs.toLocaleString('en')} articles:`);
  const ms = (xs) => `${median(xs)} ms (${Math.min(...xs)})`;
  for (const [name, r] of results) {
    let line = `${name}: first start ${ms(r.first)}, CPU ${ms(r.firstCpu)}, ${median(r.firstRss).toFixed(0)} MB`;
    if (values.restart)
      line += `; restart ${ms(r.restart)}, CPU ${ms(r.restartCpu)}, ${median(r.restartRss).toFixed(0)} MB`;
    console.log(line);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
