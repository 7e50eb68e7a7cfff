// `npm run soak`: mixed reads and writes against the real server (a separate process on 127.0.0.1) at
// 50 concurrent connections for SOAK_SECONDS (default 60). Fails on any error, any lost acknowledged
// write, or memory that keeps growing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { generate } from './generate.mjs';

const REPO = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 50);
const BIN = join(REPO, 'bin', 'folio');

const dir = generate(1000);
const token = JSON.parse(
  execFileSync(
    process.execPath,
    [BIN, 'tokens', 'create', '--name', 'soak', '--type', 'full-access', '--json', '--dir', dir],
    { encoding: 'utf8' },
  ),
).accessKey;
const port = await new Promise((res) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => res(p));
  });
});
// A small old-space limit makes V8 collect instead of growing: a real leak then fails the run (out of memory).
const server = spawn(
  process.execPath,
  [
    `--max-old-space-size=${process.env.SOAK_HEAP_MB ?? 96}`,
    BIN,
    'serve',
    '--dir',
    dir,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--quiet',
    ...(process.env.SOAK_NO_WATCH ? ['--no-watch'] : []),
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
const stop = () => {
  server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

const base = `http://127.0.0.1:${port}/api`;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`${base}/articles`, { headers })).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 50));
}
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;

const created = new Map(); // documentId -> last acknowledged views
const deleted = new Set();
let requests = 0,
  errors = 0;
const errorSamples = [];
const memory = [];
const end = Date.now() + SECONDS * 1000;

async function call(method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  requests++;
  if (res.status >= 400) {
    errors++;
    if (errorSamples.length < 5) errorSamples.push(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`);
    return undefined;
  }
  return text ? JSON.parse(text) : null;
}

async function worker(w) {
  let n = 0;
  while (Date.now() < end) {
    n++;
    const r = (w * 7919 + n * 104729) % 100;
    // Reads and updates pick from the newest documents; deletes take the oldest, so they do not race.
    const ids = [...created.keys()].slice(-200);
    if (r < 55)
      await call('GET', `/articles?filters[views][$gt]=${r * 10}&sort=title:asc&pagination[page]=${(n % 3) + 1}`);
    else if (r < 70) await call('GET', `/articles?populate=author,category&pagination[pageSize]=10`);
    else if (r < 80 && ids.length) await call('GET', `/articles/${ids[n % ids.length]}`);
    else if (r < 90) {
      const out = await call('POST', '/articles', { data: { title: `Soak ${w}-${n}`, views: n } });
      if (out) created.set(out.data.documentId, n);
      // Keep the data set the same size, so memory can be judged: the oldest document goes.
      if (created.size > 300) {
        const oldest = created.keys().next().value;
        created.delete(oldest);
        const res = await fetch(`${base}/articles/${oldest}`, { method: 'DELETE', headers });
        requests++;
        if (res.status !== 204) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(`DELETE -> ${res.status}`);
        } else deleted.add(oldest);
      }
    } else if (ids.length) {
      const id = ids[(w + n) % ids.length];
      const views = n * 1000 + w;
      const out = await call('PUT', `/articles/${id}`, { data: { views } });
      // Concurrent PUTs to one document: the last acknowledged wins, which we cannot order here,
      // so the check below only asks that the stored value is one that some PUT acknowledged.
      if (out && created.has(id)) {
        const prev = created.get(id);
        created.set(id, Array.isArray(prev) ? [...prev, views] : [prev, views]);
      }
    }
  }
}

const sampler = setInterval(() => memory.push(rss()), 2000);
memory.push(rss());
await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
clearInterval(sampler);
memory.push(rss());

let lost = 0;
for (const id of deleted) {
  if (existsSync(join(dir, 'content', 'documents', 'articles', `${id}.json`))) lost++;
  const res = await fetch(`${base}/articles/${id}`, { headers });
  await res.arrayBuffer();
  if (res.status !== 404) lost++;
}
for (const [id, views] of created) {
  const file = join(dir, 'content', 'documents', 'articles', `${id}.json`);
  const served = await call('GET', `/articles/${id}`);
  const allowed = Array.isArray(views) ? views : [views];
  if (!existsSync(file) || !served || !allowed.includes(served.data.views)) lost++;
  else {
    const onDisk = JSON.parse(readFileSync(file, 'utf8')).locales.en.published.views;
    if (onDisk !== served.data.views) lost++;
  }
}
const third = Math.max(1, Math.floor(memory.length / 3));
const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const early = avg(memory.slice(0, third)),
  late = avg(memory.slice(-third));
const flat = late <= early * 1.5 + 20;
stop();
console.log(
  `soak: ${SECONDS} s, ${CONNECTIONS} connections, ${requests} requests (${(requests / SECONDS).toFixed(0)}/s), ` +
    `${errors} errors, ${created.size + deleted.size} documents created, ${deleted.size} deleted, ${lost} lost writes`,
);
console.log(
  `memory (RSS MB): start ${memory[0].toFixed(0)}, first third ${early.toFixed(0)}, last third ${late.toFixed(0)}, ` +
    `end ${memory.at(-1).toFixed(0)} -> ${flat ? 'flat' : 'GROWING'}`,
);
for (const e of errorSamples) console.log(`  ${e}`);
process.exit(errors || lost || !flat ? 1 : 0);
