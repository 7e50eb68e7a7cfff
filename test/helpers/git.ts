import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openProject, type Project } from '../../src/project.js';
import { makeProject } from './project.js';
import { spawnFolio } from './cli.js';

const run = promisify(execFile);

/** Runs git in `cwd` as a user would; resolves with its trimmed output, rejects when it fails. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: { ...process.env, LC_ALL: 'C' } });
  return stdout.trim();
}

/** Runs git and answers its exit code and output, without rejecting on a failure (a merge that conflicts). */
export function gitStatus(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return gitWith({}, cwd, ...args);
}

/** `gitStatus` with variables added to the environment. */
export function gitWith(
  env: Record<string, string>,
  cwd: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('git', args, { cwd, env: { ...process.env, LC_ALL: 'C', ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

/**
 * A project (the blog fixture, en and fr) in a git repository on `main`, with an identity for commits, the
 * merge driver set up by `folio git setup` (the built CLI), and everything committed.
 */
export async function makeGitProject(opts: { driver?: boolean } = {}) {
  const p = makeProject();
  writeFileSync(join(p.dir, '.gitignore'), '.folio/\n');
  await git(p.dir, 'init', '-q', '-b', 'main');
  await git(p.dir, 'config', 'user.name', 'Test Owner');
  await git(p.dir, 'config', 'user.email', 'owner@example.com');
  if (opts.driver !== false) {
    const setup = await spawnFolio(['git', 'setup', '--dir', p.dir]);
    if (setup.code !== 0) throw new Error(`folio git setup failed: ${setup.stderr}`);
  }
  await git(p.dir, 'add', '-A');
  await git(p.dir, 'commit', '-q', '-m', 'model');
  return {
    ...p,
    git: (...args: string[]) => git(p.dir, ...args),
    /** Opens the project (as it is on disk now) and runs `fn` with it. */
    async edit<T>(fn: (project: Project) => Promise<T>): Promise<T> {
      return fn(await openProject(p.dir));
    },
    /** Checks out a new branch from `from`, runs `fn` on the project there and commits all of it. */
    async branch(name: string, from: string, fn: (project: Project) => Promise<unknown>) {
      await git(p.dir, 'checkout', '-q', '-b', name, from);
      await fn(await openProject(p.dir));
      await git(p.dir, 'add', '-A');
      await git(p.dir, 'commit', '-q', '-m', name);
    },
  };
}
