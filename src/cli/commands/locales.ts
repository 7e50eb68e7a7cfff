import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { serialize } from '../../store/serialize.js';
import { loadConfig } from '../../config.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable } from '../output.js';

import { localeCodeProblem } from '../names.js';

/**
 * A locale's display name as Strapi writes it, `French (fr)`: the platform's English name for the code
 * (`Portuguese (Brazil) (pt-BR)`), or the code alone when the platform does not know it.
 */
export function localeName(code: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'none' }).of(code);
  } catch {
    name = undefined;
  }
  return name ? `${name} (${code})` : code;
}

/** Reads folio.json as written (so other keys and their order are kept), or an empty object. */
function readRaw(contentDir: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(join(contentDir, 'folio.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function writeRaw(contentDir: string, raw: Record<string, unknown>) {
  const file = join(contentDir, 'folio.json');
  await writeFileAtomic(file, serialize(raw));
  loadConfig(contentDir); // fails loudly if the result is not a valid config
}

export function registerLocales(program: Command, globals: () => GlobalOptions) {
  const locales = program.command('locales').description('locales of the project (content/folio.json)');

  locales
    .command('list')
    .description('list the configured locales')
    .action(async () => {
      const opts = globals();
      const project = await loadProject(opts);
      const rows = project.config.locales.map((l) => ({ ...l, isDefault: l.code === project.config.defaultLocale }));
      if (opts.json) return printJson(rows);
      printTable(
        ['code', 'name', 'default'],
        rows.map((l) => [l.code, l.name, l.isDefault ? 'yes' : '']),
      );
    });

  locales
    .command('add <code>')
    .description('add a locale')
    .option('--name <name>', 'display name (default the language\'s English name, e.g. "French (fr)")')
    .option('--default', 'make it the default locale')
    .addHelpText(
      'after',
      `
Examples:
  folio locales add fr                    (named "French (fr)")
  folio locales add pt-BR --name "Português"`,
    )
    .action(async (code: string, o: { name?: string; default?: boolean }) => {
      const opts = globals();
      const problem = localeCodeProblem(code);
      if (problem) throw new CliError(problem);
      const project = await loadProject({ ...opts, quiet: true });
      const raw = readRaw(project.contentDir);
      const list = project.config.locales.map((l) => ({ ...l }));
      if (list.some((l) => l.code === code)) throw new CliError(`The locale ${code} is already configured`);
      list.push({ code, name: o.name ?? localeName(code) });
      raw.locales = list;
      raw.defaultLocale = o.default ? code : project.config.defaultLocale;
      await writeRaw(project.contentDir, raw);
      printResult(
        opts,
        { locales: list, defaultLocale: raw.defaultLocale },
        `added locale ${code}${o.default ? ' (default)' : ''}\n`,
      );
    });

  locales
    .command('default <code>')
    .description('make a configured locale the default one')
    .addHelpText(
      'after',
      `
Example:
  folio locales default en`,
    )
    .action(async (code: string) => {
      const opts = globals();
      const project = await loadProject({ ...opts, quiet: true });
      if (!project.config.locales.some((l) => l.code === code))
        throw new CliError(
          `The locale ${code} is not configured ` +
            `(configured: ${project.config.locales.map((l) => l.code).join(', ')}); ` +
            `add it with "folio locales add ${code} --default"`,
        );
      const raw = readRaw(project.contentDir);
      raw.locales = project.config.locales;
      raw.defaultLocale = code;
      await writeRaw(project.contentDir, raw);
      printResult(opts, { locales: raw.locales, defaultLocale: code }, `${code} is now the default locale\n`);
    });

  locales
    .command('remove <code>')
    .description('remove a locale (documents keep their versions in it on disk)')
    .option('--force', 'remove it even when documents have versions in it')
    .action(async (code: string, o: { force?: boolean }) => {
      const opts = globals();
      const project = await loadProject({ ...opts, quiet: true });
      if (!project.config.locales.some((l) => l.code === code))
        throw new CliError(`The locale ${code} is not configured (see "folio locales list")`);
      if (code === project.config.defaultLocale)
        throw new CliError(
          `${code} is the default locale: make another locale the default first ("folio locales default <code>")`,
        );
      let used = 0;
      for (const ct of project.schemas.contentTypes.values()) {
        if (!ct.localized) continue;
        for (const doc of project.documents.index.documents(ct.uid)) if (doc.slots.has(code)) used++;
      }
      if (used && !o.force)
        throw new CliError(
          `${used} document(s) have a ${code} version. Pass --force to remove the locale anyway ` +
            `(their ${code} versions stay on disk and come back if you add it again).`,
        );
      const raw = readRaw(project.contentDir);
      raw.locales = project.config.locales.filter((l) => l.code !== code);
      raw.defaultLocale = project.config.defaultLocale;
      await writeRaw(project.contentDir, raw);
      printResult(opts, { locales: raw.locales, defaultLocale: raw.defaultLocale }, `removed locale ${code}\n`);
    });
}
