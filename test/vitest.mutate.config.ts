import { defineConfig } from 'vitest/config';
import { MUTATION_TESTS } from './mutation-targets.mjs';

/**
 * The tests `npm run mutate` runs against a mutant (test/mutation-targets.mjs names which, per mutated file):
 * those that drive the mutated rules in this process, where Stryker's mutants live. Tests that spawn the CLI or
 * the server run dist/, which holds none, so they could kill none.
 */
export default defineConfig({
  test: {
    dir: 'test',
    // Those of the mutated file when test/stryker.config.mjs says which.
    include: process.env.FOLIO_MUTATE_TESTS ? (JSON.parse(process.env.FOLIO_MUTATE_TESTS) as string[]) : MUTATION_TESTS,
    globalSetup: ['test/helpers/temp-in-memory.ts'],
    setupFiles: ['test/helpers/mutate-preload.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
