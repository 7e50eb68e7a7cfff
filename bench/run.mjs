// `npm run bench`: the real `folio serve` in its own process, driven from this one (autocannon, fetch), on
// 127.0.0.1 only, every figure printed beside its target. Sections (all but `million` by default; choose with
// --only a,b):
//   repeated  one URL per case, 1,000 and 10,000 articles, as a share of a bare node:http server answering
//             1 KB of JSON (the machine's ceiling, measured just before), and memory at 10,000
//   distinct  8,000 distinct filter + sort + page URLs at 1,000 articles, each asked once, with and without
//             populate, as a share of the ceiling measured just before
//   startup   first start and restart to the first answer, 100,000 articles
//   queries   the five query shapes at 100,000 articles, each value asked once: p50, the server's longest
//             event-loop block, RSS
//   cli       `folio export` and `folio validate` at 100,000 articles: time and peak RSS
//   million   (--million) start, restart, the five queries, RSS and export at 1,000,000 articles
// --big DIR / --million-dir DIR keep the generated project there (reused when it exists). Servers run as
// `folio serve` runs by default (watching content/). BENCH_DURATION (s) sets each repeated case's length.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.mjs';
import { freePort } from './net.mjs';
import { loadRepeated } from './lib/load.mjs';
import { cleanup, removeLater, startCeiling, stopAndWait, waitFor } from './lib/servers.mjs';
import { atMost, missedCount } from './lib/report.mjs';
import { repeatedCases } from './cases/repeated.mjs';
import { distinctCases } from './cases/distinct.mjs';
import { timeStarts } from './cases/startup.mjs';
import { queryTable } from './cases/queries.mjs';
import { cliTimings } from './cases/cli.mjs';
import { millionSection } from './cases/million.mjs';

const SECTIONS = ['repeated', 'distinct', 'startup', 'queries', 'cli', 'million'];
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    million: { type: 'boolean', default: false },
    big: { type: 'string' },
    'million-dir': { type: 'string' },
  },
});
const chosen = new Set(values.only ? values.only.split(',') : SECTIONS.filter((s) => s !== 'million'));
if (values.million) chosen.add('million');
for (const s of chosen) if (!SECTIONS.includes(s)) throw new Error(`unknown section "${s}" (${SECTIONS.join(', ')})`);

process.on('exit', cleanup);
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

function project(count, keep) {
  if (keep && existsSync(join(keep, 'content'))) return keep;
  const dir = generate(count, keep);
  if (!keep) removeLater(dir);
  return dir;
}

async function measureCeiling() {
  const port = await freePort();
  const ceiling = startCeiling(port);
  await waitFor(`http://127.0.0.1:${port}/`);
  const base = await loadRepeated(`http://127.0.0.1:${port}/`);
  await stopAndWait(ceiling);
  console.log(
    `\nceiling (bare node:http, 1 KB JSON): ${base.rps.toFixed(0)} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms`,
  );
  return base;
}

async function main() {
  const small = chosen.has('repeated') || chosen.has('distinct') ? project(1000) : undefined;
  // Measured again before each section that is compared with it: on a shared machine one reading can be far off.
  if (chosen.has('repeated')) {
    const ceiling = await measureCeiling();
    console.log('');
    await repeatedCases(
      [
        [1000, small],
        [10000, project(10000)],
      ],
      ceiling,
    );
  }
  if (chosen.has('distinct')) {
    const ceiling = await measureCeiling();
    console.log('');
    await distinctCases(small, ceiling);
  }
  if (chosen.has('startup') || chosen.has('queries') || chosen.has('cli')) {
    const big = project(100000, values.big);
    // The kernel is still writing the generated files back (about a second of CPU here): a clone's files
    // are on disk long before it is served, so starts are timed once they are.
    spawnSync('sync');
    console.log(`\n## 100,000 articles\n`);
    if (chosen.has('startup')) {
      const s = await timeStarts(big, 3);
      console.log(
        `first start to first answer (no snapshot, a fresh clone): ${s.first} ms (median of ${s.firsts.join(', ')}) ` +
          atMost(s.first, 1500, 'ms'),
      );
      console.log(
        `restart to first answer (over the snapshot): ${s.restart} ms (median of ${s.restarts.join(', ')}) ` +
          `${atMost(s.restart, 1000, 'ms')}\n`,
      );
    }
    if (chosen.has('queries'))
      await queryTable(big, {
        rounds: Number(process.env.BENCH_ROUNDS ?? 20),
        count: 100000,
        targets: { p50: 5, containsi: 20, blockMs: 50, rssMb: 400 },
      });
    if (chosen.has('cli')) {
      console.log('');
      await cliTimings(big, { exportMs: 20000, exportMb: 500, validateMs: 3000 });
    }
  }
  if (chosen.has('million')) await millionSection(values['million-dir']);
  const missed = missedCount();
  console.log(`\n${missed ? `${missed} target(s) missed` : 'all targets met'}`);
}

main()
  .then(() => {
    cleanup();
    process.exit(0);
  })
  .catch((err) => {
    console.error(err);
    cleanup();
    process.exit(1);
  });
