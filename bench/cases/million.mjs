// `npm run bench -- --million`: a project of 1,000,000 articles: first start, restart, the five queries with
// the event loop and RSS, and export (it completes). Generating it takes a few minutes and about 1.5 GB of disk.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../generate.mjs';
import { atMost } from '../lib/report.mjs';
import { removeLater } from '../lib/servers.mjs';
import { timeStarts } from './startup.mjs';
import { queryTable } from './queries.mjs';
import { cliTimings } from './cli.mjs';

const COUNT = 1_000_000;

export async function millionSection(keepDir) {
  const dir = keepDir && existsSync(join(keepDir, 'content')) ? keepDir : generate(COUNT, keepDir);
  if (!keepDir) removeLater(dir);
  spawnSync('sync');
  console.log(`\n## 1,000,000 articles (${dir})\n`);
  // The warm-up and the snapshot after a first start take minutes at this size on a busy machine. Medians of
  // three, as at 100,000: the first start after another project filled the page cache reads every file from disk.
  const starts = await timeStarts(dir, 3, 900000);
  console.log(
    `first start to first answer: ${starts.first} ms (median of ${starts.firsts.join(', ')}) ` +
      atMost(starts.first / 1000, 15, 's'),
  );
  console.log(
    `restart to first answer: ${starts.restart} ms (median of ${starts.restarts.join(', ')}) ` +
      `${atMost(starts.restart / 1000, 8, 's')}\n`,
  );
  await queryTable(dir, {
    rounds: 10,
    count: COUNT,
    // While the first query prepares the type and the warm-up runs, the longest blocks at this size are the
    // collector's, on a heap of a gigabyte and more: figures, not targets (docs/performance.md).
    targets: { p50: 20, containsi: 150, blockMs: 50, startBlockMs: null, rssMb: 2560 },
  });
  console.log('');
  await cliTimings(dir, {});
}
