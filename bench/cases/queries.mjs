// The five query shapes of a big collection, each asked once per distinct value (a crawl, or visitors each with
// their own filter), one at a time, on a server restarted over its snapshot, with the server's longest
// event-loop block (measured inside it, see lib/probe.mjs) and its RSS.
import { freePort } from '../net.mjs';
import { median, timed } from '../lib/load.mjs';
import { settle, stopAndWait, timeStart } from '../lib/servers.mjs';
import { atMost, mb, ms, table } from '../lib/report.mjs';
import { WORDS } from '../generate.mjs';
import { ensureSnapshot } from './startup.mjs';

/** The five shapes; value k (0, 1, …) gives each its own distinct URL. Even and odd views keep 1 and 2 apart. */
export const SHAPES = [
  {
    label: '`filters[views][$gt]=<v>&sort=title:asc&pagination[page]=3`',
    path: (k) => `filters[views][$gt]=${2 * ((k * 37) % 450)}&sort=title:asc&pagination[page]=3`,
  },
  {
    label: 'the same with `populate=author,category`',
    path: (k) =>
      `filters[views][$gt]=${2 * ((k * 53) % 450) + 1}&sort=title:asc&pagination[page]=3&populate=author,category`,
    check: (body) => body.data[0].author && body.data[0].category,
  },
  { label: '`sort=views:desc&pagination[page]=<100+k>`', path: (k) => `sort=views:desc&pagination[page]=${100 + k}` },
  {
    label: '`filters[title][$containsi]=<word>&pagination[page]=2`',
    path: (k) => `filters[title][$containsi]=${WORDS[k % WORDS.length]}&pagination[page]=2`,
    containsi: true,
  },
  {
    label: '`filters[author][name][$eq]=<name>&pagination[page]=2`',
    path: (k) => `filters[author][name][$eq]=${encodeURIComponent(`Author ${k % 50}`)}&pagination[page]=2`,
  },
];

const NO_TARGET = '(a figure: no target at this size, see docs/performance.md)';

/**
 * Restarts the server over `dir` (which gets a snapshot first if it has none) and measures: the first
 * filtered query after the start, the warm-up, then `rounds` rounds of the five shapes (round-robin).
 * `targets`: { p50, containsi, blockMs, rssMb, startBlockMs }. `startBlockMs` (default `blockMs`) holds the blocks of
 * the first query and the warm-up after the start; null prints them as figures without a target.
 */
export async function queryTable(dir, { rounds, targets, count }) {
  // A million documents take minutes to warm up and write their snapshot on a busy machine.
  const patience = count >= 1e6 ? 900000 : 120000;
  await ensureSnapshot(dir, patience);
  const port = await freePort();
  const { ms: startMs, server } = await timeStart(dir, port, { probe: true });
  const api = `http://127.0.0.1:${port}/api/articles`;
  await server.resetProbe();
  // The first filtered query after a snapshot start: its values may not be in memory yet. Its value is one
  // the rounds below do not use.
  const first = await timed(`${api}?filters[views][$gt]=901&sort=title:asc&pagination[page]=3`);
  const firstBlock = (await server.probe()).maxBlockMs;
  await settle(server.pid, patience);
  const warm = await server.probe();
  await server.resetProbe();
  const times = SHAPES.map(() => []);
  const slowest = SHAPES.map(() => 0);
  for (let k = 0; k < rounds; k++)
    for (const [i, shape] of SHAPES.entries()) {
      const { ms: t, body } = await timed(`${api}?${shape.path(k)}`);
      if (!Array.isArray(body.data) || !body.data.length || (shape.check && !shape.check(body)))
        throw new Error(`${shape.path(k)}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
      times[i].push(t);
      slowest[i] = Math.max(slowest[i], t);
    }
  const after = await server.probe();
  await stopAndWait(server);

  const rows = SHAPES.map((shape, i) => {
    const p50 = median(times[i]);
    const target = shape.containsi ? targets.containsi : targets.p50;
    return [shape.label, ms(p50), ms(slowest[i]), atMost(p50, target, 'ms')];
  });
  console.log(
    `${count.toLocaleString('en')} articles, restarted over the snapshot (${startMs} ms to its first answer); ` +
      `each query asked once, ${rounds} distinct values per shape:`,
  );
  console.log(table(['query', 'p50 ms', 'slowest ms', 'target'], rows));
  const block = (label, x, max) =>
    console.log(`${label}: ${ms(x)} ms ${max === null ? NO_TARGET : atMost(x, max, 'ms')}`);
  const startMax = targets.startBlockMs === undefined ? targets.blockMs : targets.startBlockMs;
  console.log(`\nfirst filtered query after the start: ${ms(first.ms)} ms`);
  block('longest event-loop block from the first answer to the end of that query', firstBlock, startMax);
  block('longest event-loop block from the first answer to the end of the warm-up', warm.maxBlockMs, startMax);
  block(`longest event-loop block during the ${rounds * SHAPES.length} queries`, after.maxBlockMs, targets.blockMs);
  console.log(
    `RSS: after start (warm-up done) ${mb(warm.rssMb)} -> after the queries ${mb(after.rssMb)} ` +
      `${atMost(after.rssMb, targets.rssMb, 'MB')}`,
  );
}
