import { REMOTE_NAME } from '../config.js';
import type { Rewritten } from '../store/checkout.js';
import type { CommitQueue } from './commit-queue.js';
import type { Repository } from './repository.js';

/** How long commits gather before a push, and how long a failed push waits before the next try. */
const BATCH_MS = 500;
const RETRY_MS = [5000, 15_000, 60_000, 300_000];

/** The branch HEAD is on and a remote of the repository, checked: names git takes as names, never options. */
export async function pushTarget(repo: Repository, remote: string): Promise<{ remote: string; branch: string }> {
  if (!REMOTE_NAME.test(remote)) throw new Error(`"${remote}" is not the name of a git remote`);
  const remotes = (await repo.ok(['remote'])).split('\n').map((r) => r.trim());
  if (!remotes.includes(remote))
    throw new Error(
      `the repository has no remote "${remote}" (it has: ${remotes.filter(Boolean).join(', ') || 'none'})`,
    );
  const head = await repo.run(['symbolic-ref', '-q', '--short', 'HEAD']);
  const branch = head.stdout.trim();
  const valid = branch && (await repo.run(['check-ref-format', '--branch', branch])).code === 0;
  if (head.code !== 0 || !valid) {
    // A rebase left half done (a server stopped in the middle of one, or a person's) leaves HEAD off the branch.
    const busy = repo.busy();
    if (busy) throw new Error(`${busy}: finish it or undo it ("git status" says how), then start the server again`);
    throw new Error('the checkout is not on a branch: check one out to push it');
  }
  return { remote, branch };
}

/**
 * Runs `fn`, which rewrites the checkout and names the files it changed, with no write of the server (or of
 * another process) under way or starting, and readers served the files as they were until it is done and the
 * server serves its result.
 */
export type Rewrite = <T>(fn: () => Promise<Rewritten<T>>) => Promise<T>;

/**
 * `--push <remote>`: the branch is pushed after commits, a batch at a time, never forced. A push the remote
 * refuses because it moved on is fetched and the local commits rebased onto it (document files merged by the
 * merge driver), in the commit queue and as a `Rewrite`, so no write or commit lands in between and no reader
 * sees a tree half rebased; then pushed again. A rebase that stops on a conflict is undone and reported, as is
 * a checkout with changes of its own; failures are retried, reported once each.
 */
export class Pusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private lastReport = '';
  private stopped = false;

  constructor(
    private readonly repo: Repository,
    private readonly target: { remote: string; branch: string },
    private readonly queue: CommitQueue,
    private readonly rewrite: Rewrite,
    private readonly log: (message: string) => void,
  ) {}

  /** A push soon, with the commits made until then. */
  schedule(delay = BATCH_MS) {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, delay);
    this.timer.unref();
  }

  private start() {
    this.running = this.run().then((retryIn) => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.schedule();
      } else if (retryIn !== undefined) this.schedule(retryIn);
    });
  }

  /** Resolves once no push is waiting or running. */
  async idle(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.failures) this.start();
    }
    while (this.running) await this.running;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Pushes; answers when to try again after a failure. */
  private async run(): Promise<number | undefined> {
    const { remote, branch } = this.target;
    const refspec = `HEAD:refs/heads/${branch}`;
    let pushed = await this.repo.run(['push', '--porcelain', '--', remote, refspec]);
    if (pushed.code !== 0 && rejected(pushed.stdout + pushed.stderr)) {
      // Fetched first, while writes go on: only the rebase stops them.
      const tracking = `refs/remotes/${remote}/${branch}`;
      const fetched = await this.repo.run(['fetch', '--quiet', '--', remote, `+refs/heads/${branch}:${tracking}`]);
      if (fetched.code !== 0) return this.failed(`git fetch ${remote} failed: ${fetched.stderr.trim()}`, true);
      const why = await this.queue.exclusive(() => this.rewrite(() => this.rebase(tracking)));
      if (why) return this.failed(why, false);
      pushed = await this.repo.run(['push', '--porcelain', '--', remote, refspec]);
    }
    if (pushed.code !== 0) {
      const said = (pushed.stderr || pushed.stdout).trim().split('\n').slice(-2).join(' / ');
      return this.failed(`git push ${remote} failed: ${said}`, true);
    }
    if (this.failures) this.log(`git: pushed to ${remote}/${branch} again`);
    this.failures = 0;
    this.lastReport = '';
    return undefined;
  }

  /**
   * Rebases the local commits onto the remote's branch as fetched (`tracking`); answers why it could not, and the
   * files the checkout holds changed since (the rebased ones; none when the rebase was undone).
   */
  private async rebase(tracking: string): Promise<Rewritten<string | undefined>> {
    const before = await this.repo.head();
    const why = await this.rebaseOnto(tracking);
    return { value: why, files: before ? await this.repo.changedSince(before) : [] };
  }

  private async rebaseOnto(tracking: string): Promise<string | undefined> {
    const { remote, branch } = this.target;
    const env = {
      GIT_COMMITTER_NAME: this.repo.owner.name,
      GIT_COMMITTER_EMAIL: this.repo.owner.email,
    };
    const r = await this.repo.run(['rebase', '--quiet', '--no-autostash', tracking], { env });
    if (r.code === 0) return undefined;
    const conflicts = (await this.repo.run(['diff', '--name-only', '--diff-filter=U'])).stdout.trim().split('\n');
    const aborted = this.repo.busy() ? await this.repo.run(['rebase', '--abort']) : undefined;
    if (aborted && aborted.code !== 0)
      return (
        `the push to ${remote} was refused (the remote has new commits), rebasing onto ${remote}/${branch} ` +
        `stopped, and "git rebase --abort" failed (${(aborted.stderr || aborted.stdout).trim()}): the checkout is ` +
        `in the middle of a rebase; finish it ("git status") and the server pushes again`
      );
    const said = (r.stderr || r.stdout).trim();
    if (/unstaged changes|uncommitted changes|would be overwritten/i.test(said))
      return (
        `the push to ${remote} was refused (the remote has new commits) and the checkout has changes that are ` +
        `not committed, so it cannot take them: commit or discard them ("git status" lists them)`
      );
    return (
      `the push to ${remote} was refused (the remote has new commits) and rebasing onto ${remote}/${branch} ` +
      `stopped on a conflict${conflicts[0] ? ` in ${conflicts.filter(Boolean).join(', ')}` : ''}; the local commits ` +
      `are kept: run "git pull --rebase ${remote} ${branch}", resolve, and the server pushes again`
    );
  }

  private failed(why: string, retry: boolean): number {
    const wait = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
    if (why !== this.lastReport) this.log(`git: ${why}${retry ? `; tried again in ${wait / 1000} s` : ''}`);
    this.lastReport = why;
    // A conflict needs a person: tried again less often, in case they resolved it.
    return retry ? wait : Math.max(wait, 60_000);
  }
}

/** Whether a push was refused because the remote has commits the local branch lacks. */
const rejected = (text: string) => /\[rejected\]|\(fetch first\)|non-fast-forward/.test(text);
