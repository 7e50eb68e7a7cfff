import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The lint rules that keep the rooms of src/ in shape, run on code as it would sit in the repository.
const eslint = new ESLint({ overrideConfigFile: '.ci/eslint.config.js' });
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));

describe('the import direction rule', () => {
  it.each([
    ['src/http-kit/x.ts', "import type { Project } from '../project.js';", 'src/http-kit may not import src/project'],
    ['src/upload/x.ts', "import type { Project } from '../project.js';", 'src/upload may not import src/project'],
    ['src/auth/x.ts', "import { x } from '../http/app.js';", 'src/auth may not import src/http'],
    ['src/documents/x.ts', "import { x } from '../query/read.js';", 'src/documents may not import src/query'],
    ['src/store/x.ts', "import { x } from '../schema/registry.js';", 'src/store may not import src/schema'],
    ['src/project.ts', "import { x } from './http/app.js';", 'project may not import src/http'],
    ['src/errors.ts', "import { x } from './store/atomic.js';", 'this file may not import src/store'],
    ['src/query/x.ts', "import { x } from '../startup/index.js';", "only the project's opening code"],
  ])('refuses an arrow up from %s', async (file, code, message) => {
    const found = await problems(file, `${code}\nexport const y = x;\n`);
    expect(found.filter((p) => p.startsWith('no-restricted-imports')).join('\n')).toContain(message);
  });

  it.each([
    ['src/http-kit/x.ts', "import type { ServedProject } from './served-project.js';"],
    ['src/upload/x.ts', "import { x } from '../http-kit/respond.js';"],
    ['src/http/x.ts', "import type { Project } from '../project.js';"],
    ['src/project.ts', "import { x } from './startup/index.js';"],
  ])('lets %s import downwards', async (file, code) => {
    const found = await problems(file, `${code}\nexport const y = x;\n`);
    expect(found.filter((p) => p.startsWith('no-restricted-imports'))).toEqual([]);
  });

  // A folder added to src/ must be given its layer in .ci/eslint.config.js: until then nothing holds its arrows.
  const rooms = readdirSync('src', { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'cli')
    .map((e) => e.name);
  it.each(rooms)('holds src/%s below the CLI', async (room) => {
    const found = await problems(`src/${room}/x.ts`, "import { x } from '../cli/main.js';\nexport const y = x;\n");
    expect(found.filter((p) => p.startsWith('no-restricted-imports'))).not.toEqual([]);
  });
});

describe('the room size rule', () => {
  // 400 lines of code and 1 more line that is only a comment or blank: each counts.
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`);
  it.each([
    ['src/documents/x.ts', '// one line too many'],
    ['src/studio/app/src/x.tsx', ''],
  ])('refuses %s at 401 lines, comments and blank lines counted', async (file, extra) => {
    const code = `${[...lines(400), extra].join('\n')}\n`;
    expect((await problems(file, code)).filter((p) => p.startsWith('max-lines'))).toEqual([
      'max-lines: File has too many lines (401). Maximum allowed is 400.',
    ]);
    expect((await problems(file, `${lines(400).join('\n')}\n`)).filter((p) => p.startsWith('max-lines'))).toEqual([]);
  });
});
