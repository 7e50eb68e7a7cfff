// Start to first answer over a big project. The first start has nothing but the files (a fresh clone: CI, a
// new checkout) and writes the start-up snapshot in the background; restarts index unchanged files from it.
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort, sleep } from '../net.mjs';
import { median } from '../lib/load.mjs';
import { stopAndWait, timeStart } from '../lib/servers.mjs';

export const snapshotOf = (dir) => resolve(dir, '.folio', 'cache', 'documents.snapshot');

/** Waits (at most `ms`) for the snapshot a first start writes after its first answer. */
export async function waitForSnapshot(dir, ms = 120000) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(100)) if (existsSync(snapshotOf(dir))) return true;
  return false;
}

/**
 * `runs` first starts (the snapshot removed before each) and `runs` restarts over the snapshot the last one
 * wrote; each timed to its first answer. Medians, and every run.
 */
export async function timeStarts(dir, runs, snapshotWaitMs = 120000) {
  const firsts = [];
  for (let i = 0; i < runs; i++) {
    rmSync(resolve(dir, '.folio'), { recursive: true, force: true });
    const first = await timeStart(dir, await freePort());
    firsts.push(first.ms);
    if (i === runs - 1 && !(await waitForSnapshot(dir, snapshotWaitMs)))
      throw new Error(`no start-up snapshot written within ${snapshotWaitMs / 1000} s of the first answer`);
    await stopAndWait(first.server);
  }
  const restarts = [];
  for (let i = 0; i < runs; i++) {
    const r = await timeStart(dir, await freePort());
    restarts.push(r.ms);
    await stopAndWait(r.server);
  }
  return { first: median(firsts), firsts, restart: median(restarts), restarts };
}

/** A project whose snapshot exists (a first start made it), for sections run on their own. */
export async function ensureSnapshot(dir, snapshotWaitMs = 120000) {
  if (existsSync(snapshotOf(dir))) return;
  const { server } = await timeStart(dir, await freePort());
  if (!(await waitForSnapshot(dir, snapshotWaitMs))) throw new Error('no start-up snapshot written');
  await stopAndWait(server);
}
