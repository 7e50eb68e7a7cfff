import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

// The rooms of src/ in layers, lowest first: a room may not import a room of a higher layer, so every arrow runs
// down (docs/architecture.md). `project` is src/project.ts and src/project-ahead.ts, the code that opens a project;
// the bottom files (errors.ts, version.ts, printable.ts) import no room at all, and config.ts only the store's
// reading of files and JSON.
const LAYERS = [
  ['store'],
  ['schema'],
  ['documents'],
  ['startup', 'query'],
  ['http-kit', 'codegen'],
  ['auth', 'upload', 'git'],
  ['studio'],
  ['project'],
  ['http', 'export', 'import', 'validate', 'watch', 'webhooks'],
  ['cli'],
];
const ROOMS = LAYERS.flat();
const above = (room) => LAYERS.slice(LAYERS.findIndex((layer) => layer.includes(room)) + 1).flat();
// Arrows refused besides the upward ones: between rooms of one layer, and past a layer a room must go through.
const FRONT = ['export', 'import', 'validate', 'watch', 'webhooks'];
const alsoForbidden = {
  query: ['store', 'startup'],
  startup: ['query'],
  codegen: ['store', 'documents', 'query', 'http-kit'],
  'http-kit': ['codegen'],
  auth: ['upload', 'codegen', 'git'],
  upload: ['auth', 'codegen', 'git'],
  git: ['auth', 'upload', 'codegen'],
  studio: ['upload', 'codegen', 'git'],
  http: FRONT,
  ...Object.fromEntries(FRONT.map((room) => [room, ['http', ...FRONT.filter((r) => r !== room)]])),
};
const forbidden = Object.fromEntries(ROOMS.map((room) => [room, [...above(room), ...(alsoForbidden[room] ?? [])]]));
const restrict = (room, rooms) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [...new Set(rooms)].map((r) => ({
        group: r === 'project' ? ['**/project.js', '**/project-ahead.js'] : [`**/${r}/**`],
        message:
          r === 'startup'
            ? "only the project's opening code (src/project.ts, src/project-ahead.ts) imports src/startup"
            : `${room} may not import src/${r}: the arrows between the rooms of src/ run one way, down`,
      })),
    },
  ],
});
const importRules = [
  ...Object.entries(forbidden).map(([room, rooms]) => ({
    files: room === 'project' ? ['src/project.ts', 'src/project-ahead.ts'] : [`src/${room}/**/*.ts`],
    // Only the project's opening code enters the start path.
    rules: restrict(
      room === 'project' ? room : `src/${room}`,
      ['startup', 'project'].includes(room) ? rooms : [...rooms, 'startup'],
    ),
  })),
  {
    files: ['src/errors.ts', 'src/version.ts', 'src/printable.ts'],
    rules: restrict('this file', ROOMS),
  },
  {
    files: ['src/config.ts'],
    rules: restrict(
      'this file',
      ROOMS.filter((r) => r !== 'store'),
    ),
  },
  {
    // A file of its own at the top of src/ may not enter the start path either.
    files: ['src/*.ts'],
    ignores: [
      'src/project.ts',
      'src/project-ahead.ts',
      'src/config.ts',
      'src/errors.ts',
      'src/version.ts',
      'src/printable.ts',
    ],
    rules: restrict('this file', ['startup']),
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'content/', 'test/fixtures/', '.stryker/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    plugins: { '@stylistic': stylistic },
    rules: {
      // Prettier wraps code at 120; this also holds comments and strings to the same width.
      '@stylistic/max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...importRules,
  {
    // One room per job: a source file over 400 lines holds more than one (comments and blank lines count).
    files: ['src/**/*.ts', 'src/**/*.tsx', 'bench/**/*.mjs', 'bin/**', '.ci/**/*.js'],
    rules: { 'max-lines': ['error', { max: 400, skipComments: false, skipBlankLines: false }] },
  },
  {
    // Every regex of src/ may meet user input: none may take more than linear time, however it is called.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', 'bin/folio'],
    languageOptions: { globals: globals.node },
  },
);
