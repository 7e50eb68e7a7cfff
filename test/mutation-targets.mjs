// @ts-check
/**
 * The files `npm run mutate` mutates, each with the tests that can kill its mutants: tests that drive its rules in
 * this process (an in-process server, the CLI's main, the store's API), where Stryker's mutants live. A run of one
 * file runs only its tests; a static mutant (a list entry, a constant) runs all of them, so they are kept short.
 * Read by test/stryker.config.mjs and test/vitest.mutate.config.ts.
 */

const ACCESS = [
  'test/access-table.test.ts',
  'test/auth.test.ts',
  'test/auth-roles.test.ts',
  'test/cached-answers-per-caller.test.ts',
  'test/live-events-end.test.ts',
];
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
const HTTP_APP = [
  ...HTTP,
  'test/read-only-what-passes.test.ts',
  'test/request-paths-and-bodies.test.ts',
  'test/server-log-and-broken-answers.test.ts',
];
const HTTP_ANSWERS = [
  'test/http-crud.test.ts',
  'test/cors-headers.test.ts',
  'test/answer-etag-and-compression.test.ts',
];
const HTTP_BODIES = [
  'test/hostile-input.test.ts',
  'test/http-crud.test.ts',
  'test/request-body-rules.test.ts',
  'test/request-paths-and-bodies.test.ts',
];
const HTTP_CLIENTS = ['test/security-sessions.test.ts', 'test/client-behind-proxies.test.ts'];
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
  'src/auth/permissions.ts': ACCESS,
  'src/http/app.ts': HTTP_APP,
  'src/http/http-basics.ts': HTTP_ANSWERS,
  'src/http-kit/body.ts': HTTP_BODIES,
  'src/http-kit/client.ts': HTTP_CLIENTS,
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
