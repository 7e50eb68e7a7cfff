import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, makeProject } from './helpers/project.js';

/** `folio locales add <code>` names the locale as Strapi does, `French (fr)`, for any code (issue 24 §6). */
describe('folio locales add: display names', () => {
  const p = makeProject();
  const folio = (...args: string[]) => execFileSync('node', [BIN, ...args, '--dir', p.dir], { encoding: 'utf8' });
  const locales = () =>
    (
      JSON.parse(readFileSync(join(p.contentDir, 'folio.json'), 'utf8')) as {
        locales: Array<{ code: string; name: string }>;
      }
    ).locales;
  afterAll(() => p.cleanup());

  it('uses the language name and the code, for plain and regional codes', () => {
    for (const code of ['de', 'pt-BR', 'zh-Hans', 'es-419']) folio('locales', 'add', code);
    expect(locales().slice(2)).toEqual([
      { code: 'de', name: 'German (de)' },
      { code: 'pt-BR', name: 'Portuguese (Brazil) (pt-BR)' },
      { code: 'zh-Hans', name: 'Chinese (Simplified) (zh-Hans)' },
      { code: 'es-419', name: 'Spanish (Latin America) (es-419)' },
    ]);
  });

  it('keeps a name given with --name, and the code alone for a code no language has', () => {
    folio('locales', 'add', 'it', '--name', 'Italiano');
    folio('locales', 'add', 'qaa');
    expect(locales().slice(-2)).toEqual([
      { code: 'it', name: 'Italiano' },
      { code: 'qaa', name: 'qaa' },
    ]);
  });

  it('names fr "French (fr)" as Strapi does', () => {
    folio('locales', 'remove', 'fr');
    folio('locales', 'add', 'fr');
    expect(locales().find((l) => l.code === 'fr')).toEqual({ code: 'fr', name: 'French (fr)' });
  });
});
