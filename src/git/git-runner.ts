import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { routeGit, spawnGit, type GitOptions, type GitResult } from './run.js';

/**
 * Sends this process's git commands to the git runner (runner.ts), started now: a server that commits, pushes or
 * pulls starts many git processes, and each start from a process as large as a server stops its event loop for
 * milliseconds. Where the runner cannot be started (no compiled runner beside this module, as under a test
 * runner reading the sources), commands are started here as before.
 */
export function useGitRunner(): void {
  const file = fileURLToPath(new URL('./runner.js', import.meta.url));
  if (!import.meta.url.endsWith('.js')) return;
  let child: ChildProcess | undefined;
  let next = 0;
  const waiting = new Map<number, (r: GitResult) => void>();
  const start = () => {
    const c = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=64'] });
    c.on('message', (m: { id: number; result: GitResult }) => {
      waiting.get(m.id)?.(m.result);
      waiting.delete(m.id);
      if (!waiting.size) hold(c, false);
    });
    // A runner that died answers what it was running as failed; the next command starts a new one.
    c.on('exit', () => {
      if (child === c) child = undefined;
      for (const done of waiting.values()) done({ code: 127, stdout: '', stderr: 'the git runner stopped' });
      waiting.clear();
    });
    hold(c, false);
    return c;
  };
  routeGit((cwd: string, args: readonly string[], opts: GitOptions) => {
    child ??= start();
    if (!child.connected) return spawnGit(cwd, args, opts);
    const id = ++next;
    hold(child, true);
    return new Promise<GitResult>((resolve) => {
      waiting.set(id, resolve);
      child!.send({ id, cwd, args: [...args], opts: { ...opts, input: opts.input?.toString() } });
    });
  });
}

/** Keeps this process alive for the runner while commands wait on it, and only then. */
function hold(child: ChildProcess, waiting: boolean) {
  if (waiting) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}
