import { REMOTE_NAME } from '../config.js';
import type { Rewrite } from './push.js';
import type { Repository } from './repository.js';

/** What one pull did: the commit before and after (the same when the remote had nothing new). */
export interface PullResult {
  before: string | undefined;
  after: string | undefined;
  updated: boolean;
}

/**
 * `folio serve --read-only --pull <interval>`: a replica that follows its branch's remote. Every interval (and
 * when asked, by `POST /_folio/git/pull`) it fetches and fast-forwards the checkout; the server's watcher then
 * serves the new files as it serves any change on disk. Never merges: a branch that cannot be fast-forwarded
 * (the remote was rewritten, or the checkout has commits of its own) is reported and left as it is. Pulls
 * asked for while one runs share it.
 */
export class Follower {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PullResult> | undefined;
  private lastReport = '';

  private constructor(
    private readonly repo: Repository,
    readonly remote: string,
    private readonly rewrite: Rewrite,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Checks the checkout can follow (no changes of its own, a branch with a remote to follow) and starts
   * pulling every `intervalMs`; throws a sentence saying what is wrong otherwise.
   */
  static async start(repo: Repository, intervalMs: number, rewrite: Rewrite, log: (m: string) => void) {
    // Files git does not track (local state a .gitignore may not list) are no change of the replica's.
    const status = await repo.ok(['status', '--porcelain', '--untracked-files=no']);
    const changed = status.split('\n').filter(Boolean);
    if (changed.length)
      throw new Error(
        `the checkout has local changes (${changed
          .slice(0, 3)
          .map((l) => l.slice(3))
          .join(', ')}` +
          `${changed.length > 3 ? `, and ${changed.length - 3} more` : ''}): a replica follows its remote and ` +
          'holds no changes of its own; commit, stash or discard them first',
      );
    const branch = (await repo.run(['symbolic-ref', '-q', '--short', 'HEAD'])).stdout.trim();
    if (!branch) throw new Error('the checkout is not on a branch: check out the branch the replica follows');
    const remote = (await repo.run(['config', '--get', `branch.${branch}.remote`])).stdout.trim();
    const merge = (await repo.run(['config', '--get', `branch.${branch}.merge`])).stdout.trim();
    if (!remote || !merge || !REMOTE_NAME.test(remote))
      throw new Error(
        `the branch "${branch}" follows no remote branch: set one with "git branch --set-upstream-to origin/${branch}"`,
      );
    const follower = new Follower(repo, remote, rewrite, log);
    const tick = () => {
      follower.timer = setTimeout(() => void follower.pull().finally(tick), intervalMs);
      follower.timer.unref();
    };
    tick();
    return follower;
  }

  /** Fetches and fast-forwards now (or joins the pull in progress). */
  pull(): Promise<PullResult> {
    this.running ??= this.pullOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async pullOnce(): Promise<PullResult> {
    const before = await this.repo.head();
    const fetched = await this.repo.run(['fetch', '--quiet', '--', this.remote]);
    if (fetched.code !== 0) return this.failed(`git fetch ${this.remote} failed: ${fetched.stderr.trim()}`, before);
    // As a rewrite: the answer to a pull asked for (a push hook) comes once the server serves the new commit.
    const merged = await this.rewrite(async () => {
      const r = await this.repo.run(['merge', '--ff-only', '--quiet', '@{upstream}']);
      return { value: r, files: before ? await this.repo.changedSince(before) : [] };
    });
    if (merged.code !== 0)
      return this.failed(
        `cannot fast-forward to ${this.remote}'s branch (${(merged.stderr || merged.stdout).trim()}); ` +
          'the replica keeps serving its commit',
        before,
      );
    const after = await this.repo.head();
    if (this.lastReport) this.log(`git: following ${this.remote} again`);
    this.lastReport = '';
    if (after !== before) this.log(`git: pulled ${after?.slice(0, 12)} from ${this.remote}`);
    return { before, after, updated: after !== before };
  }

  private failed(why: string, head: string | undefined): never {
    if (why !== this.lastReport) this.log(`git: ${why}`);
    this.lastReport = why;
    throw Object.assign(new Error(why), { head });
  }
}
