/**
 * The only tests that may be skipped under `CI=true` (helpers/skip-guard.ts fails the run on any other skip), each
 * with why it cannot run everywhere. Chromium and util-linux `script` are not here: `.ci/run` installs them.
 * `test` is the start of the test's full name (its describe blocks and title joined by ' > ').
 */
export const ALLOWED_SKIPS: ReadonlyArray<{ file: string; test: string; reason: string }> = [
  {
    file: 'server-survives.test.ts',
    test: 'a full or read-only file system answers 507',
    reason: 'fills and remounts a small tmpfs: needs mount rights (root with CAP_SYS_ADMIN), which containers withhold',
  },
  {
    file: 'atomic-writes.test.ts',
    test: 'a document write on a full disk',
    reason: 'fills a small tmpfs mounted over a collection folder: needs mount rights, which containers withhold',
  },
  {
    file: 'access-times.test.ts',
    test: 'reading documents leaves their access times alone > when',
    reason: 'on a noatime mount reads never change access times, so there is nothing to prove',
  },
  {
    file: 'access-times.test.ts',
    test: 'reading documents leaves their access times alone > and still load files another user owns',
    reason: 'runs the CLI as user nobody: needs root, and a checkout that user can read',
  },
];
