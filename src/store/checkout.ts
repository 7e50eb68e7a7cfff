/** What a rewrite of the checkout answers: its result, and the files it changed (absolute paths). */
export interface Rewritten<T> {
  value: T;
  files: string[];
}

/** Something that follows the project's files as they change (the server's watcher). */
export interface ChangeFollower {
  /**
   * Runs `fn` while holding back the changes it sees; once `fn` ends, takes them and the files `fn` names
   * all at once, and resolves when the server serves them.
   */
  holding<T>(fn: () => Promise<Rewritten<T>>): Promise<T>;
}

/**
 * The project's checkout as the server's own git commands rewrite it (a rebase before a push, a replica's pull).
 * While one runs, the watcher holds back what it sees, so readers are served the files as they were before it,
 * never a tree git has half rewritten; then it takes every change at once, before the rewrite is said done.
 */
export class Checkout {
  private follower: ChangeFollower | undefined;

  /** `follower` follows the files from now on, until the function answered is called. */
  follow(follower: ChangeFollower): () => void {
    this.follower = follower;
    return () => {
      if (this.follower === follower) this.follower = undefined;
    };
  }

  /** Runs `fn`, which rewrites files of the checkout and names them (see the class). */
  rewrite<T>(fn: () => Promise<Rewritten<T>>): Promise<T> {
    return this.follower ? this.follower.holding(fn) : fn().then((r) => r.value);
  }
}
