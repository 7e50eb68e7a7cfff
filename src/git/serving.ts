import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ServedProject } from '../http-kit/served-project.js';
import { CommitQueue } from './commit-queue.js';
import { Follower } from './pull.js';
import { Pusher, type Rewrite, pushTarget } from './push.js';
import { Repository } from './repository.js';
import { useGitRunner } from './git-runner.js';

/** What `folio serve` does with git: commit its writes, push them, or follow a remote (a replica). */
export interface GitServeOptions {
  commit: boolean;
  /** The remote to push to (implies `commit`). */
  push: string | null;
  /** Pull every this many ms (read-only replicas only). */
  pull: number | null;
  readOnly: boolean;
  log: (message: string) => void;
}

/** The git work of a running server, and how to end it. */
export interface GitServing {
  queue?: CommitQueue;
  pusher?: Pusher;
  follower?: Follower;
  /** Waits (a few seconds at most) for commits and pushes in progress, then stops. */
  close(): Promise<void>;
}

/** While a server commits its writes, this file says so (its pid and host): CLI writes are then committed too. */
export const committingMark = (root: string) => join(root, '.folio', 'git', 'committing.json');

/** How often a committing server looks for commits to push that it did not make (the CLI's). */
const PUSH_CHECK_MS = 10_000;

/**
 * Starts the git work `opts` asks for on the project's repository; throws a sentence saying why it cannot
 * (no repository, an unknown remote, a replica with changes of its own, options that do not go together).
 */
export async function startGit(project: ServedProject, opts: GitServeOptions): Promise<GitServing> {
  const commit = opts.commit || opts.push !== null;
  if (!commit && opts.pull === null) return { close: async () => undefined };
  if (opts.pull !== null && !opts.readOnly)
    throw new Error('--pull is for read-only replicas, which follow a remote: add --read-only');
  if (opts.pull !== null && commit) throw new Error('a replica (--pull) makes no commits: drop --commit and --push');
  if (commit && opts.readOnly) throw new Error('a read-only server makes no writes to commit: drop --read-only');
  useGitRunner();
  const repo = await Repository.open(project.root);
  if (!repo) throw new Error(`${project.root} is not in a git repository ("git init", or "folio init")`);
  if (opts.pull !== null) {
    const follower = await Follower.start(repo, opts.pull, rewriteOf(project), opts.log);
    return { follower, close: async () => follower.stop() };
  }
  const target = opts.push === null ? undefined : await pushTarget(repo, opts.push);
  let pusher: Pusher | undefined;
  const queue = new CommitQueue(repo, opts.log, () => pusher?.schedule());
  if (target) {
    pusher = new Pusher(repo, target, queue, rewriteOf(project), opts.log);
    pusher.schedule();
  }
  const tracking = target && `refs/remotes/${target.remote}/${target.branch}`;
  const check = tracking
    ? setInterval(async () => {
        const [head, pushed] = await Promise.all([repo.head(), repo.run(['rev-parse', '-q', '--verify', tracking])]);
        if (head && head !== pushed.stdout.trim()) pusher?.schedule();
      }, PUSH_CHECK_MS).unref()
    : undefined;
  const off = project.events.onWrite((record) => queue.add(record));
  const mark = committingMark(project.root);
  mkdirSync(join(mark, '..'), { recursive: true });
  writeFileSync(mark, `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
  return {
    queue,
    pusher,
    async close() {
      off();
      if (check) clearInterval(check);
      rmSync(mark, { force: true });
      const left = await queue.drain(5000);
      queue.stop();
      if (left) opts.log(`git: ${left} write(s) left uncommitted (their files are written)`);
      await Promise.race([pusher?.idle(), new Promise((r) => setTimeout(r, 5000).unref())]);
      pusher?.stop();
    },
  };
}

/**
 * A rewrite of the project's checkout by the server's git commands: the watcher holds back what it sees (outermost,
 * so it takes the result once the writes may go on again), and no write of documents or media runs meanwhile.
 */
function rewriteOf(project: ServedProject): Rewrite {
  return (fn) =>
    project.checkout.rewrite(() => {
      const { store, media } = project.documents;
      const withoutMedia = () => (media.alone ? media.alone(fn) : fn());
      return store.alone ? store.alone(withoutMedia) : withoutMedia();
    });
}
