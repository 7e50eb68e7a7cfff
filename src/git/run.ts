import { spawn } from 'node:child_process';

/** What a git command gave: its exit code and output. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A git command that failed: its arguments and what it said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    const said = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' / ');
    super(`git ${args[0]} failed (exit ${result.code})${said ? `: ${said}` : ''}`);
  }
}

export interface GitOptions {
  /** Standard input (a commit message, a blob's text). */
  input?: string | Buffer;
  /** Variables added to the environment (an author, a temporary index). */
  env?: Record<string, string>;
  /** Ends the command after this long (default 60 s): a hung remote never holds a queue forever. */
  timeoutMs?: number;
}

/** Where git commands go instead of being started here (`git-runner.ts`: a small process of its own). */
let runner: ((cwd: string, args: readonly string[], opts: GitOptions) => Promise<GitResult>) | undefined;

/** Sends every git command to `run` from now on (undefined: starts them in this process again). */
export function routeGit(run: typeof runner) {
  runner = run;
}

/**
 * Runs git with an argument list, never through a shell, so nothing in an argument is read as shell syntax.
 * Prompts are off (a remote asking for a password fails instead of waiting), and git's messages are in
 * English so the callers can read them. Resolves with the exit code; `gitOk` throws on a failure.
 */
export function runGit(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  return runner ? runner(cwd, args, opts) : spawnGit(cwd, args, opts);
}

/** Starts git in this process (what `runGit` does unless its commands are routed to the runner). */
export function spawnGit(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: '',
      SSH_ASKPASS: '',
      LC_ALL: 'C',
      LANGUAGE: 'C',
      ...opts.env,
    };
    // A hook or another git command that runs Folio leaves these set: they would point git elsewhere.
    for (const k of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_PREFIX', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY'])
      if (!opts.env?.[k]) delete env[k];
    let child;
    try {
      child = spawn('git', [...args], { cwd, env, shell: false, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (err) {
      resolve({ code: 127, stdout: '', stderr: (err as Error).message });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: 127, stdout: '', stderr: e.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs git and answers its standard output; throws a GitError when it fails. */
export async function gitOk(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0) throw new GitError(args, r);
  return r.stdout;
}
