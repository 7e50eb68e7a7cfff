import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';

// The rooms of src/ and the rooms each may not import: the arrows run one way (docs/architecture.md).
const FRONT = ['cli', 'export', 'http', 'import', 'studio', 'validate', 'watch', 'webhooks'];
const FEATURES = ['auth', 'upload', 'codegen'];
const forbidden = {
  store: ['schema', 'documents', 'query', 'http-kit', 'project', ...FEATURES, ...FRONT],
  schema: ['documents', 'query', 'http-kit', 'project', ...FEATURES, ...FRONT],
  documents: ['query', 'http-kit', 'project', ...FEATURES, ...FRONT],
  startup: ['query', 'http-kit', 'project', ...FEATURES, ...FRONT],
  query: ['store', 'http-kit', 'project', ...FEATURES, ...FRONT],
  codegen: ['store', 'documents', 'query', 'http-kit', 'project', 'auth', 'upload', ...FRONT],
  'http-kit': [...FEATURES, ...FRONT],
  auth: ['upload', 'codegen', ...FRONT],
  upload: ['auth', 'codegen', ...FRONT],
  studio: ['upload', 'codegen', ...FRONT],
  webhooks: FRONT.filter((r) => r !== 'webhooks'),
  watch: FRONT.filter((r) => r !== 'watch'),
  validate: FRONT.filter((r) => r !== 'validate'),
  import: FRONT.filter((r) => r !== 'import'),
  export: FRONT.filter((r) => r !== 'export'),
  http: ['cli', 'export', 'import', 'validate', 'watch', 'webhooks'],
};
const importRules = Object.entries(forbidden).map(([room, rooms]) => ({
  files: [`src/${room}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [...rooms, ...(room === 'startup' ? [] : ['startup'])].map((r) => ({
          group: r === 'project' ? ['**/project.js'] : [`**/${r}/**`],
          message:
            r === 'startup'
              ? "only the project's opening code (src/project.ts, src/project-ahead.ts) imports src/startup"
              : `src/${room} may not import src/${r}`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'content/', 'test/fixtures/'] },
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
    // Only the project's opening code enters the start path.
    files: ['src/**/*.ts'],
    ignores: [
      'src/project.ts',
      'src/project-ahead.ts',
      'src/startup/**',
      ...Object.keys(forbidden).map((r) => `src/${r}/**`),
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/startup/**'],
              message: "only the project's opening code (src/project.ts, src/project-ahead.ts) imports src/startup",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', 'bin/folio'],
    languageOptions: { globals: globals.node },
  },
);
