import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The start-up threads read and stamp document files through the store layer's code, without knowing the
 * on-disk layout. Checked on the sources; that only src/project.ts imports src/startup is a lint rule.
 */
const SRC = join(import.meta.dirname, '..', 'src');

describe('the start path', () => {
  it('reads and stamps files where the store says they are', () => {
    // The modules its reader and stamping threads run: no file names, suffixes or folder joins of their own.
    for (const name of ['read-block.ts', 'read-worker.ts', 'stamp-range.ts', 'stamp-worker.ts', 'parallel-read.ts']) {
      const text = readFileSync(join(SRC, 'startup', name), 'utf8');
      expect(text, name).not.toMatch(/DOCUMENT_SUFFIX|'\.json'|node:path|'documents'/);
    }
  });
});
