import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnFolio } from './helpers/cli.js';
import { git, makeGitProject } from './helpers/git.js';
import { spawnServe } from './helpers/serve.js';
import { eventually } from './helpers/eventually.js';

/** `folio init` puts a project in git with the merge driver; serve and validate say when a clone lacks it. */
describe('the merge driver in a clone', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-git-setup-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const NOTE = 'note: this clone has no Folio merge driver: run "folio git setup"';

  it('folio init initialises a repository and sets the driver up in it', async () => {
    const dir = join(root, 'site');
    const r = await spawnFolio(['init', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).git).toEqual({ initialised: true, repository: dir });
    expect(existsSync(join(dir, '.git'))).toBe(true);
    expect(await git(dir, 'config', '--get', 'merge.folio.driver')).toContain('merge-file %O %A %B %P');
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toContain('content/documents/**/*.json merge=folio\n');
    const v = await spawnFolio(['validate', '--dir', dir]);
    expect(v.stderr).not.toContain('note:');
  });

  it('folio init inside a repository uses it, and --no-git leaves git alone', async () => {
    const repo = join(root, 'monorepo');
    mkdirSync(repo);
    await git(repo, 'init', '-q');
    const r = await spawnFolio(['init', join(repo, 'cms'), '--json']);
    expect(JSON.parse(r.stdout).git).toEqual({ initialised: false, repository: repo });
    expect(existsSync(join(repo, 'cms', '.git'))).toBe(false);
    expect(existsSync(join(repo, 'cms', '.gitattributes'))).toBe(true);
    const plain = join(root, 'plain');
    const p = await spawnFolio(['init', plain, '--no-git', '--json']);
    expect(JSON.parse(p.stdout).git).toBeNull();
    expect(existsSync(join(plain, '.git'))).toBe(false);
  });

  it('validate and serve say once when the clone has no driver, and nothing outside git', async () => {
    const repo = await makeGitProject({ driver: false });
    try {
      const v = await spawnFolio(['validate', '--dir', repo.dir]);
      expect(v.code).toBe(0);
      expect(v.stderr.split(NOTE)).toHaveLength(2);
      const server = await spawnServe(repo.dir);
      try {
        await eventually(() => server.stderr().includes(NOTE), 'the note on the missing driver');
        expect(server.stderr().split(NOTE)).toHaveLength(2);
      } finally {
        await server.stop();
      }
      rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
      expect((await spawnFolio(['validate', '--dir', repo.dir])).stderr).not.toContain('note:');
    } finally {
      repo.cleanup();
    }
  });
});
