import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { SkipGuard } from './helpers/skip-guard.js';
import { SETTLES_MS } from './helpers/eventually.js';

/**
 * The files that take longest, longest first: started first, they run beside the many short ones instead
 * of alone at the end. Only an order; a file missing here runs in Vitest's own order (by its last run's
 * duration, else by size).
 */
const LONGEST_FIRST = [
  'studio',
  'studio-blocks-inline',
  'package',
  'query-index.property',
  'snapshot',
  'astro-loader',
  'studio-component-links',
  'merge-ids',
  'server-survives',
  'studio-blocks-images',
  'write-lock-takeover',
  'serve-second-signal',
  'upload-watch',
  'cli-guided',
  'reliability',
  'auth',
  'crash-safety',
  'dev-server',
  'branch-switch',
  'drift',
  'hostile-input',
  'studio-read-only',
].map((name) => `${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(basename(f.moduleId));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array sort is stable: the rest keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    dir: 'test',
    // Forks, not threads: the tests spawn the CLI, start servers and reader threads of their own.
    pool: 'forks',
    // Most of a test file's time is waiting (on the disk, sockets, spawned processes): one worker more than
    // there are cores, and at least three, keeps the cores busy.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // A worker runs its files one after another in one process, sharing the modules they import: a process
    // and a module graph per file are much of the suite's CPU. No file relies on a fresh process; those that
    // change process state (helpers/cli.ts runFolio) put it back.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // Skipped tests are listed at the end; under CI=true one not in allowed-skips.ts fails the run.
    reporters: ['default', new SkipGuard()],
    // A dist/ built from other sources is refused (fresh-dist.ts); test projects on /dev/shm where there is one
    // (temp-in-memory.ts).
    globalSetup: ['test/helpers/fresh-dist.ts', 'test/helpers/temp-in-memory.ts'],
    // A safety net for a test that hangs, not a measure: on a loaded machine (two cores shared by many processes,
    // a busy CI runner) a test that spawns the CLI a few times or drives Chromium takes well over 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits as long as eventually() does, not Vitest's default second.
    expect: { poll: { timeout: SETTLES_MS } },
  },
});
