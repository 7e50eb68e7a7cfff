import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** `folio locales add <code>` names the locale as Strapi does, `French (fr)`, for any code (issue 24 §6). */
describe('folio locales add: display names', () => {
  const p = makeProject();
  /** The CLI in this process (see helpers/cli.ts); each command must succeed. */
  const folio = async (...args: string[]) => {
    const r = await runFolio([...args, '--dir', p.dir]);
    expect(r.code, r.stderr).toBe(0);
  };
  const locales = () =>
    (
      JSON.parse(readFileSync(join(p.contentDir, 'folio.json'), 'utf8')) as {
        locales: Array<{ code: string; name: string }>;
      }
    ).locales;
  afterAll(() => p.cleanup());

  it('uses the language name and the code, for plain and regional codes', async () => {
    for (const code of ['de', 'pt-BR', 'zh-Hans', 'es-419']) await folio('locales', 'add', code);
    expect(locales().slice(2)).toEqual([
      { code: 'de', name: 'German (de)' },
      { code: 'pt-BR', name: 'Portuguese (Brazil) (pt-BR)' },
      { code: 'zh-Hans', name: 'Chinese (Simplified) (zh-Hans)' },
      { code: 'es-419', name: 'Spanish (Latin America) (es-419)' },
    ]);
  });

  it('keeps a name given with --name, and the code alone for a code no language has', async () => {
    await folio('locales', 'add', 'it', '--name', 'Italiano');
    await folio('locales', 'add', 'qaa');
    expect(locales().slice(-2)).toEqual([
      { code: 'it', name: 'Italiano' },
      { code: 'qaa', name: 'qaa' },
    ]);
  });

  it('names fr "French (fr)" as Strapi does', async () => {
    await folio('locales', 'remove', 'fr');
    await folio('locales', 'add', 'fr');
    expect(locales().find((l) => l.code === 'fr')).toEqual({ code: 'fr', name: 'French (fr)' });
  });
});
