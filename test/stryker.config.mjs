// @ts-check
/**
 * `npm run mutate`: StrykerJS mutation testing of the rules that guard data and access, not run in CI (minutes per
 * file on two cores). One file: `npm run mutate -- --mutate src/upload/mime.ts`. Incremental: a run tests only the
 * mutants whose code or tests changed since the last (.stryker/incremental.json); `--force` tests them all.
 * Scores per file: docs/testing.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'test/vitest.mutate.config.ts', related: true },
  mutate: [
    'src/auth/access.ts',
    'src/auth/permissions.ts',
    'src/http/app.ts',
    'src/http/http-basics.ts',
    'src/http-kit/body.ts',
    'src/upload/mime.ts',
    'src/upload/config.ts',
    'src/documents/publish-checks.ts',
    'src/documents/lifecycle.ts',
    'src/query/operators.ts',
    'src/query/filters.ts',
    'src/store/atomic.ts',
    'src/store/write-lock.ts',
    'src/store/held-folder.ts',
  ],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: '.stryker/incremental.json',
  tempDirName: '.stryker/tmp',
  ignorePatterns: ['dist', 'bench', 'docs', '.folio', '.stryker', 'src/studio/app'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '.stryker/report.html' },
  jsonReporter: { fileName: '.stryker/report.json' },
  concurrency: 2,
  timeoutMS: 30_000,
  thresholds: { high: 85, low: 70, break: null },
};
