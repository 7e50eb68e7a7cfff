// Preloaded by the bench only (`node --import bench/lib/peak.mjs bin/folio export …`): at exit, writes the
// process's peak RSS (every thread's) in MB to the file named by BENCH_PEAK_FILE.
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.env.BENCH_PEAK_FILE) {
  const file = process.env.BENCH_PEAK_FILE;
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS / 1024)));
}
