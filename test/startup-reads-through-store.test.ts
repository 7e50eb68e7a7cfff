import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, makeProject } from './helpers/project.js';
import { countingThreads } from './helpers/snapshot.js';

/**
 * The start-up threads read and stamp document files through the store layer's code, without knowing the
 * on-disk layout. Checked on the sources (that only src/project.ts imports src/startup is a lint rule), and by
 * what a start on reader threads finds: the same documents and problems as a start without them.
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

  describe('on reader threads, a first start finds what a start without them finds', () => {
    const made = makeProject();
    afterAll(() => made.cleanup());
    const tags = join(made.contentDir, 'documents', 'tags');
    const ts = '2025-01-01T00:00:00.000Z';
    mkdirSync(join(tags, 'old'), { recursive: true });
    for (let i = 0; i < 6; i++) {
      const documentId = `tag${String(i).padStart(21, '0')}`;
      const published = { id: i + 1, name: `tag ${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts };
      writeFileSync(join(tags, `${documentId}.json`), `${JSON.stringify({ documentId, published })}\n`);
    }
    // Beside them, what is not a document file: an atomic write's leftover, notes, a backup, a folder, a bad name.
    const other = { documentId: 'zzz', published: { id: 99, name: 'not a tag' } };
    writeFileSync(join(tags, '.folio-tmp-tag000000000000000000000.json.1a2b3c'), JSON.stringify(other));
    writeFileSync(join(tags, 'notes.txt'), 'about the tags');
    writeFileSync(join(tags, 'tag000000000000000000000.json~'), JSON.stringify(other));
    writeFileSync(join(tags, 'old', 'tag999999999999999999999.json'), JSON.stringify(other));
    writeFileSync(join(tags, 'Not-An-Id.json'), JSON.stringify(other));

    it.each([
      ['on the main thread', 100],
      ['on reader threads', 0],
    ])('%s', async (_how, readThreadsFrom) => {
      const config = JSON.parse(readFileSync(join(made.contentDir, 'folio.json'), 'utf8'));
      writeFileSync(join(made.contentDir, 'folio.json'), JSON.stringify({ ...config, server: { readThreadsFrom } }));
      // The compiled build: the TypeScript sources have no worker scripts next to them, so they never use threads.
      const built: typeof import('../src/project.js') = await import(
        pathToFileURL(join(REPO, 'dist', 'project.js')).href
      );
      const { value: project, threads } = await countingThreads(() =>
        built.openProject(made.dir, { load: { useSnapshot: false } }),
      );
      expect(threads > 0).toBe(readThreadsFrom === 0);
      expect(project.report.documents).toBe(6);
      expect(project.report.problems.map((p) => [p.file.slice(tags.length + 1), p.message])).toEqual([
        ['Not-An-Id.json', 'the file name must be a documentId (lowercase letters and digits)'],
      ]);
      const ct = project.documents.contentType('tag');
      const names = Array.from({ length: 6 }, (_, i) => `tag${String(i).padStart(21, '0')}`).map(
        (id) => project.documents.findVersion(ct, id, 'published', undefined)?.data.name,
      );
      expect(names).toEqual(['tag 0', 'tag 1', 'tag 2', 'tag 3', 'tag 4', 'tag 5']);
      expect(project.documents.findVersion(ct, 'zzz', 'published', undefined)).toBeUndefined();
    });
  });
});
