import { existsSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
import { type Identity, identityEnv, ownerIdentity } from './identity.js';
import { GitError, type GitOptions, type GitResult, gitOk, runGit } from './run.js';

/** A file of a commit: its text (`null`: removed; undefined: its bytes on disk now, a media file). */
export interface CommitFile {
  file: string;
  text?: string | null;
}

const ZERO = '0'.repeat(40);

/**
 * The git repository a project is in: its work tree and git folder, and the checkout owner's identity.
 * Commits are made with git's plumbing against a temporary index, so they hold exactly the files given, with
 * exactly the texts given, whatever else is changed or staged in the checkout; the branch moves only if
 * nobody moved it meanwhile (`update-ref` with the old value), else the commit is made again on top.
 */
export class Repository {
  private constructor(
    readonly top: string,
    readonly gitDir: string,
    readonly owner: Identity,
  ) {}

  /** The repository `dir` is in; undefined when it is in none (or git cannot run). */
  static async open(dir: string): Promise<Repository | undefined> {
    const r = await runGit(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir']);
    if (r.code !== 0) return undefined;
    const [top, gitDir] = r.stdout.trim().split('\n');
    if (!top || !gitDir) return undefined;
    return new Repository(top, gitDir, await ownerIdentity(top));
  }

  run(args: readonly string[], opts?: GitOptions): Promise<GitResult> {
    return runGit(this.top, args, opts);
  }

  ok(args: readonly string[], opts?: GitOptions): Promise<string> {
    return gitOk(this.top, args, opts);
  }

  /** A file's path in the repository (`content/documents/…`, with `/`); undefined when it is outside it. */
  pathOf(file: string): string | undefined {
    const rel = relative(this.top, file);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
    return rel.split(sep).join('/');
  }

  /** Why commits must wait now (git is in the middle of a merge or a rebase), or undefined. */
  busy(): string | undefined {
    if (existsSync(join(this.gitDir, 'MERGE_HEAD'))) return 'a merge is in progress in the checkout';
    for (const d of ['rebase-merge', 'rebase-apply'])
      if (existsSync(join(this.gitDir, d))) return 'a rebase is in progress in the checkout';
    return undefined;
  }

  /** The files of the work tree that differ from `commit` (absolute paths): what a rewrite since it changed. */
  async changedSince(commit: string): Promise<string[]> {
    const r = await this.run(['diff', '--name-only', '--no-renames', '-z', commit, '--']);
    return r.stdout
      .split('\0')
      .filter(Boolean)
      .map((p) => join(this.top, p));
  }

  /** The commit HEAD is at, undefined on a branch with no commit yet. */
  async head(): Promise<string | undefined> {
    const r = await this.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
    return r.code === 0 ? r.stdout.trim() : undefined;
  }

  /**
   * Commits `files` on top of HEAD as one commit by `author` (committed by the owner); answers the commit,
   * or undefined when the files already are as HEAD has them. The checkout's index is then told of the new
   * contents of these paths, so `git status` shows no change of them.
   */
  async commitFiles(files: CommitFile[], author: Identity, message: string): Promise<string | undefined> {
    const why = this.busy();
    if (why) throw new Error(`${why}: commits wait until it is done`);
    const entries: string[] = [];
    for (const f of files) {
      const path = this.pathOf(f.file);
      if (path === undefined) continue;
      let sha: string | undefined;
      if (typeof f.text === 'string')
        sha = (await this.ok(['hash-object', '-w', '--stdin', `--path=${path}`], { input: f.text })).trim();
      else if (f.text === undefined && existsSync(f.file))
        sha = (await this.ok(['hash-object', '-w', '--', f.file])).trim();
      entries.push(sha ? `100644 ${sha}\t${path}` : `0 ${ZERO}\t${path}`);
    }
    if (!entries.length) return undefined;
    const info = `${entries.join('\0')}\0`;
    const env = identityEnv(author, this.owner);
    for (let attempt = 1; ; attempt++) {
      const head = await this.head();
      const index = join(this.gitDir, `folio-index-${process.pid}-${randomBytes(4).toString('hex')}`);
      try {
        const opts = { env: { GIT_INDEX_FILE: index } };
        await this.ok(head ? ['read-tree', head] : ['read-tree', '--empty'], opts);
        await this.ok(['update-index', '-z', '--index-info'], { ...opts, input: info });
        const tree = (await this.ok(['write-tree'], opts)).trim();
        if (head && (await this.ok(['rev-parse', `${head}^{tree}`])).trim() === tree) return undefined;
        const commit = (
          await this.ok(['commit-tree', tree, ...(head ? ['-p', head] : []), '-F', '-'], { env, input: `${message}\n` })
        ).trim();
        const moved = await this.run(['update-ref', '-m', `folio: ${message}`, 'HEAD', commit, head ?? ZERO]);
        if (moved.code !== 0) {
          // Someone moved the branch meanwhile: the commit is made again on top of it.
          if (attempt < 5 && (await this.head()) !== head) continue;
          throw new GitError(['update-ref'], moved);
        }
        await this.updateIndex(info);
        return commit;
      } finally {
        for (const f of [index, `${index}.lock`]) if (existsSync(f)) unlinkSync(f);
      }
    }
  }

  /** Sets the checkout's index entries of the committed paths (it may be locked a moment by another git). */
  private async updateIndex(info: string) {
    for (let attempt = 1; ; attempt++) {
      const r = await this.run(['update-index', '-z', '--index-info'], { input: info });
      if (r.code === 0 || attempt >= 5) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
