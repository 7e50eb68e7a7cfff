import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Command } from 'commander';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, dim } from '../output.js';
import { printReady } from '../banner.js';
import { listenFailure } from '../listen-errors.js';
import type { Project } from '../../project.js';

interface ServeOptions extends GlobalOptions {
  port?: string;
  host?: string;
  watch?: boolean;
  snapshot?: boolean;
  readOnly?: boolean;
  verbose?: boolean;
  studioAs?: string;
  ownerLink?: boolean;
  commit?: boolean;
  push?: string;
  pull?: string;
}

/** How long the server must have been without requests before the start-up warm-up goes on (see below). */
const QUIET_MS = 50;

export function registerServe(program: Command, globals: () => GlobalOptions) {
  program
    .command('serve')
    .description("serve the Strapi v5 REST API over the project's content")
    .option('-p, --port <port>', 'port (default 1337, or server.port in folio.json)')
    .option('-H, --host <host>', 'host to bind (default localhost)')
    .option('--no-watch', 'do not reload when files under content/ change')
    .option(
      '--no-snapshot',
      'read every document file at start (ignore and do not write .folio/cache/documents.snapshot)',
    )
    .option('--read-only', 'refuse every write (403): for replicas serving one commit')
    .option('--commit', 'commit each write to git, authored by its caller (git.commit in folio.json)')
    .option('--push <remote>', 'push the commits to this git remote, batched, never forced (git.push)')
    .option('--pull <interval>', "with --read-only: follow the branch's remote, pulling every 30s, 5m… (git.pull)")
    .option('--verbose', 'log every request with its status and timing')
    .option('--studio-as <user>', 'print a one-time Folio Studio sign-in link for this user (username or e-mail)')
    .option('--owner-link', "print the owner's one-click Studio link even when listening beyond this machine")
    .option('--no-owner-link', "print no owner link, and refuse the owner's sessions (default: on loopback only)")
    .addHelpText(
      'after',
      `
Examples:
  folio serve
  folio serve --port 4000 --dir ./my-site
  folio serve --commit --push origin          the editors' server: each save a commit, pushed
  folio serve --read-only --pull 30s          a replica following the remote
  curl http://localhost:1337/api/articles`,
    )
    .action(async (o: ServeOptions) => {
      const opts = { ...globals(), ...o };
      // Started before loading: the modules compile while the load waits on file stats.
      const modules = Promise.all([import('../../http/server.js'), import('../../http/compose.js')]);
      modules.catch(() => undefined);
      const project = await loadProject(opts, {
        useSnapshot: opts.snapshot !== false,
        capture: opts.snapshot !== false,
      });
      const port = opts.port !== undefined ? Number(opts.port) : project.config.server.port;
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CliError(`--port must be a number from 0 to 65535`);
      const host = opts.host ?? project.config.server.host;
      const [{ startServer }, { serverOptions }] = await modules;
      const log = (m: string) => process.stderr.write(`${m}\n`);
      keepServing(log);
      const git = await startGitWork(project, opts, log);
      const options = await serverOptions(project, { log, git });
      // The user a Studio sign-in link is for, checked before the server starts.
      let studio;
      if (opts.studioAs) {
        const link = await import('../../studio/sign-in-link.js');
        const { AuthService } = await import('../../auth/service.js');
        try {
          studio = { link, user: link.studioUser(new AuthService(project.root), opts.studioAs) };
        } catch (err) {
          throw new CliError(`--studio-as: ${(err as Error).message}`);
        }
      }
      // Requests being answered, and when one last started or ended: the warm-up below gives way to them.
      let inFlight = 0;
      let lastSeen = performance.now();
      const count = (_req: IncomingMessage, res: ServerResponse) => {
        inFlight++;
        lastSeen = performance.now();
        res.once('close', () => {
          inFlight--;
          lastSeen = performance.now();
        });
      };
      let listener: Awaited<ReturnType<typeof startServer>>;
      try {
        listener = await startServer(project, {
          ...options,
          readOnly: opts.readOnly,
          verbose: opts.verbose,
          log,
          port,
          host,
          onRequest: count,
        });
      } catch (err) {
        const sources = { port, host, portFlag: opts.port !== undefined, hostFlag: opts.host !== undefined };
        throw listenFailure(err, sources) ?? err;
      }
      const { WebhookDispatcher } = await import('../../webhooks/webhooks.js');
      const { LocalMediaLibrary } = await import('../../upload/library.js');
      const webhooks = new WebhookDispatcher(project, log);
      const media = project.documents.media;
      webhooks.start(media instanceof LocalMediaLibrary ? media : undefined);
      let watcher: { close(): Promise<void> } | undefined;
      let stopping = false;
      const shutdown = async (signal: string) => {
        if (stopping) process.exit(1);
        stopping = true;
        if (!opts.quiet) process.stderr.write(`${signal}: finishing in-flight writes…\n`);
        await watcher?.close();
        await listener.shutdown(2000);
        await project.documents.idle();
        await git.close();
        await Promise.race([webhooks.idle(), new Promise((r) => setTimeout(r, 5000))]);
        process.exit(0);
      };
      // `on`, not `once`: a repeat of the same signal while draining must reach shutdown (exit 1), not Node's default.
      process.on('SIGINT', () => void shutdown('SIGINT'));
      process.on('SIGTERM', () => void shutdown('SIGTERM'));
      const base = `http://${host === '0.0.0.0' ? 'localhost' : host}:${listener.port}`;
      const { prepareOwnerLinks } = await import('../../studio/owner-link.js');
      const ownerLines = await prepareOwnerLinks({
        auth: options.access.auth,
        root: project.root,
        address: listener.server.address(),
        base,
        flag: opts.ownerLink,
        trustProxy: project.config.server.trustProxy,
        json: opts.json === true,
        write: (text) => process.stdout.write(text),
      });
      // Documents found invalid once decoded after start (see DocumentService.load) are reported as they are.
      const reportLate = () => {
        project.documents.onProblem = (p) => process.stderr.write(`${p.file}: ${p.message}; not served\n`);
      };
      reportLate();
      // The address is taken once: a later change of server.port or server.host in folio.json waits for a restart.
      let bound = { port: project.config.server.port, host: project.config.server.host };
      // Followed before the ready line, so a file changed right after it is seen. Adding a watch to a folder
      // makes the kernel go over every entry it has cached (tens of milliseconds at a million files).
      if (opts.watch !== false) {
        const { watchProject } = await import('../../watch/watcher.js');
        const { relative } = await import('node:path');
        const rel = (f: string) => relative(project.root, f) || f;
        const following = await watchProject(project, {
          onChange: (c) => {
            if (c.problem) process.stderr.write(`${rel(c.file)}: ${c.problem}\n`);
            else if (!opts.quiet && !opts.json) process.stdout.write(dim(`${c.what}: ${rel(c.file)}\n`));
          },
          onPermissions: () => {
            try {
              options.access.reload();
              if (!opts.quiet && !opts.json) process.stdout.write('reloaded permissions\n');
            } catch (err) {
              process.stderr.write(`${(err as Error).message}; keeping the previous permissions\n`);
            }
          },
          onReload: (r) => {
            reportLate();
            bound = restartNeeded(bound, project.config.server, base);
            if (!opts.quiet && !opts.json)
              process.stdout.write(`reloaded schemas: ${r.documents} documents, ${r.problems} problem(s)\n`);
          },
        });
        watcher = following;
        await following.ready;
      }
      await printReady(project, base, opts, ownerLines);
      // Said once, after the start: a clone whose merge driver is not set up merges document files by lines.
      void import('../../git/setup.js')
        .then((git) => git.driverProblem(project.root))
        .then((problem) => problem && !opts.quiet && log(`note: ${problem}`))
        .catch(() => undefined);
      if (studio && !opts.json) {
        const code = studio.link.signInCodes(project.root).issue(studio.user.id);
        const minutes = studio.link.SIGN_IN_TTL_MS / 60000;
        process.stdout.write(
          `  ${base}/admin/#sign-in=${code}  (signs ${studio.user.username} in once, within ${minutes} minutes)\n`,
        );
      }
      // After the first answer is possible: decode what is still waiting, then record a new snapshot. It
      // runs while no request is being answered and none came in the last QUIET_MS: its slices, and the
      // garbage collection its decoding brings, would otherwise delay the first requests after start.
      lastSeen = performance.now();
      void (async () => {
        const after = project.afterStart;
        await after.warm(() => inFlight > 0 || performance.now() - lastSeen < QUIET_MS);
        // Unique values read now, from documents decoded already: a first write need not read them.
        await project.documents.unique.readyAll(project.schemas.contentTypes.values());
        if (after.snapshotPending) await after.writeSnapshot();
      })().catch((err: Error) => process.stderr.write(`start-up snapshot not written: ${err.message}\n`));
    });
}

