import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers/project.js';
import { spawnFolio } from './helpers/cli.js';
import { makeGitProject } from './helpers/git.js';

/**
 * Git runs as a child process with an argument list, and what comes from folio.json or the command line is a
 * name, never an option or shell syntax: a remote named `--upload-pack=…` or `ext::sh …` is refused before git
 * sees it. (Titles, usernames and the driver: see git-commit.test.ts and git-merge.test.ts.)
 */
describe('git is given data, never commands', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  const pwned = join('/tmp', `folio-pwned-remote-${process.pid}`);
  beforeAll(async () => {
    repo = await makeGitProject();
    await repo.git('remote', 'add', 'origin', join(repo.dir, 'nowhere.git'));
  });
  afterAll(() => {
    repo.cleanup();
    rmSync(pwned, { force: true });
  });

  const hostile = [`--upload-pack=touch ${pwned}`, `ext::sh -c touch% ${pwned}`, `origin; touch ${pwned}`, '-o'];

  it('refuses a remote from the command line that is not a plain name', async () => {
    for (const remote of hostile) {
      const r = await spawnFolio(['serve', '--port', '0', '--dir', repo.dir, `--push=${remote}`]);
      expect(r.code, remote).toBe(1);
      expect(r.stderr, remote).toContain('is not the name of a git remote');
    }
    const unknown = await spawnFolio(['serve', '--port', '0', '--dir', repo.dir, '--push', 'upstream']);
    expect(unknown.stderr).toContain('the repository has no remote "upstream" (it has: origin)');
    expect(existsSync(pwned)).toBe(false);
  });

  it('refuses such a remote in folio.json', async () => {
    const file = join(repo.contentDir, 'folio.json');
    const before = readFileSync(file, 'utf8');
    try {
      for (const remote of hostile) {
        writeFileSync(file, JSON.stringify({ ...JSON.parse(before), git: { push: remote } }));
        const r = await spawnFolio(['serve', '--port', '0', '--dir', repo.dir]);
        expect(r.code, remote).toBe(1);
        expect(r.stderr, remote).toContain('"git.push" must be the name of a git remote');
      }
    } finally {
      writeFileSync(file, before);
    }
    expect(existsSync(pwned)).toBe(false);
  });

  it('starts git only through run.ts, with an argument list and no shell', () => {
    const dir = join(REPO, 'src', 'git');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const spawning = files.filter((f) => /node:child_process/.test(readFileSync(join(dir, f), 'utf8')));
    // git-runner.ts forks Folio's own runner (runner.ts), which starts git through run.ts too.
    expect(spawning.sort()).toEqual(['git-runner.ts', 'run.ts']);
    expect(readFileSync(join(dir, 'git-runner.ts'), 'utf8')).not.toMatch(/\b(spawn|exec|execFile)(Sync)?\(/);
    const run = readFileSync(join(dir, 'run.ts'), 'utf8');
    expect(run).toContain("spawn('git', [...args], { cwd, env, shell: false");
    expect(run).not.toMatch(/\bexec(Sync)?\(/);
  });
});
