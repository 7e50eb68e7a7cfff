import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnFolio } from './helpers/cli.js';
import { gitWith, makeGitProject } from './helpers/git.js';

/**
 * Text that others wrote reaches the developer's terminal with its control characters. A title
 * written through the API (by any role that may create, a public form included) and a commit pulled from a
 * remote (its author and message are whatever the committer typed) carry escape sequences that terminals obey:
 * OSC 52 writes the clipboard in several terminals, OSC 8 hides a link's address, CSI clears the screen. Printed
 * by `folio docs list` and `folio docs history`. (Folio's own commits clean their author and message; those made
 * elsewhere are not.)
 */
describe('control characters from content and commits in CLI output', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let article = '';
  const hostile = 'Spring sale\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007\u001b[2J';
  beforeAll(async () => {
    repo = await makeGitProject();
    article = await repo.edit(async (p) => (await p.documents.create('article', { title: hostile })).documentId);
    await repo.git('add', '-A');
    // A commit made elsewhere and pulled: git keeps control characters inside a name and a message.
    const made = await gitWith(
      { GIT_AUTHOR_NAME: 'Eve\u001b]0;owned\u0007 X', GIT_AUTHOR_EMAIL: 'eve@example.com' },
      repo.dir,
      'commit',
      '-qm',
      'new article \u001b[2J\u001b[H',
    );
    expect(made.code, made.stderr).toBe(0);
  }, 60_000);
  afterAll(() => repo?.cleanup());

  it('folio docs list prints a title without its control characters', async () => {
    const r = await spawnFolio(['docs', 'list', 'articles', '--dir', repo.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Spring sale');
    expect(r.stdout).not.toContain('\u001b');
  });

  it("folio docs history prints a pulled commit's author and message without control characters", async () => {
    const r = await spawnFolio(['docs', 'history', 'articles', article, '--dir', repo.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Eve');
    expect(r.stdout).not.toContain('\u001b');
  });
});
