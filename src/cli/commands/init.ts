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

export function registerInit(program: Command, globals: () => GlobalOptions) {
  program
    .command('init [dir]')
    .description('create a new Folio project')
    .option('--example <name>', 'start from an example ("blog": the blog model with its documents)')
    .option('--force', 'write into a folder that already holds a project')
    .addHelpText(
      'after',
      `
Examples:
  folio init my-site
  folio init my-site --example blog && cd my-site && folio serve`,
    )
    .action(async (dirArg: string | undefined, o: { example?: string; force?: boolean }) => {
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
        for (const part of ['types', 'components', 'documents', 'folio.json', 'permissions.json']) {
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
      const next = nextSteps(dirArg, o.example);
      printResult(
        opts,
        { root, contentDir: content, example: o.example ?? null, next },
        `Created a Folio project in ${root}${o.example ? ` (example: ${o.example})` : ''}\nNext:\n${next
          .map((n) => `  ${n}\n`)
          .join('')}`,
      );
    });
}
