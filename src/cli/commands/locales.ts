import type { Command } from 'commander';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable } from '../output.js';
import { readRaw, refuseWithLoadProblems, replaceRaw, writeRaw } from '../folio-json.js';

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

const documents = (n: number) => `${n} document${n === 1 ? '' : 's'}`;
const relinkedLine = (n: number) => (n ? `rewrote the links of ${documents(n)} so they name the same versions\n` : '');

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
      let relinked = 0;
      // A new default locale changes what bare links name: they are rewritten in the same write.
      if (o.default) refuseWithLoadProblems(project, `make ${code} the default locale`);
      if (o.default)
        ({ relinked } = await project.documents.changeLocales({ defaultLocale: code }, () =>
          replaceRaw(project.contentDir, raw),
        ));
      else await writeRaw(project.contentDir, raw);
      printResult(
        opts,
        { locales: list, defaultLocale: raw.defaultLocale, relinked },
        `added locale ${code}${o.default ? ' (default)' : ''}\n` + relinkedLine(relinked),
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
      // Bare links name the default locale's version: the links are rewritten in the same write.
      refuseWithLoadProblems(project, `make ${code} the default locale`);
      const { relinked } = await project.documents.changeLocales({ defaultLocale: code }, () =>
        replaceRaw(project.contentDir, raw),
      );
      printResult(
        opts,
        { locales: raw.locales, defaultLocale: code, relinked },
        `${code} is now the default locale\n` + relinkedLine(relinked),
      );
    });

  locales
    .command('remove <code>')
    .description('remove a locale, with the versions in it and the links to them')
    .option('--force', 'remove it even when documents have versions in it or links naming it')
    .action(async (code: string, o: { force?: boolean }) => {
      const opts = globals();
      const project = await loadProject({ ...opts, quiet: true });
      if (!project.config.locales.some((l) => l.code === code))
        throw new CliError(`The locale ${code} is not configured (see "folio locales list")`);
      if (code === project.config.defaultLocale)
        throw new CliError(
          `${code} is the default locale: make another locale the default first ("folio locales default <code>")`,
        );
      refuseWithLoadProblems(project, `remove the locale ${code}`);
      const change = { defaultLocale: project.config.defaultLocale, removed: code };
      const preview = project.documents.previewLocalesChange(change);
      if ((preview.withVersions || preview.relinked || preview.documentsRemoved) && !o.force)
        throw new CliError(
          `${documents(preview.withVersions)} have a ${code} version and ` +
            `${documents(preview.relinked)} link a ${code} version. Pass --force to remove the locale anyway: ` +
            `its versions are deleted (${documents(preview.documentsRemoved)} that have no other locale with them) ` +
            `and the links to them removed, as Strapi does.`,
        );
      const raw = readRaw(project.contentDir);
      raw.locales = project.config.locales.filter((l) => l.code !== code);
      raw.defaultLocale = project.config.defaultLocale;
      const result = await project.documents.changeLocales(change, () => replaceRaw(project.contentDir, raw));
      const done = [
        result.withVersions && `deleted the ${code} versions of ${documents(result.withVersions)}`,
        result.documentsRemoved && `removed ${documents(result.documentsRemoved)} left without any version`,
        result.relinked && `removed the links to them from ${documents(result.relinked)}`,
      ].filter(Boolean);
      printResult(
        opts,
        { locales: raw.locales, defaultLocale: raw.defaultLocale, ...result },
        `removed locale ${code}\n${done.map((line) => `${line}\n`).join('')}`,
      );
    });
}