/** The git work the options and folio.json's `git` ask for (the options win), started before the server. */
async function startGitWork(project: Project, opts: ServeOptions, log: (m: string) => void) {
  const cfg = project.config.git;
  let pull = cfg.pull;
  if (opts.pull !== undefined) {
    const { parseInterval } = await import('../../config.js');
    const ms = parseInterval(opts.pull);
    if (ms === undefined) throw new CliError('--pull must be an interval of at least 1 s: 30s, 5m, 1h or seconds');
    pull = ms;
  }
  // A replica's pulls reach its answers through the watcher.
  if (pull !== null && opts.watch === false) throw new CliError('--pull needs the watcher: drop --no-watch');
  const push = opts.push ?? cfg.push;
  // So do the remote's changes a push rebases onto.
  if (push !== null && opts.watch === false) throw new CliError('--push needs the watcher: drop --no-watch');
  const { startGit } = await import('../../git/serving.js');
  try {
    return await startGit(project, {
      commit: opts.commit === true || cfg.commit,
      push,
      pull,
      readOnly: opts.readOnly === true,
      log,
    });
  } catch (err) {
    throw new CliError(`git: ${(err as Error).message}`);
  }
}

/** Logs a change of the settings a running server cannot apply (its address); answers them as now read. */
function restartNeeded(before: { port: number; host: string }, now: { port: number; host: string }, base: string) {
  for (const key of ['port', 'host'] as const)
    if (before[key] !== now[key])
      process.stderr.write(
        `content/folio.json: server.${key} is now ${JSON.stringify(now[key])}; restart "folio serve" to use it ` +
          `(still serving at ${base})\n`,
      );
  return { port: now.port, host: now.host };
}

/**
 * The last line of defence of a running server: an error no request, stream or watcher handler caught is
 * logged and the server goes on answering. Each place that can fail answers for itself first (a 500 in
 * Strapi's envelope, a logged problem); this only keeps a missed one from ending every client's service.
 */
function keepServing(log: (message: string) => void) {
  const report = (err: unknown) => {
    try {
      log(`internal error (the server goes on): ${(err as Error)?.stack ?? String(err)}`);
    } catch {
      // stderr itself failed (a closed pipe): there is nowhere left to report it.
    }
  };
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);
  // A closed terminal or pipe (`folio serve | head`) fails the log writes, not the server: the CLI's own
  // handler ends the process on EPIPE, which suits a listing, not a server.
  process.stdout.removeAllListeners('error');
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
}
