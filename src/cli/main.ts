import { FOLIO_VERSION } from '../version.js';
import { Command } from 'commander';
import { CliError, red } from './output.js';
import type { GlobalOptions } from './context.js';
import { registerDocs } from './commands/docs.js';
import { registerMedia } from './commands/media.js';
import { registerServe } from './commands/serve.js';
import { registerTypes } from './commands/types.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerLocales } from './commands/locales.js';
import { registerAccess } from './commands/access.js';
import { registerInit } from './commands/init.js';
import { registerGenerate } from './commands/generate.js';
import { registerValidate } from './commands/validate.js';
import { registerTransfer } from './commands/transfer.js';
import { registerBuilder } from './commands/builder.js';
import { addExamples } from './examples.js';

/** The `folio` command line: one module per command group; heavy modules load only when a command runs. */
export async function main(argv: string[]) {
  // `folio docs list … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') process.exit(0); throw err; });
  const program = new Command('folio')
    .description('Folio: a file-based headless CMS that serves the Strapi v5 REST API from JSON files in git')
    .version(FOLIO_VERSION)
    .option('-d, --dir <project>', 'the project folder (the one that holds content/)', process.cwd())
    .option('--json', 'print JSON for scripts')
    .option('-q, --quiet', 'print only what was asked for')
    .showHelpAfterError()
    .addHelpText('after', `
Examples:
  folio serve                               serve ./content at http://localhost:1337/api
  folio types list
  folio docs list articles --sort title
  folio docs create categories --data '{"name":"Tech"}'`);
  const globals = () => program.opts<GlobalOptions>();
  registerInit(program, globals);
  registerServe(program, globals);
  registerTypes(program, globals);
  registerDocs(program, globals);
  registerMedia(program, globals);
  registerWebhooks(program, globals);
  registerLocales(program, globals);
  registerAccess(program, globals);
  registerGenerate(program, globals);
  registerValidate(program, globals);
  registerTransfer(program, globals);
  registerBuilder(program, globals);
  addExamples(program);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = reportError(err);
  }
}

function reportError(err: unknown): number {
  const e = err as { message?: string; errorName?: string; details?: { errors?: Array<{ path: string[]; message: string }> } };
  if (err instanceof CliError) {
    process.stderr.write(`${red('Error:')} ${err.message}\n`);
    return err.exitCode;
  }
  if (e && typeof e.errorName === 'string') {
    process.stderr.write(`${red(`${e.errorName}:`)} ${e.message}\n`);
    for (const p of e.details?.errors ?? []) process.stderr.write(`  ${p.path.join('.')}: ${p.message}\n`);
    return 1;
  }
  process.stderr.write(`${red('Error:')} ${e?.message ?? String(err)}\n`);
  return 1;
}

