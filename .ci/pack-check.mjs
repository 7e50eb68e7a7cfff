// npm's prepack: refuses to pack while the files of content/ that the package ships (package.json `files`) differ
// from the last commit, so a tarball never carries edits or uploads made while trying the example. Outside a git
// checkout there is nothing to compare with; FOLIO_PACK_ANY_CONTENT=1 packs content/ as it is.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Files npm never packs, whatever `files` says. */
const NEVER_PACKED = /(^|\/)(\.DS_Store|\._[^/]*|\.[^/]*\.swp|[^/]*\.orig|npm-debug\.log|\.npmrc)$/;

const git = (args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function inCheckout() {
  try {
    return git(['rev-parse', '--is-inside-work-tree']).trim() === 'true';
  } catch {
    return false;
  }
}

/** Every file under `path` (a file or a folder), relative to the package's root, with `/`. */
function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).split('\\').join('/'));
}

if (process.env.FOLIO_PACK_ANY_CONTENT !== '1' && inCheckout()) {
  const { files = [] } = JSON.parse(readFileSync('package.json', 'utf8'));
  const shipped = files.filter((f) => /^content(\/|$)/.test(f)).map((f) => f.replace(/\/$/, ''));
  if (shipped.length) {
    const tracked = new Set(
      git(['ls-files', '-z', '--', ...shipped])
        .split('\0')
        .filter(Boolean),
    );
    const changed = git(['diff', '--name-status', '--no-renames', '-z', 'HEAD', '--', ...shipped])
      .split('\0')
      .filter(Boolean);
    const lines = [];
    for (let i = 0; i + 1 < changed.length; i += 2)
      lines.push(
        `  ${changed[i] === 'D' ? 'deleted ' : changed[i] === 'A' ? 'added   ' : 'modified'}  ${changed[i + 1]}`,
      );
    for (const f of shipped.flatMap(filesUnder))
      if (!tracked.has(f) && !NEVER_PACKED.test(f)) lines.push(`  new       ${f}`);
    if (lines.length) {
      process.stderr.write(
        [
          'npm pack: these files of content/ would ship in the package, but differ from the last commit:',
          ...lines.sort(),
          'Commit them, or put content/ back as committed (this discards the changes and the new files):',
          '  git checkout HEAD -- content && git clean -fd -- content',
          'or pack content/ as it is: FOLIO_PACK_ANY_CONTENT=1 npm pack',
          '',
        ].join('\n'),
      );
      process.exit(1);
    }
  }
}
