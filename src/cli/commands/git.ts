import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { GlobalOptions } from '../context.js';
import { CliError, printResult } from '../output.js';

export function registerGit(program: Command, globals: () => GlobalOptions) {
  const git = program.command('git').description("git-native content: the merge driver of this project's clone");
  git
    .command('setup')
    .description('register the merge driver for document files in this clone (.git/config and .gitattributes)')
    .addHelpText(
      'after',
      `
Git merges document files field by field once each clone has run this (the config is per clone; commit the
.gitattributes it writes). Running it again changes nothing.
Example:
  folio git setup && git add .gitattributes && git commit -m "Merge document files per field"`,
    )
    .action(async () => {
      const opts = globals();
      const { setupGit } = await import('../../git/setup.js');
      const root = resolve(opts.dir ?? process.cwd());
      let result;
      try {
        result = await setupGit(root);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      const { config, attributes } = result.changed;
      printResult(
        opts,
        result,
        !config && !attributes
          ? `The merge driver is already set up in ${result.repository}\n`
          : `Set up the Folio merge driver in ${result.repository}:\n` +
              (config ? '  merge.folio.driver in .git/config (this clone)\n' : '') +
              (attributes ? `  ${result.gitattributes}: commit it, so every clone uses the driver\n` : ''),
      );
    });
  program
    .command('merge-file <base> <ours> <theirs> [path]')
    .description('the git merge driver of document files (run by git once "folio git setup" registered it)')
    .option('--marker-size <n>', 'the length of conflict markers (git passes %L)', '7')
    .addHelpText(
      'after',
      `
Merges <theirs> into <ours> against <base> per locale, version and field, and writes the result to <ours>.
Exits 1 when a field was changed on both sides to different values: the file then holds conflict markers
around that field only, and "folio validate" names it with both values. A file that is not document JSON,
or is nested more than 200 levels deep, is merged line by line as git merges text.`,
    )
    .action(async (base: string, ours: string, theirs: string, path: string | undefined, o: { markerSize: string }) => {
      const opts = globals();
      const { mergeDocumentFile } = await import('../../git/merge/driver.js');
      const markerSize = Number(o.markerSize);
      if (!Number.isInteger(markerSize) || markerSize < 7 || markerSize > 100)
        throw new CliError('--marker-size must be a whole number from 7 to 100', { exitCode: 2 });
      const result = await mergeDocumentFile({ base, ours, theirs, path, markerSize });
      const shown = path ?? ours;
      if (!opts.quiet) {
        for (const c of result.conflicts)
          process.stderr.write(`${shown}: ${c.path}: changed on both sides (folio merge-file)\n`);
        if (result.reason) process.stderr.write(`${shown}: merged line by line, not per field: ${result.reason}\n`);
      }
      if (result.lineMerge !== undefined) process.exitCode = result.lineMerge === 0 ? 0 : 1;
      else if (result.conflicts.length) process.exitCode = 1;
    });
}
