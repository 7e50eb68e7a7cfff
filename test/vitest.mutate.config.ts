import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: those that drive the mutated rules in this process (an
 * in-process server, the CLI's main), where Stryker's mutants live. Tests that spawn the CLI or the server run
 * dist/, which holds none, so they could kill none.
 */
export default defineConfig({
  test: {
    dir: 'test',
    include: [
      'test/access-table.test.ts',
      'test/auth.test.ts',
      'test/auth-roles.test.ts',
      'test/cached-answers-per-caller.test.ts',
      'test/read-only-any-case.test.ts',
      'test/read-only-session-paths.test.ts',
      'test/upload-types-refused.test.ts',
      'test/upload.test.ts',
      'test/publish-checks.test.ts',
      'test/localized-always.test.ts',
      'test/http-crud.test.ts',
      'test/values.test.ts',
      'test/query.test.ts',
      'test/parity-relations-filters.test.ts',
      'test/hostile-input.test.ts',
      'test/dev-server.test.ts',
      'test/live-events-end.test.ts',
    ],
    globalSetup: ['test/helpers/temp-in-memory.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
