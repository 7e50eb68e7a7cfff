import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The start-up machinery (src/startup/) is entered through one door: only the project's opening code
 * imports it. Its threads read and stamp document files through the store layer's code, without knowing
 * the on-disk layout. Checked on the sources, as an import graph is.
 */
const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('the start path', () => {
  it('is imported by the project module only', () => {
    const importers = sources(SRC).filter((file) => {
      const rel = relative(SRC, file);
      if (rel.startsWith('startup/')) return false;
      return /from '[./]*startup\/|import\('[./]*startup\//.test(readFileSync(file, 'utf8'));
    });
    expect(importers.map((f) => relative(SRC, f))).toEqual(['project.ts']);
  });

  it('leaves nothing of itself on the document service', () => {
    const service = readFileSync(join(SRC, 'documents', 'service.ts'), 'utf8');
    expect(service).not.toMatch(/afterStart|snapshotPending|writeSnapshot|\bwarm\(/);
  });

  it('reads and stamps files where the store says they are', () => {
    // The modules its reader and stamping threads run: no file names, suffixes or folder joins of their own.
    for (const name of ['read-block.ts', 'read-worker.ts', 'stamp-range.ts', 'stamp-worker.ts', 'parallel-read.ts']) {
      const text = readFileSync(join(SRC, 'startup', name), 'utf8');
      expect(text, name).not.toMatch(/DOCUMENT_SUFFIX|'\.json'|node:path|'documents'/);
    }
  });
});
