import type { Command } from 'commander';
import { openProject } from '../../project.js';
import type { GlobalOptions } from '../context.js';
import { printJson } from '../output.js';
import { withProgress } from '../progress.js';

export function registerValidate(program: Command, globals: () => GlobalOptions) {
  program
    .command('validate')
    .description('check schemas, documents, relations, media, unique values and ids; exit 1 on any problem')
    .addHelpText(
      'after',
      `
Prints one "file: path: problem" line per problem. Use it in a pre-commit hook or in CI after merges:
  folio validate && git commit`,
    )
    .action(async () => {
      const opts = globals();
      const started = Date.now();
      const project = await withProgress('loading the project', opts, () => openProject(opts.dir ?? process.cwd()));
      const { validateProject } = await import('../../validate/validate.js');
      const problems = await withProgress('checking documents', opts, (bar) => validateProject(project, bar.update));
      if (opts.json) printJson({ ok: problems.length === 0, problems });
      else {
        for (const p of problems) process.stdout.write(`${p.file}: ${p.path ? `${p.path}: ` : ''}${p.message}\n`);
        if (!opts.quiet) {
          const docs = project.report.documents;
          process.stderr.write(
            problems.length
              ? `${problems.length} problem(s) in ${docs} documents\n`
              : `ok: ${docs} documents, ${project.schemas.contentTypes.size} content-types ` +
                  `(${Date.now() - started} ms)\n`,
          );
        }
      }
      if (problems.length) process.exitCode = 1;
    });
}
