import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from './helpers/git.js';
import { REPO } from './helpers/project.js';

type Run = { code: number; stdout: string; stderr: string };

/** The parent npm's own settings (npm_config_*, npm_package_*) must not steer the npm runs below. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

function run(cmd: string, args: string[], cwd: string, more: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...env, NO_COLOR: '1', ...more }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * `npm pack` of a checkout whose content/ ships (as Folio's example does): refused, with what differs and how to
 * put it right, while the shipped files of content/ differ from the last commit.
 */
describe('npm pack with content/ changed since the last commit', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pack-'));
  const pack = (more: Record<string, string> = {}) => run('npm', ['pack', '--dry-run', '--json'], dir, more);

  beforeAll(async () => {
    // A package shaped as Folio's: its prepack and what that runs, and content/ in `files` in part.
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      scripts: { prepack: string };
    };
    mkdirSync(join(dir, '.ci'));
    for (const file of readdirSync(join(REPO, '.ci')).filter((f) => f.endsWith('.mjs')))
      copyFileSync(join(REPO, '.ci', file), join(dir, '.ci', file));
    const pkg = {
      name: 'packed',
      version: '1.0.0',
      files: ['content/types/', 'content/uploads/', 'content/folio.json'],
      scripts: { prepack: scripts.prepack },
    };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    for (const d of ['types', 'uploads']) mkdirSync(join(dir, 'content', d), { recursive: true });
    writeFileSync(join(dir, 'content', 'folio.json'), '{}\n');
    writeFileSync(join(dir, 'content', 'types', 'article.json'), '{}\n');
    await git(dir, 'init', '-q', '-b', 'main');
    await git(dir, 'add', '-A');
    await git(dir, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-qm', 'Example');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('packs content/ as committed, whatever else is in the folder', async () => {
    writeFileSync(join(dir, 'content', 'notes.txt'), 'not shipped\n');
    const packed = await pack();
    expect(packed.code, packed.stderr).toBe(0);
    expect(JSON.parse(packed.stdout)[0].files.map((f: { path: string }) => f.path)).toContain('content/folio.json');
  });

  it('refuses an edit, a deletion or a new file that would ship, naming each and the way back', async () => {
    writeFileSync(join(dir, 'content', 'folio.json'), '{ "edited": true }\n');
    rmSync(join(dir, 'content', 'types', 'article.json'));
    writeFileSync(join(dir, 'content', 'uploads', 'photo.png'), 'png');
    const refused = await pack();
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('these files of content/ would ship in the package, but differ from the last');
    for (const line of [
      'deleted   content/types/article.json',
      'modified  content/folio.json',
      'new       content/uploads/photo.png',
      'git checkout HEAD -- content && git clean -fd -- content',
      'FOLIO_PACK_ANY_CONTENT=1 npm pack',
    ])
      expect(refused.stderr).toContain(line);
    expect(refused.stderr).not.toContain('notes.txt');

    // Asked for, content/ is packed as it is.
    const anyway = await pack({ FOLIO_PACK_ANY_CONTENT: '1' });
    expect(anyway.code, anyway.stderr).toBe(0);

    // Put back as the message says, it packs again.
    await git(dir, 'checkout', 'HEAD', '--', 'content');
    await git(dir, 'clean', '-fdq', '--', 'content');
    expect((await pack()).code).toBe(0);
  });

  it('checks nothing outside a git checkout (a package unpacked from its tarball)', async () => {
    rmSync(join(dir, '.git'), { recursive: true, force: true });
    writeFileSync(join(dir, 'content', 'folio.json'), '{ "edited": true }\n');
    expect((await pack()).code).toBe(0);
  });
});
