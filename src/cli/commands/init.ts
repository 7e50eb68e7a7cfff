import type { Command } from 'commander';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from '../../store/serialize.js';
import { defaultPermissions } from '../../auth/permissions.js';
import { DEFAULT_CONFIG } from '../../config.js';
import { CliError, printResult } from '../output.js';
import type { GlobalOptions } from '../context.js';

/** The package's own example project (content/ next to dist/ in this package). */
const PACKAGE_ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');

const GITIGNORE = `# Folio local state: users, hashed API tokens, signing secrets. Never commit it.
.folio/
node_modules/
# What "folio export" writes by default: built output, made again from content/.
export/
`;

/** What to run after `init`: model a first type (or serve the example), then serve it. */
function nextSteps(dirArg: string | undefined, example: string | undefined): string[] {
  const cd = dirArg ? [`cd ${dirArg}`] : [];
  if (example) return [...cd, 'folio serve', 'folio types list'];
  return [
    ...cd,
    'folio types create                 (asks for the name, kind and fields on a terminal)',
    'folio types add-field <type> <field> --type string',
    'folio serve',
  ];
}

/**
 * The project in git: a repository initialised when the folder is in none, and the merge driver of document
 * files set up in it. Null when git cannot be run (the project is made all the same).
 */
async function initGit(root: string): Promise<{ initialised: boolean; repository: string } | { error: string }> {
  const { gitTopLevel, setupGit } = await import('../../git/setup.js');
  const { runGit } = await import('../../git/run.js');
  let initialised = false;
  if (!(await gitTopLevel(root))) {
    const r = await runGit(root, ['init', '--quiet']);
    if (r.code !== 0) return { error: `git init failed: ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}` };
    initialised = true;
  }
  try {
    return { initialised, repository: (await setupGit(root)).repository };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function gitLine(git: Awaited<ReturnType<typeof initGit>> | null): string {
  if (!git) return '';
  if ('error' in git) return `Not set up in git (${git.error}); run "folio git setup" once it is in a repository\n`;
  const made = git.initialised ? 'Initialised a git repository; ' : '';
  return `${made}git merges its document files per field (the merge driver, "folio git setup")\n`;
}

export function registerInit(program: Command, globals: () => GlobalOptions) {
  program
    .command('init [dir]')
    .description('create a new Folio project')
    .option('--example <name>', 'start from an example ("blog": the blog model with its documents)')
    .option('--force', 'write into a folder that already holds a project')
    .option('--no-git', 'do not initialise a git repository or set up the merge driver')
    .addHelpText(
      'after',
      `
Examples:
  folio init my-site
  folio init my-site --example blog && cd my-site && folio serve`,
    )
    .action(async (dirArg: string | undefined, o: { example?: string; force?: boolean; git?: boolean }) => {
      const opts = globals();
      const root = resolve(dirArg ?? opts.dir ?? '.');
      const content = join(root, 'content');
      if (existsSync(content) && readdirSync(content).length && !o.force) {
        throw new CliError(`${content} already exists. Pass --force to write into it anyway.`);
      }
      if (o.example !== undefined && o.example !== 'blog')
        throw new CliError(`Unknown example "${o.example}" (available: blog)`);
      mkdirSync(join(content, 'types'), { recursive: true });
      mkdirSync(join(content, 'components'), { recursive: true });
      if (o.example === 'blog') {
        const source = join(PACKAGE_ROOT, 'content');
        for (const part of ['types', 'components', 'documents', 'uploads', 'folio.json', 'permissions.json']) {
          if (existsSync(join(source, part))) cpSync(join(source, part), join(content, part), { recursive: true });
        }
      } else {
        const { locales, defaultLocale, rest, server } = DEFAULT_CONFIG;
        writeFileSync(
          join(content, 'folio.json'),
          serialize({ locales, defaultLocale, rest, server: { host: server.host, port: server.port } }),
        );
        writeFileSync(join(content, 'permissions.json'), serialize(defaultPermissions()));
      }
      const gitignore = join(root, '.gitignore');
      if (!existsSync(gitignore)) writeFileSync(gitignore, GITIGNORE);
      const git = o.git === false ? null : await initGit(root);
      const next = nextSteps(dirArg, o.example);
      printResult(
        opts,
        { root, contentDir: content, example: o.example ?? null, git, next },
        `Created a Folio project in ${root}${o.example ? ` (example: ${o.example})` : ''}\n${gitLine(git)}Next:\n${next
          .map((n) => `  ${n}\n`)
          .join('')}`,
      );
    });
}
