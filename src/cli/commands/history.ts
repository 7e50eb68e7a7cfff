import type { Command } from 'commander';
import type { ContentType } from '../../schema/types.js';
import type { Project } from '../../project.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, dim, printJson, printResult, printTable } from '../output.js';
import { printable } from '../../printable.js';

interface HistoryOptions extends GlobalOptions {
  at?: string;
  limit: string;
  start: string;
}

/** `folio docs history` and `folio docs restore`: a document's history from git (see git/history.ts). */
export function registerHistory(program: Command, globals: () => GlobalOptions) {
  const docs = program.commands.find((c) => c.name() === 'docs') ?? program.command('docs');
  docs
    .command('history <type> <documentId>')
    .description("a document's history from git: who changed it, when, and the message of each commit")
    .option('--at <commit>', 'the document as that commit held it, and the fields that differ now')
    .option('--limit <n>', 'at most this many commits (newest first)', '20')
    .option('--start <n>', 'skip this many of the newest commits', '0')
    .addHelpText(
      'after',
      `
Examples:
  folio docs history articles x1vu42k5cw5c5fxhgpjekt1q
  folio docs history articles x1vu42k5cw5c5fxhgpjekt1q --at 3f2a9c1 --json`,
    )
    .action(async (type: string, documentId: string, o: HistoryOptions) => {
      const opts = { ...globals(), ...o };
      const { project, ct, history } = await open(opts, type);
      if (opts.at !== undefined) {
        const { fieldChanges, publicBody } = await import('../../git/history.js');
        const then = await history.at(ct, documentId, opts.at);
        if (!then) throw new CliError(`No commit "${opts.at}" of ${ct.singularName} ${documentId}`);
        const document = publicBody(project.schemas, ct, then.body);
        const current = history.current(ct, documentId);
        const changes = fieldChanges(ct, document, current && publicBody(project.schemas, ct, current));
        if (opts.json) return printJson({ ...then.entry, document, changes });
        process.stdout.write(`${describe(then.entry)}\n`);
        if (!changes.length) process.stdout.write('No field differs from now.\n');
        for (const c of changes) process.stdout.write(`${c.path}: ${shown(c.then)} ${dim('→ now')} ${shown(c.now)}\n`);
        return;
      }
      const limit = count(opts.limit, '--limit', 1000);
      const start = count(opts.start, '--start', 1_000_000);
      const entries = await history.log(ct, documentId, { limit, start });
      if (opts.json) return printJson({ data: entries, meta: { limit, start } });
      if (!entries.length) {
        process.stdout.write(`No commits of ${ct.singularName} ${documentId}'s file.\n`);
        return;
      }
      printTable(
        ['commit', 'date', 'author', 'message'],
        entries.map((e) => [e.commit.slice(0, 12), e.date, `${e.author.name} <${e.author.email}>`, e.message]),
        72,
      );
    });
  docs
    .command('restore <type> <documentId> <commit>')
    .description("put a document's values back as a commit of its history held them (its draft, to publish)")
    .option('--locale <code>', 'the locale to restore (default: the default locale)')
    .addHelpText(
      'after',
      `
Example:
  folio docs restore articles x1vu42k5cw5c5fxhgpjekt1q 3f2a9c1 --locale fr && folio docs publish articles x1vu…`,
    )
    .action(async (type: string, documentId: string, commit: string, o: { locale?: string }) => {
      const opts = { ...globals(), ...o };
      const { ct, history } = await open(opts, type);
      const done = await history.restore(ct, documentId, commit, { locale: opts.locale });
      if (!done) throw new CliError(`No commit "${commit}" of ${ct.singularName} ${documentId}`);
      if (!done.version) throw new CliError(`No ${ct.singularName} ${documentId}: it was deleted since`);
      const where = done.version.locale ? ` (${done.version.locale})` : '';
      printResult(
        opts,
        { documentId, locale: done.version.locale, status: done.version.status, restored: done.entry.commit },
        `restored ${ct.singularName} ${documentId}${where} from ${done.entry.commit.slice(0, 12)}` +
          `${done.version.status === 'draft' ? ' as its draft: publish it when it is right' : ''}\n`,
      );
    });
}

async function open(opts: GlobalOptions, type: string) {
  const project: Project = await loadProject(opts);
  const ct: ContentType | undefined = project.schemas.find(type);
  if (!ct) throw new CliError(`Unknown content-type "${type}". See "folio types list".`);
  const { DocumentHistory } = await import('../../git/history.js');
  const history = await DocumentHistory.open(project);
  if (!history) throw new CliError(`${project.root} is not in a git repository: its documents have no history`);
  return { project, ct, history };
}

function count(raw: string, name: string, max: number): number {
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max) throw new CliError(`${name} must be a whole number up to ${max}`);
  return Number(raw);
}

/** A commit made elsewhere (pulled) has whatever author and message its committer typed: printed escaped. */
const describe = (e: { commit: string; date: string; author: { name: string; email: string }; message: string }) =>
  `${printable(`${e.commit.slice(0, 12)}  ${e.date}  ${e.author.name} <${e.author.email}>`)}\n` +
  `  ${printable(e.message)}`;

/** A value on one line, cut when long. */
function shown(v: unknown): string {
  const text = printable(JSON.stringify(v) ?? 'null');
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}
