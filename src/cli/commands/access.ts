import type { Command } from 'commander';
import { AuthService } from '../../auth/service.js';
import { usersConfig } from '../../auth/config.js';
import { expandAction, isRoleKey, loadPermissions, savePermissions, type TypeRef } from '../../auth/permissions.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable, red } from '../output.js';
import { prompts, type Prompts } from '../prompts.js';
import type { Project } from '../../project.js';

/** Singular and plural names of the project's types, for the `article.find` / `articles:find` shorthands. */
function typeNames(project: Project): Map<string, TypeRef> {
  const names = new Map<string, TypeRef>();
  for (const ct of project.schemas.contentTypes.values()) {
    const ref = { uid: ct.uid, single: ct.kind === 'singleType' };
    names.set(ct.singularName, ref);
    names.set(ct.pluralName, ref);
  }
  return names;
}

const collect = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** `folio permissions`, `folio users`, `folio tokens`: who may do what. */
export function registerAccess(program: Command, globals: () => GlobalOptions) {
  const permissions = program
    .command('permissions')
    .description('roles and the actions they allow (content/permissions.json)');

  permissions
    .command('list')
    .description('list roles and their actions')
    .option('--role <role>', 'only this role')
    .action(async (o: { role?: string }) => {
      const opts = globals();
      const project = await loadProject({ ...opts, quiet: true });
      const file = loadPermissions(project.contentDir);
      const roles = Object.entries(file.roles).filter(([k]) => !o.role || k === o.role);
      if (o.role && !roles.length)
        throw new CliError(`No role "${o.role}" (roles: ${Object.keys(file.roles).join(', ')})`);
      if (opts.json) return printJson(Object.fromEntries(roles));
      for (const [key, role] of roles) {
        process.stdout.write(`${key} (${role.name}): ${role.permissions.length} action(s)\n`);
        for (const p of role.permissions) process.stdout.write(`  ${p}\n`);
      }
    });

  for (const verb of ['grant', 'revoke'] as const) {
    const command = permissions
      .command(`${verb} <actions...>`)
      .description(`${verb} actions ${verb === 'grant' ? 'to' : 'from'} a role`)
      .option('--role <role>', 'role', 'public');
    if (verb === 'grant') command.option('--create-role', 'create the role when it does not exist yet');
    command
      .addHelpText(
        'after',
        `
Actions are Strapi's names or shorthands:
  folio permissions ${verb} article.find article.findOne          (the public role)
  folio permissions ${verb} --role authenticated 'article.*'
  folio permissions ${verb} plugin::upload.content-api.upload --role authenticated`,
      )
      .action(async (actions: string[], o: { role: string; createRole?: boolean }) => {
        const opts = globals();
        const project = await loadProject({ ...opts, quiet: true });
        if (!isRoleKey(o.role))
          throw new CliError(`"${o.role}" is not a role key (lower-case letters, digits, - and _)`);
        const names = typeNames(project);
        let full: string[];
        try {
          full = actions.flatMap((a) => expandAction(a, names));
        } catch (err) {
          throw new CliError((err as Error).message);
        }
        const file = loadPermissions(project.contentDir);
        // A new role is made only when asked for: a typo in --role must not create one.
        const role =
          file.roles[o.role] ??
          (verb === 'grant' && o.createRole
            ? (file.roles[o.role] = { name: o.role, description: '', permissions: [] })
            : undefined);
        if (!role)
          throw new CliError(
            `No role "${o.role}" (roles: ${Object.keys(file.roles).join(', ')})` +
              (verb === 'grant' ? `; pass --create-role to create it` : ''),
          );
        const set = new Set(role.permissions);
        for (const a of full) {
          if (verb === 'grant') set.add(a);
          else set.delete(a);
        }
        role.permissions = [...set];
        await savePermissions(project.contentDir, file);
        printResult(
          opts,
          { role: o.role, [verb === 'grant' ? 'granted' : 'revoked']: full, permissions: role.permissions },
          `${verb === 'grant' ? 'granted' : 'revoked'} ${full.join(', ')} ` +
            `${verb === 'grant' ? 'to' : 'from'} ${o.role}\n`,
        );
      });
  }

  const auth = async () => {
    const opts = globals();
    const project = await loadProject({ ...opts, quiet: true });
    return { opts, project, service: new AuthService(project.root, usersConfig(project.config).auth) };
  };

  const users = program.command('users').description('users of the project (stored hashed in .folio/, out of git)');
  users
    .command('create')
    .description('create a user')
    .requiredOption('--username <name>', 'user name (3 characters or more)')
    .requiredOption('--email <email>', 'e-mail address')
    .option('--password <password>', 'password (6 characters or more; default: read from standard input)')
    .option('--role <role>', 'role', 'authenticated')
    .addHelpText(
      'after',
      `
Example:
  echo 's3cret-pass' | folio users create --username ada --email ada@example.com`,
    )
    .action(async (o: { username: string; email: string; password?: string; role: string }) => {
      const { opts, project, service } = await auth();
      const roles = loadPermissions(project.contentDir).roles;
      if (o.role === 'public' || !roles[o.role]) {
        throw new CliError(
          `No role "${o.role}" a user can have (roles: ${Object.keys(roles)
            .filter((k) => k !== 'public')
            .join(', ')}); add one with "folio permissions grant --role ${o.role} --create-role <actions…>"`,
        );
      }
      let password = o.password;
      const ui = prompts(opts);
      if (password === undefined && ui.interactive) password = await askNewPassword(ui);
      if (password === undefined) {
        if (process.stdin.isTTY)
          throw new CliError('Pass --password, pipe the password on standard input, or run it in a terminal');
        const chunks: Buffer[] = [];
        for await (const c of process.stdin) chunks.push(c as Buffer);
        password = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/\r?\n$/, '');
      }
      // The owner at the terminal vouches for the address (commits show it: docs/git.md).
      const user = await service.createUser({
        username: o.username,
        email: o.email,
        password,
        role: o.role,
        proven: true,
      });
      if (opts.json)
        return printJson({
          id: user.id,
          documentId: user.documentId,
          username: user.username,
          email: user.email,
          role: user.role,
        });
      // With --quiet only the new user's id, as docs create and media add print theirs.
      process.stdout.write(
        opts.quiet ? `${user.id}\n` : `created user ${user.username} (id ${user.id}, role ${user.role})\n`,
      );
    });
  users
    .command('list')
    .description('list users')
    .action(async () => {
      const { opts, service } = await auth();
      const list = service.listUsers().map((u) => ({
        id: u.id,
        username: u.username,
        email: u.email,
        role: u.role,
        blocked: u.blocked,
        createdAt: u.createdAt,
      }));
      if (opts.json) return printJson(list);
      printTable(
        ['id', 'username', 'email', 'role', 'blocked'],
        list.map((u) => [String(u.id), u.username, u.email, u.role, u.blocked ? 'yes' : '']),
      );
    });
  users
    .command('delete <user>')
    .description('delete a user (id, username or e-mail) and end their sessions')
    .action(async (who: string) => {
      const { opts, service } = await auth();
      const gone = service.deleteUser(who);
      if (!gone) throw new CliError(`No user "${who}" (see "folio users list")`);
      printResult(
        opts,
        { deleted: { id: gone.id, username: gone.username, email: gone.email } },
        `deleted user ${gone.username}\n`,
      );
    });

  const tokens = program.command('tokens').description('API tokens (only a salted hash is stored, in .folio/)');
  tokens
    .command('create')
    .description('create an API token and print it once')
    .requiredOption('--name <name>', 'a unique name')
    .option('--type <type>', 'read-only, full-access or custom', 'read-only')
    .option('--actions <actions>', 'for custom tokens: comma-separated actions (shorthands allowed)', collect)
    .option('--lifespan <lifespan>', '7d, 30d, 90d or unlimited', 'unlimited')
    .option('--description <text>', 'what the token is for')
    .addHelpText(
      'after',
      `
Examples:
  folio tokens create --name site-build --type read-only
  folio tokens create --name importer --type custom --actions article.create,article.update --lifespan 30d`,
    )
    .action(async (o: { name: string; type: string; actions?: string[]; lifespan: string; description?: string }) => {
      const { opts, project, service } = await auth();
      const names = typeNames(project);
      let actions: string[] | undefined;
      try {
        actions = o.actions?.flatMap((a) => expandAction(a, names));
      } catch (err) {
        throw new CliError((err as Error).message);
      }
      const { accessKey, record } = service.createToken({
        name: o.name,
        type: o.type as 'read-only',
        actions,
        lifespan: o.lifespan,
        description: o.description,
      });
      if (opts.json)
        return printJson({
          id: record.id,
          name: record.name,
          type: record.type,
          expiresAt: record.expiresAt,
          accessKey,
        });
      process.stdout.write(`${accessKey}\n`);
      if (!opts.quiet)
        process.stderr.write(
          `Token "${record.name}" (${record.type}${record.expiresAt ? `, expires ${record.expiresAt}` : ''}). ` +
            'Copy it now: it is not shown again.\nUse it as: Authorization: Bearer <token>\n',
        );
    });
  tokens
    .command('list')
    .description('list API tokens (never their values)')
    .action(async () => {
      const { opts, service } = await auth();
      const list = service.listTokens().map(({ accessKey: _hash, ...t }) => t);
      if (opts.json) return printJson(list);
      printTable(
        ['id', 'name', 'type', 'expiresAt', 'lastUsedAt'],
        list.map((t) => [String(t.id), t.name, t.type, t.expiresAt ?? 'never', t.lastUsedAt ?? '']),
      );
    });
  tokens
    .command('revoke <token>')
    .description('revoke a token (id or name)')
    .action(async (who: string) => {
      const { opts, service } = await auth();
      const gone = service.revokeToken(who);
      if (!gone) throw new CliError(`No token "${who}" (see "folio tokens list")`);
      printResult(opts, { revoked: { id: gone.id, name: gone.name } }, `revoked token ${gone.name}\n`);
    });
}

/**
 * Asks for a new password, hidden as typed, then again: a typo in a password nobody sees is found only at
 * sign-in. Each answer is checked here, not by the prompt: a rejected one is gone, and the next question
 * starts empty (the prompt's own check keeps the rejected text, and what is typed next is added to it).
 */
async function askNewPassword(ui: Prompts): Promise<string> {
  const say = (message: string) => process.stderr.write(`${red(message)}\n`);
  for (;;) {
    const typed = await ui.ask<string>({ type: 'password', message: 'Password (6 characters or more)', mask: '*' });
    if (typed.length < 6) {
      say('Enter 6 characters or more');
      continue;
    }
    const again = await ui.ask<string>({ type: 'password', message: 'The same password again', mask: '*' });
    if (again === typed) return typed;
    say('Not the same password: enter it again, twice');
  }
}
