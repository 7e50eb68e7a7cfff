import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    dir: 'test',
    // Forks, not threads: the tests spawn the CLI, start servers and reader threads of their own.
    pool: 'forks',
    // Vitest's default is one worker per core but one; most of a test file's time is waiting (on the
    // disk, sockets, spawned processes), so a worker per core, and at least two, keeps the cores busy.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
