import type { LoadOptions } from '../project.js';
import { openProject, type Project } from '../project.js';
import { CliError } from './output.js';
import { withProgress } from './progress.js';

export interface GlobalOptions {
  dir?: string;
  json?: boolean;
  quiet?: boolean;
}

/** Opens the project named by `--dir` (default: the current folder), reporting load problems on stderr. */
export async function loadProject(opts: GlobalOptions, load?: LoadOptions): Promise<Project> {
  const project = await withProgress('loading the project', opts, () =>
    openProject(opts.dir ?? process.cwd(), { load }),
  );
  if (!opts.quiet && project.report.problems.length) {
    process.stderr.write(`${project.report.problems.length} problem(s) while loading ${project.contentDir}:\n`);
    for (const p of project.report.problems.slice(0, 20)) process.stderr.write(`  ${p.file}: ${p.message}\n`);
    if (project.report.problems.length > 20)
      process.stderr.write(`  … and ${project.report.problems.length - 20} more (run "folio validate")\n`);
  }
  return project;
}

/** Reads all of standard input (for `--data -` or piped JSON). Never waits on a terminal. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('No data: pass --data \'{"title":"…"}\' or pipe JSON on standard input.');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
