// The build's stamp: a hash of what dist/ is compiled from (src/ and tsconfig.json), written to dist/.build-stamp
// at the end of `npm run build` (run as a script) and compared by the test run (fresh-dist.ts), which refuses a
// dist/ built from other sources: tests that spawn the CLI or the server run dist/, the others run src/.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(fileURLToPath(import.meta.url), '..', '..', '..');
export const STAMP = join(REPO, 'dist', '.build-stamp');

/** The sha256 of the sources' paths and bytes, in path order. */
export function sourceHash(root = REPO) {
  const files = [join(root, 'tsconfig.json')];
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }))
    if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(STAMP, `${sourceHash()}\n`);
