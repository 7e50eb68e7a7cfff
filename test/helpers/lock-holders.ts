import { afterAll, afterEach } from 'vitest';
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './project.js';

const HOLDER = join(REPO, 'test', 'helpers', 'lock-holder.mjs');

/**
 * A lock test file's temp folder (removed after its tests) and its `lock-holder.mjs` processes, each killed after
 * the test that started it: a holder left running would keep a lock the next test needs.
 */
export function lockHolders(prefix: string) {
  const children: ChildProcess[] = [];
  const temp = mkdtempSync(join(tmpdir(), prefix));
  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));
  /** Starts lock-holder.mjs with `args` (state folder, log, hold time). */
  const start = (args: string[], stdio: StdioOptions) => {
    const child = spawn(process.execPath, [HOLDER, ...args], { stdio });
    children.push(child);
    return child;
  };
  return { temp, start };
}
