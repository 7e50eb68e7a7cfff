import { FOLIO_VERSION } from '../version.js';
import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { CliError, red } from './output.js';
import type { GlobalOptions } from './context.js';
import { addExamples } from './examples.js';

type Register = (program: Command, globals: () => GlobalOptions) => void;

/**
 * Each command group's module, with the top-level commands it adds, in the order help lists them. Only
 * the group of the command being run is loaded: the modules a command imports (the query engine, auth,
 * uploads…) are slow to load, and `folio serve` starts reading files only once its own are.
 */
const GROUPS: Array<{ commands: string[]; load: () => Promise<Register> }> = [
  { commands: ['init'], load: async () => (await import('./commands/init.js')).registerInit },
  { commands: ['serve'], load: async () => (await import('./commands/serve.js')).registerServe },
  { commands: ['types'], load: async () => (await import('./commands/types.js')).registerTypes },
  { commands: ['docs'], load: async () => (await import('./commands/docs.js')).registerDocs },
  // After `docs`: it adds the history subcommands to it.
  { commands: ['docs'], load: async () => (await import('./commands/history.js')).registerHistory },
  { commands: ['media'], load: async () => (await import('./commands/media.js')).registerMedia },
  { commands: ['webhooks'], load: async () => (await import('./commands/webhooks.js')).registerWebhooks },
  { commands: ['locales'], load: async () => (await import('./commands/locales.js')).registerLocales },
  {
    commands: ['permissions', 'users', 'tokens'],
    load: async () => (await import('./commands/access.js')).registerAccess,
  },
  { commands: ['generate'], load: async () => (await import('./commands/generate.js')).registerGenerate },
  { commands: ['validate'], load: async () => (await import('./commands/validate.js')).registerValidate },
  { commands: ['export', 'import'], load: async () => (await import('./commands/transfer.js')).registerTransfer },
  { commands: ['git', 'merge-file'], load: async () => (await import('./commands/git.js')).registerGit },
  // After `types`: it adds the schema-builder subcommands to it.
  { commands: ['types', 'components'], load: async () => (await import('./commands/builder.js')).registerBuilder },
];

/**
 * The command `argv` runs (its first word that is not an option or the project folder), or undefined
 * when anything before it asks for the program's help or is not a global option: then every group
 * loads, as help lists every command. Only a guess for choosing modules: commander parses the
 * arguments properly once they are registered.
 */
export function commandOf(argv: string[]): string | undefined {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) return a;
    if (a === '--dir') i++;
    else if (a.startsWith('--dir=') || a === '--json' || a === '--quiet' || a === '--version') continue;
    else {
      // Short flags, bundled as commander reads them: -q, -V, then -d with its value attached or next.
      const m = /^-[qV]*(d.*)?$/.exec(a);
      if (!m) return undefined;
      if (m[1] === 'd') i++;
    }
  }
  return undefined;
}

/**
 * The project folder `argv` names (`--dir`, `--dir=`, `-d` with its value attached or next, bundled
 * after -q or -V), before or after the command; undefined for the current one. Only a guess, as
 * `commandOf` is.
 */
export function dirOf(argv: string[]): string | undefined {
  const args = argv.slice(2);
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--dir') dir = args[++i];
    else if (a.startsWith('--dir=')) dir = a.slice('--dir='.length);
    else {
      const m = /^-[qV]*d(.*)$/.exec(a);
      if (m) dir = m[1] || args[++i];
    }
  }
  return dir;
}

