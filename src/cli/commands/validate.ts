import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { printJson } from '../output.js';
import { withProgress } from '../progress.js';

export function registerValidate(program: Command, globals: () => GlobalOptions) {
  program
    .command('validate')
    .description('check schemas, documents, relations, media, unique values and ids; exit 1 on any problem')
    .option('--fix', 'rewrite the files of versions whose id clashes with another one (after a merge), with fresh ids')
    .addHelpText(
      'after',
      `
Prints one "file: path: problem" line per problem. Use it in a pre-commit hook or in CI after merges:
  folio validate && git commit
Ids that two files both use (after merging branches that each added documents) are notices on standard
error, not problems: every process numbers them alike until "folio validate --fix" rewrites one of them.`,
    )
    .action(async (o: { fix?: boolean }) => {
      const opts = { ...globals(), ...o };
      const started = Date.now();
      // Asked of git beside the load: a merge left unresolved, and a clone whose merge driver is not set up.
      const git = import('../../git/validate-notes.js').then((m) => m.gitNotes(opts.dir ?? process.cwd()));
      const { openForValidation } = await import('../../validate/open.js');
      const { project, bodies } = await withProgress('loading the project', opts, () =>
        openForValidation(opts.dir ?? process.cwd()),
      );
      const { validateProject } = await import('../../validate/validate.js');
      const { idClashNotices } = await import('../../validate/id-clashes.js');
      const fixed = opts.fix ? await project.documents.rewriteRenumbered() : [];
      const problems = await withProgress('checking documents', opts, (bar) =>
        validateProject(project, bar.update, bodies),
      );
      const { unresolved, driver } = await git;
      problems.push(...unresolved);
      if (driver && !opts.quiet && !opts.json) process.stderr.write(`note: ${driver}\n`);
      const { clearSecretNotices } = await import('../../validate/webhook-secrets.js');
      const notices = [...idClashNotices(project), ...clearSecretNotices(project)];
      if (opts.json) printJson({ ok: problems.length === 0, problems, notices, fixed });
      else {
        for (const p of problems) process.stdout.write(`${p.file}: ${p.path ? `${p.path}: ` : ''}${p.message}\n`);
        if (!opts.quiet) {
          for (const f of fixed) {
            const ct = project.schemas.contentTypes.get(f.uid)!;
            process.stderr.write(`fixed: ${ct.pluralName}/${f.documentId}: ${f.path}: ${f.from} -> ${f.to}\n`);
          }
          for (const n of notices) process.stderr.write(`notice: ${n.file}: ${n.path}: ${n.message}\n`);
          const docs = project.report.documents;
          const types = project.schemas.contentTypes.size;
          process.stderr.write(
            problems.length
              ? `${problems.length} problem(s) in ${docs} documents\n`
              : `ok: ${docs} documents, ${types} content-types (${Date.now() - started} ms)\n`,
          );
        }
      }
      if (problems.length) process.exitCode = 1;
    });
}
