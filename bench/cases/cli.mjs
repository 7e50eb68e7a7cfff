// `folio export` and `folio validate` over a big project, as a user runs them (their own process, not on a
// terminal): wall time and peak RSS (lib/peak.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../lib/servers.mjs';
import { atMost, mb, verdict } from '../lib/report.mjs';

/** `targets`: { exportMs, exportMb, validateMs } (any left out is printed without a verdict). */
export async function cliTimings(dir, targets) {
  const out = mkdtempSync(join(tmpdir(), 'folio-bench-export-'));
  try {
    const ex = await runCli(['export', '--out', out, '--dir', dir]);
    report('folio export', ex, targets.exportMs, targets.exportMb);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  if (targets.validateMs !== undefined) {
    const va = await runCli(['validate', '--dir', dir]);
    report('folio validate', va, targets.validateMs);
  }
}

function report(label, r, maxMs, maxMb) {
  const seconds = `${(r.ms / 1000).toFixed(1)} s`;
  if (r.code !== 0) {
    console.log(`${label}: ${verdict(false, 'exit 0')} exit ${r.code} after ${seconds}: ${r.lastLine}`);
    return;
  }
  const time = maxMs === undefined ? '' : ` ${atMost(r.ms / 1000, maxMs / 1000, 's')}`;
  const peak = maxMb === undefined ? '' : ` ${atMost(r.peakMb, maxMb, 'MB')}`;
  console.log(`${label}: ${seconds}${time}, peak RSS ${mb(r.peakMb)}${peak} (${r.lastLine})`);
}
