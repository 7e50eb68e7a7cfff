import { existsSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { tapFileChanges } from '../store/atomic.js';
import { Repository, type CommitFile } from './repository.js';
import { committingMark } from './serving.js';

/**
 * A CLI command run while a server commits the project's writes (`folio serve --commit`) is committed too,
 * by the CLI process itself: the server commits only what it wrote, and cannot tell an editor's hand edit
 * from a CLI write. The command's writes are followed as this process makes them (every file it writes,
 * moves into place or removes under `content/`), and become one commit when it ends, authored by the
 * checkout's owner (its git identity) and named by the command.
 */

/** Whether a server committing writes runs on this checkout now (its mark names a live process of this host). */
export function serverCommits(root: string): boolean {
  try {
    const mark = JSON.parse(readFileSync(committingMark(root), 'utf8')) as { pid?: unknown; host?: unknown };
    if (mark.host !== hostname() || typeof mark.pid !== 'number') return false;
    process.kill(mark.pid, 0);
    return true;
  } catch (err) {
    // A process of another user is alive too: only "no such process" means the mark is stale.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts following this process's file changes in the project at `root` when a committing server runs there;
 * answers what commits them once the command is done (undefined: nothing to follow).
 */
export function followCliChanges(root: string, command: string): (() => Promise<void>) | undefined {
  const projectRoot = resolve(root);
  if (!serverCommits(projectRoot)) return undefined;
  const content = join(projectRoot, 'content') + sep;
  const changed = new Map<string, string | null | undefined>();
  const stop = tapFileChanges((path, text) => {
    if (path.startsWith(content)) changed.set(path, text);
  });
  return async () => {
    stop();
    if (!changed.size) return;
    const repo = await Repository.open(projectRoot);
    if (!repo) return;
    const files: CommitFile[] = [];
    for (const [file, text] of changed) {
      // A folder removed (a type's documents): each file git has in it.
      if (text === null && !existsSync(file) && !file.endsWith('.json')) {
        const listed = await repo.run(['ls-files', '-z', '--full-name', '--', file]);
        for (const p of listed.stdout.split('\0').filter(Boolean)) files.push({ file: join(repo.top, p), text: null });
      } else if (text !== undefined || !existsSync(file) || statSync(file).isFile()) files.push({ file, text });
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.commitFiles(files, repo.owner, command);
        return;
      } catch (err) {
        if (attempt >= 3) {
          process.stderr.write(`git: the command's changes were not committed: ${(err as Error).message}\n`);
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  };
}

/** A command as its commit names it: `folio docs update article x1vu…`, without option values (data, secrets). */
export function commandLine(argv: string[]): string {
  const words: string[] = [];
  for (let i = 2; i < argv.length && words.length < 6; i++) {
    const a = argv[i];
    if (a.startsWith('-')) {
      if (!a.includes('=') && i + 1 < argv.length && !argv[i + 1].startsWith('-') && a !== '--json') i++;
      continue;
    }
    words.push(a.length > 40 ? `${a.slice(0, 39)}…` : a);
  }
  // eslint-disable-next-line no-control-regex
  return `folio ${words.join(' ')}`.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}
