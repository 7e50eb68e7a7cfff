import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnFolio } from './helpers/cli.js';
import { git, gitStatus, makeGitProject } from './helpers/git.js';

/**
 * A server that pushes rebases onto what others pushed and serves the result through its watcher, and must start
 * from a checkout on its branch: it says so before it starts when it cannot.
 */
describe('folio serve --push refuses what it cannot push from', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  beforeAll(async () => {
    repo = await makeGitProject();
    await git(repo.dir, 'init', '-q', '--bare', 'remote.git');
    await repo.git('remote', 'add', 'origin', join(repo.dir, 'remote.git'));
  });
  afterAll(() => repo.cleanup());

  it('without the watcher, which serves what a rebase brings', async () => {
    const r = await spawnFolio(['serve', '--port', '0', '--dir', repo.dir, '--push', 'origin', '--no-watch']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--push needs the watcher: drop --no-watch');
  });

  it('in a checkout left in the middle of a rebase, saying so', async () => {
    const notes = join(repo.dir, 'notes.txt');
    writeFileSync(notes, 'one\n');
    await repo.git('add', 'notes.txt');
    await repo.git('commit', '-qm', 'notes');
    await repo.git('checkout', '-q', '-b', 'other');
    writeFileSync(notes, 'two\n');
    await repo.git('commit', '-qam', 'two');
    await repo.git('checkout', '-q', 'main');
    writeFileSync(notes, 'three\n');
    await repo.git('commit', '-qam', 'three');
    expect((await gitStatus(repo.dir, 'rebase', 'other')).code).not.toBe(0);
    const r = await spawnFolio(['serve', '--port', '0', '--dir', repo.dir, '--push', 'origin']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'git: a rebase is in progress in the checkout: finish it or undo it ("git status" says how), then start the ' +
        'server again',
    );
  });
});
