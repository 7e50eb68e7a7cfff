// @ts-check
/**
 * The files `npm run mutate` mutates, each with the tests that can kill its mutants: tests that drive its rules in
 * this process (an in-process server, the CLI's main, the store's API), where Stryker's mutants live. A run of one
 * file runs only its tests; a static mutant (a list entry, a constant) runs all of them, so they are kept short.
 * Read by test/stryker.config.mjs and test/vitest.mutate.config.ts.
 */

const ACCESS = [
  'test/access-odd-credentials.test.ts',
  'test/access-table.test.ts',
  'test/auth.test.ts',
  'test/auth-roles.test.ts',
  'test/cached-answers-per-caller.test.ts',
  'test/live-events-end.test.ts',
  'test/live-events-expiry.test.ts',
  'test/owner-answers.test.ts',
];
// permissions.ts is mostly lists (static mutants, each run against every test named here): its rules' tests only.
const PERMISSIONS = ['test/auth-roles.test.ts', 'test/permissions-file.test.ts'];
const FILTERS = [
  'test/query.test.ts',
  'test/filter-logic.test.ts',
  'test/filter-operands.test.ts',
  'test/parity-relations-filters.test.ts',
];
const UPLOAD_TYPES = [
  'test/upload-types-refused.test.ts',
  'test/upload-types-kept.test.ts',
  'test/upload-settings.test.ts',
  'test/upload-utf16-markup.test.ts',
];
const HTTP = [
  'test/read-only-any-case.test.ts',
  'test/read-only-session-paths.test.ts',
  'test/hostile-input.test.ts',
  'test/http-crud.test.ts',
];
const WRITES = [
  'test/publish-checks.test.ts',
  'test/publish-rules.test.ts',
  'test/values.test.ts',
  'test/localized-always.test.ts',
  'test/validate-read-once.test.ts',
  'test/unique-in-components.test.ts',
];
const STORE = ['test/http-crud.test.ts'];

/** @type {Record<string, string[]>} */
export const TARGETS = {
  'src/auth/access.ts': ACCESS,
  'src/auth/permissions.ts': PERMISSIONS,
  'src/http/app.ts': HTTP,
  'src/http/http-basics.ts': HTTP,
  'src/http-kit/body.ts': HTTP,
  'src/http-kit/client.ts': HTTP,
  'src/upload/mime.ts': UPLOAD_TYPES,
  'src/upload/config.ts': UPLOAD_TYPES,
  'src/documents/publish-checks.ts': WRITES,
  'src/documents/lifecycle.ts': WRITES,
  'src/query/operators.ts': FILTERS,
  'src/query/filters.ts': FILTERS,
  'src/store/atomic.ts': STORE,
  'src/store/write-lock.ts': STORE,
  'src/store/held-folder.ts': STORE,
};

/** Every test some target names: what the vitest config of the runs may run. */
export const MUTATION_TESTS = [...new Set(Object.values(TARGETS).flat())].sort();
