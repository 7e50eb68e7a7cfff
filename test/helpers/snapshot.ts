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
