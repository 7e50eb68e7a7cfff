import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/project.js';

/** The lint rule that keeps super-linear regexes out of src/ (issue 31): `npm run lint` fails on one. */
describe('the regex lint rule', () => {
  const lint = async (code: string, file = 'src/auth/planted.ts') => {
    const eslint = new ESLint({ cwd: REPO, overrideConfigFile: join(REPO, '.ci', 'eslint.config.js') });
    const [result] = await eslint.lintText(code, { filePath: join(REPO, file) });
    return result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId);
  };

  it.each([
    ['the e-mail check of old', 'export const EMAIL = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\n'],
    ['a trim of a run', "export const trim = (s: string) => s.replace(/_+$/, '');\n"],
    ['a nested quantifier', 'export const words = /^(\\w+\\s?)*$/;\n'],
    ['a Studio regex', 'export const slug = /^[^\\s/:]+\\.[^\\s:]+$/;\n', 'src/studio/app/src/planted.ts'],
  ])('is an error for %s', async (_name, code, file?: string) => {
    const rules = await lint(code, file);
    expect(rules.some((r) => r === 'regexp/no-super-linear-backtracking' || r === 'regexp/no-super-linear-move')).toBe(
      true,
    );
  });

  it('lets linear regexes through', async () => {
    expect(await lint("export const trim = (s: string) => s.replace(/^_|_$/g, '');\n")).toEqual([]);
  });
});