/** The `folio` command line: one module per command group, loaded only when one of its commands runs. */
export async function main(argv: string[]) {
  // `folio docs list … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const command = commandOf(argv);
  if (command === 'serve') {
    // The large folders a first start lists are listed on the thread pool from here on, while the rest
    // loads: before commander too, as a core is idle until the reader threads start.
    const { listAhead } = await import('../project-ahead.js');
    listAhead(dirOf(argv) ?? process.cwd(), !argv.includes('--no-snapshot'));
  }
  const { Command } = await import('commander');
  const program = new Command('folio')
    .description('Folio: a file-based headless CMS that serves the Strapi v5 REST API from JSON files in git')
    .version(FOLIO_VERSION)
    .option('-d, --dir <project>', 'the project folder (the one that holds content/)', process.cwd())
    .option('--json', 'print JSON for scripts')
    .option('-q, --quiet', 'print only what was asked for')
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Examples:
  folio serve                               serve ./content at http://localhost:1337/api
  folio types list
  folio docs list articles --sort title
  folio docs create categories --data '{"name":"Tech"}'`,
    );
  const globals = () => program.opts<GlobalOptions>();
  const json = () => globals().json === true || argv.includes('--json');
  // Subcommands inherit both: usage errors come back here (exit 2, JSON with --json) instead of exiting.
  program.exitOverride();
  program.configureOutput({
    outputError: (text, write) => (json() ? undefined : write(text)),
    writeErr: (text) => (json() ? undefined : process.stderr.write(text)),
  });
  // Help, a mistyped command (commander suggests the nearest) or none at all: every group.
  const chosen = GROUPS.filter((g) => command !== undefined && g.commands.includes(command));
  const groups = chosen.length ? chosen : GROUPS;
  const registers = await Promise.all(groups.map((g) => g.load()));
  for (const register of registers) register(program, globals);
  addExamples(program);
  const commit = await followWrites(argv, command);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = await reportError(err, json());
  } finally {
    await commit?.();
  }
}

/**
 * While a server commits the project's writes (`serve --commit` leaves a mark in `.folio/git/`), the files a
 * command changes are committed when it ends (see git/cli-commits.ts). Looked for before anything is loaded.
 */
async function followWrites(argv: string[], command: string | undefined) {
  if (command === undefined || ['serve', 'merge-file', 'git'].includes(command)) return undefined;
  const { existsSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const root = resolve(dirOf(argv) ?? process.cwd());
  if (!existsSync(join(root, '.folio', 'git', 'committing.json'))) return undefined;
  const { followCliChanges, commandLine } = await import('../git/cli-commits.js');
  return followCliChanges(root, commandLine(argv));
}

/** Reports a failure on stderr (as `{"error":{name,message,details}}` with --json) and returns the exit status. */
export async function reportError(err: unknown, json: boolean): Promise<number> {
  const e = err as {
    name?: string;
    code?: string;
    exitCode?: number;
    message?: string;
    errorName?: string;
    details?: { errors?: Array<{ path: string[]; message: string; value?: unknown }> } | null;
  };
  let name = 'Error';
  let message = e?.message ?? String(err);
  let details: Record<string, unknown> = {};
  let status: number = EXIT.error;
  if (typeof e?.code === 'string' && e.code.startsWith('commander.')) {
    // Help and --version end parsing through the same path, with status 0: nothing to report.
    if (e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
    if (e.code === 'commander.help') return EXIT.usage;
    name = 'UsageError';
    message = message.replace(/^error: /, '');
    details = { code: e.code };
    status = EXIT.usage;
    // commander already printed its message (and the help hint) for people.
    if (!json) return status;
  } else if (err instanceof CliError) {
    name = err.errorName;
    details = err.details;
    status = err.exitCode;
  } else if (e?.name === 'ExitPromptError' || e?.name === 'AbortPromptError') {
    // Ctrl-C in a prompt: stop quietly, as an interrupted program does.
    if (!json) process.stderr.write('\n');
    name = 'Interrupted';
    message = 'Interrupted';
    status = EXIT.interrupted;
    if (!json) return status;
  } else if (e && typeof e.errorName === 'string') {
    name = e.errorName;
    details = e.details ?? {};
  }
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: { name, message, details } })}\n`);
    return status;
  }
  // For people, the API's wording is made actionable (messages.ts); --json keeps it as the API gives it.
  const { forPeople } = await import('./messages.js');
  const list = (details as typeof e.details)?.errors ?? [];
  // The value sent, when there is one error: "title must be a string, not the number 5".
  const given = (p: (typeof list)[number] | undefined) => (p && 'value' in p ? { value: p.value } : undefined);
  const text = forPeople(message, list.length === 1 && list[0].message === message ? given(list[0]) : undefined);
  process.stderr.write(`${red(`${name}:`)} ${text}\n`);
  if (list.length > 1 || (list.length === 1 && forPeople(list[0].message, given(list[0])) !== text))
    for (const p of list)
      process.stderr.write(`  ${p.path.join('.') || '(document)'}: ${forPeople(p.message, given(p))}\n`);
  return status;
}
