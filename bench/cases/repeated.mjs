// One URL per case, asked over and over (a page every visitor opens, or a client polling): after the first
// answer these are the response cache's figures. Projects of 1,000 and 10,000 articles.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort, sleep } from '../net.mjs';
import { loadRepeated } from '../lib/load.mjs';
import { startFolio, stopAndWait, usage, waitFor } from '../lib/servers.mjs';
import { atLeast, atMost, table } from '../lib/report.mjs';

const TARGETS = { a: 0.35, b: 0.15, d: 0.5, e: 0.12 };

export async function repeatedCases(projects, ceiling) {
  const rows = [];
  let memory;
  for (const [n, dir] of projects) {
    const port = await freePort();
    const server = startFolio(dir, port);
    const api = `http://127.0.0.1:${port}/api/articles`;
    await waitFor(api);
    // From 2,000 documents the server writes its start-up snapshot after the first answer: let it finish
    // before measuring throughput.
    if (n >= 2000)
      for (let i = 0; i < 300 && !existsSync(resolve(dir, '.folio', 'cache', 'documents.snapshot')); i++)
        await sleep(100);
    const first = await (await fetch(`${api}?pagination[pageSize]=1`)).json();
    const id = first.data[0].documentId;
    const word = 'deploy';
    const filtered = `${api}?filters[views][$gt]=500&sort=title:asc&pagination[page]=3`;
    const cases = [
      ['a', 'list, page 1 of 25', api],
      ['b', 'filter views > 500, sort title, page 3', filtered],
      ['c', `$containsi "${word}"`, `${api}?filters[title][$containsi]=${word}`],
      ['d', 'get one by documentId', `${api}/${id}`],
      ['e', '(b) + populate author, category', `${filtered}&populate=author,category`],
    ];
    for (const [key, label, url] of cases) {
      const check = await (await fetch(url)).json();
      const ok =
        key === 'd'
          ? check.data?.documentId === id
          : Array.isArray(check.data) &&
            check.data.length > 0 &&
            (key !== 'e' || (check.data[0].author && check.data[0].category));
      if (!ok) throw new Error(`case ${key} answered an unexpected body: ${JSON.stringify(check).slice(0, 300)}`);
      const r = await loadRepeated(url);
      const share = r.rps / ceiling.rps;
      const target = n === 1000 ? TARGETS[key] : undefined;
      rows.push([
        n.toLocaleString('en'),
        `(${key}) ${label}`,
        r.rps.toFixed(0),
        `${r.p50}`,
        `${r.p99}`,
        `${(share * 100).toFixed(1)}%`,
        target === undefined ? '' : atLeast(share, target),
      ]);
    }
    if (n === 10000) memory = usage(server.pid).rssMb;
    await stopAndWait(server);
  }
  console.log('repeated URLs (each case one URL, 10 connections):');
  console.log(table(['articles', 'query', 'req/s', 'p50 ms', 'p99 ms', 'share of ceiling', 'target'], rows));
  if (memory !== undefined)
    console.log(`\nmemory at 10,000 articles: ${memory.toFixed(0)} MB RSS ${atMost(memory, 150, 'MB')}`);
}
