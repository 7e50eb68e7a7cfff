import { TARGETS } from '../mutation-targets.mjs';

/**
 * Loads the files `npm run mutate` mutates before any test runs. A module first loaded inside a test (the upload
 * rules, on the first upload) would have its module-level code (lists, tables) counted as that test's coverage
 * alone, and Stryker would try each of those mutants against that one test; loaded here, that code runs outside
 * every test, so Stryker treats its mutants as static and runs all the file's tests against each.
 */
await Promise.all(Object.keys(TARGETS).map((file) => import(`../../${file}`)));
