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
  'test/upload-xml-any-encoding.test.ts',
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
// Tests whose beforeAll sends no request: code a request runs there counts as static, and each of its mutants
// would run every test of the list.
const HTTP_ANSWERS = ['test/cors-headers.test.ts', 'test/answer-etag-and-compression.test.ts'];
const HTTP_BODIES = ['test/request-body-rules.test.ts', 'test/request-paths-and-bodies.test.ts'];
const HTTP_CLIENTS = ['test/security-sessions.test.ts', 'test/client-behind-proxies.test.ts'];
const WRITES = [
  'test/publish-checks.test.ts',
  'test/publish-rules.test.ts',
  'test/values.test.ts',
  'test/localized-always.test.ts',
  'test/validate-read-once.test.ts',
  'test/unique-in-components.test.ts',
];
const LIFECYCLE = [
  'test/lifecycle-steps.test.ts',
  'test/publication-routes.test.ts',
  'test/discard-draft-status.test.ts',
  'test/publish-rules.test.ts',
];
const STORE = ['test/atomic-writes.test.ts', 'test/http-crud.test.ts', 'test/concurrent-writes.test.ts'];
// Tests that take the lock in their own bodies (none in a beforeAll), so each mutant runs only those that reach it.
const LOCK = [
  'test/write-lock-takeover.test.ts',
  'test/write-lock-alone.test.ts',
  'test/write-lock-turns.test.ts',
  'test/write-lock-holders.test.ts',
  'test/write-lock-waiters.test.ts',
  'test/write-lock-one-process.test.ts',
];
// The index planner: the indexed answer against a plain reading of the documents (indexed-answers), the plan of
// each kind of query (index-plans), then the query language's tables. The property test (query-index.property)
// is left out: a run of it takes minutes, for each mutant.
const PLANNER = [
  'test/indexed-answers.test.ts',
  'test/index-plans.test.ts',
  'test/query.test.ts',
  'test/filter-logic.test.ts',
  'test/filter-operands.test.ts',
  'test/parity-relations-filters.test.ts',
];
// What answers a planned query and keeps the indexes current: also over a few thousand documents, where it reads
// and sorts in other ways, and through writes.
const INDEXED_READS = [...PLANNER, 'test/indexed-answers-large.test.ts', 'test/indexed-answers-writes.test.ts'];
// Keeping the indexes current: also long logs of changes, and a query overtaken by a write.
// What walks and keeps the sorted orders: the indexed answer against a plain reading, and through writes. Kept
// short (a mutated binary search loops until the timeout, once per test that reaches it): the few thousand
// documents of indexed-answers-large are left out, sorted-pages walks as many rows directly.
const SORTED_READS = [
  'test/sorted-pages.test.ts',
  'test/indexed-answers.test.ts',
  'test/indexed-answers-writes.test.ts',
];
const INDEX_UPKEEP = [
  ...INDEXED_READS,
  'test/query-index-catch-up.test.ts',
  'test/query-index-log.test.ts',
  'test/query-overtaken.test.ts',
];
// The folded texts of the case-insensitive operators: also each of them through every kind of change, with
// titles whose folding is not one character for one, and indexes asked for while a job applies a long log.
const FOLDED_TEXTS = ['test/folded-text-answers.test.ts', 'test/indexes-asked-mid-catch-up.test.ts'];

/** @type {Record<string, string[]>} */
export const TARGETS = {
  'src/auth/access.ts': ACCESS,
  'src/auth/permissions.ts': PERMISSIONS,
  'src/http/app.ts': HTTP_APP,
  'src/http/http-basics.ts': HTTP_ANSWERS,
  'src/http-kit/body.ts': HTTP_BODIES,
  'src/http-kit/client.ts': HTTP_CLIENTS,
  'src/upload/mime.ts': UPLOAD_TYPES,
  'src/upload/config.ts': UPLOAD_TYPES,
  'src/documents/publish-checks.ts': WRITES,
  'src/documents/lifecycle.ts': LIFECYCLE,
  'src/query/operators.ts': FILTERS,
  'src/query/filters.ts': FILTERS,
  'src/store/atomic.ts': STORE,
  'src/store/write-lock.ts': LOCK,
  'src/store/held-folder.ts': [
    ...LOCK,
    'test/lock-holder-files.test.ts',
    'test/lock-file-faults.test.ts',
    'test/lock-touches.test.ts',
    'test/lock-on-windows.test.ts',
  ],
  'src/store/lock-waiters.ts': LOCK,
  'src/query/plan.ts': [...PLANNER, 'test/filter-compiled-once.test.ts', 'test/filter-parts-at-parse.test.ts'],
  'src/query/exec.ts': [
    ...INDEXED_READS,
    'test/indexed-answers-combined.test.ts',
    'test/indexed-answers-long-source.test.ts',
    'test/indexed-work-counted.test.ts',
    'test/indexed-answers-odd-kinds.test.ts',
  ],
  'src/query/column-scope.ts': [
    ...PLANNER,
    'test/plannable-fields.test.ts',
    'test/scalar-fields-kept.test.ts',
    'test/filter-parts-after-drop.test.ts',
  ],
  'src/query/id-sets.ts': [...INDEXED_READS, 'test/indexed-answers-id-edges.test.ts'],
  'src/query/walk.ts': SORTED_READS,
  'src/documents/sorted-order.ts': SORTED_READS,
  'src/documents/text-index.ts': [...INDEXED_READS, ...FOLDED_TEXTS],
  'src/documents/field-indexes.ts': [
    ...INDEX_UPKEEP,
    ...FOLDED_TEXTS,
    'test/query-index-contents.test.ts',
    'test/query-index-upkeep-work.test.ts',
    'test/filter-parts-after-drop.test.ts',
  ],
};

/** Every test some target names: what the vitest config of the runs may run. */
export const MUTATION_TESTS = [...new Set(Object.values(TARGETS).flat())].sort();
