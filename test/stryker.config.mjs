// @ts-check
import { MUTATION_TESTS, TARGETS } from './mutation-targets.mjs';

/**
 * `npm run mutate`: StrykerJS mutation testing of the rules that guard data and access, not run in CI (minutes per
 * file on two cores). One file: `npm run mutate -- --mutate src/upload/mime.ts`, which runs only that file's tests
 * (test/mutation-targets.mjs) and keeps its own incremental record (.stryker/incremental/<file>.json): a run tests
 * only the mutants whose code or tests changed since that file's last run; `--force` tests them all.
 * Scores per file: docs/testing.md.
 */

/** The files named by `--mutate` (`-m`), as Stryker reads them, without line ranges. */
function targetsOfArgs(argv) {
  const i = argv.findIndex((a) => a === '--mutate' || a === '-m' || a.startsWith('--mutate='));
  if (i === -1) return [];
  const value = argv[i].startsWith('--mutate=') ? argv[i].slice('--mutate='.length) : (argv[i + 1] ?? '');
  return value.split(',').map((p) => p.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, ''));
}

const targets = targetsOfArgs(process.argv);
const known = targets.length > 0 && targets.every((t) => t in TARGETS);
// One record per set of files: Stryker's incremental report holds only the files of its run.
const name = targets.length ? targets.map((t) => t.replace(/^src\//, '').replace(/[/.]/g, '-')).join('+') : 'all';

// The tests of the run, for test/vitest.mutate.config.ts (in Stryker's worker processes, which inherit the
// environment). Not Stryker's own `testFiles`: with it, Stryker 9.6 activates a static mutant (a constant, a list
// entry) only after its module was loaded, so every static mutant survives (stryker-js#6144).
process.env.FOLIO_MUTATE_TESTS = JSON.stringify(
  known ? [...new Set(targets.flatMap((t) => TARGETS[t]))] : MUTATION_TESTS,
);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'test/vitest.mutate.config.ts', related: true },
  mutate: Object.keys(TARGETS),
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: `.stryker/incremental/${name}.json`,
  tempDirName: '.stryker/tmp',
  // dist/ is copied: the CLI runs and lock holders some tests spawn run it (unmutated, as they always see).
  ignorePatterns: ['bench', 'docs', '.folio', '.stryker', 'src/studio/app'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `.stryker/reports/${name}.html` },
  jsonReporter: { fileName: `.stryker/reports/${name}.json` },
  concurrency: 2,
  timeoutMS: 30_000,
  thresholds: { high: 85, low: 70, break: null },
};
