import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { STAMP, sourceHash } from './build-stamp.mjs';

/**
 * Vitest global setup: refuses to run on a dist/ that was not built from the sources as they are now. Tests that
 * spawn the CLI or the server run dist/, the others src/: a stale build would test old and new code at once.
 * `npm test` builds first; a direct `npx vitest run` needs `npm run build` after a change under src/.
 * FOLIO_ALLOW_STALE_DIST=1 lets a run go on anyway, for runs whose changes only in-process tests can see (the
 * mutation testing of `npm run mutate`, a rule planted in src/ by hand).
 */
export default function setup(): void {
  if (process.env.FOLIO_ALLOW_STALE_DIST === '1') return;
  const stamp = relative(process.cwd(), STAMP);
  if (!existsSync(STAMP))
    throw new Error(`${stamp} is missing: dist/ is not built, or not by \`npm run build\`. Run \`npm run build\`.`);
  if (readFileSync(STAMP, 'utf8').trim() !== sourceHash())
    throw new Error(
      'dist/ is stale: it was built from other sources than src/ holds now. Run `npm run build` ' +
        '(`npm test` builds first), then run the tests again.',
    );
}
