import { createHook } from 'node:async_hooks';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openProject } from '../../src/project.js';

/** Where a project's start-up snapshot is written. */
export const SNAPSHOT = (dir: string) => join(dir, '.folio', 'cache', 'documents.snapshot');

/** Moves every document file (and folder) a minute back: a snapshot never trusts files changed just before it. */
export function age(contentDir: string) {
  const past = new Date(Date.now() - 60_000);
  const docs = join(contentDir, 'documents');
  for (const plural of readdirSync(docs)) {
    for (const f of readdirSync(join(docs, plural))) utimesSync(join(docs, plural, f), past, past);
    utimesSync(join(docs, plural), past, past);
  }
}

/** Loads the project as `folio serve` does and writes its snapshot (whatever the project's size). */
export async function snapshot(dir: string) {
  const p = await openProject(dir, { load: { capture: true, snapshotFrom: 0 } });
  expect(p.afterStart.snapshotPending).toBe(true);
  await p.afterStart.writeSnapshot();
  expect(existsSync(SNAPSHOT(dir))).toBe(true);
  return p.report.documents;
}

/**
 * What `fn` answers, and how many worker threads it started meanwhile (a start's reader or stamping
 * threads), and the most alive at once: Node creates an async resource of type WORKER for each.
 */
export async function countingThreads<T>(fn: () => Promise<T>): Promise<{ value: T; threads: number; atOnce: number }> {
  let threads = 0;
  let atOnce = 0;
  const alive = new Set<number>();
  const hook = createHook({
    init: (id, type) => {
      if (type !== 'WORKER') return;
      threads++;
      alive.add(id);
      atOnce = Math.max(atOnce, alive.size);
    },
    destroy: (id) => alive.delete(id),
  }).enable();
  try {
    const value = await fn();
    return { value, threads, atOnce };
  } finally {
    hook.disable();
  }
}
