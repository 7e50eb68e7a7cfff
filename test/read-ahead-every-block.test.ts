import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSchemas } from '../src/schema/registry.js';
import type * as here from '../src/startup/parallel-read.js';
import { META } from '../src/startup/read-block.js';
import { REPO, makeProject } from './helpers/project.js';

/**
 * Texts read ahead of their decoding (what preparing a large type after a restart asks reader threads for,
 * see prefetch.ts) are read only a few blocks past the one taken, and the threads learn each block's files
 * only as it comes within reach. Every file still comes, in order, with its own text, and the files can be
 * given as a view over documents rather than an array.
 */
describe('texts read ahead on reader threads', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());
  const dir = join(made.contentDir, 'documents', 'tags');
  mkdirSync(dir, { recursive: true });
  const ts = '2025-01-01T00:00:00.000Z';
  const docs: Array<{ documentId: string }> = [];
  const textOf = (i: number) => {
    const published = { id: i + 1, name: `tag ${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts };
    return `${JSON.stringify({ documentId: docs[i].documentId, published })}\n`;
  };

  it('delivers every block, each file with its text, one block ahead', async () => {
    const built = join(REPO, 'dist', 'startup', 'parallel-read.js');
    expect(existsSync(built), 'npm install builds dist/').toBe(true);
    const dist = (await import(pathToFileURL(built).href)) as typeof here;
    const count = dist.BLOCK_FILES * 4 + 7;
    for (let i = 0; i < count; i++) {
      // Ids of unequal lengths: each block's place in the shared buffer depends on the ones before it.
      docs.push({ documentId: `t${String(i).padStart(6 + (i % 3), '0')}` });
    }
    docs.sort((a, b) => (a.documentId < b.documentId ? -1 : 1));
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `${docs[i].documentId}.json`), textOf(i));
    const tag = [...loadSchemas(made.contentDir).contentTypes.values()].find((ct) => ct.pluralName === 'tags')!;

    const readers = dist.startReaders(made.contentDir, tag, 2);
    const ids = { length: docs.length, at: (i: number) => docs[i]?.documentId };
    const got: string[] = [];
    const sizes: number[] = [];
    // A block's texts are overwritten once the block after next is taken: each is read as it comes.
    for await (const block of readers.read(ids, 'texts', 1)) {
      sizes.push(block.ids.length);
      for (const at of block.starts) {
        const m = block.meta;
        const chunk = block.chunks[m[at + META.chunk]];
        got.push(`${block.ids[m[at + META.index]]} ${chunk?.text(m[at + META.offset], m[at + META.length])}`);
      }
    }
    expect(sizes).toEqual([1000, 1000, 1000, 1000, 7]);
    expect(got.length).toBe(count);
    const wrong = got.filter(
      (g, i) => g !== `${docs[i].documentId} ${readFileSync(join(dir, `${docs[i].documentId}.json`), 'utf8')}`,
    );
    expect(wrong).toEqual([]);
  });
});
