import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, makeProject } from './helpers/project.js';
import { age, countingThreads, snapshot } from './helpers/snapshot.js';

/**
 * A low `server.readThreadsFrom` (1: threads for every collection with files) over a project of many small
 * collections: the collections take turns on threads, so a start never runs threads for all of them at once.
 */
describe('server.readThreadsFrom of 1 over many small collections', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());
  const COLLECTIONS = 12;
  const FILES = 3;
  const plural = (n: number) => `notes${n}`;
  const ts = '2025-01-01T00:00:00.000Z';
  // The compiled build: the TypeScript sources have no worker scripts next to them, so they never use threads.
  let built: typeof import('../src/project.js');
  beforeAll(async () => {
    built = await import(pathToFileURL(join(REPO, 'dist', 'project.js')).href);
    for (let n = 0; n < COLLECTIONS; n++) {
      const type = {
        kind: 'collectionType',
        collectionName: plural(n),
        info: { singularName: `note${n}`, pluralName: plural(n), displayName: `Note ${n}` },
        options: { draftAndPublish: false },
        attributes: { name: { type: 'string' } },
      };
      writeFileSync(join(made.contentDir, 'types', `note${n}.json`), `${JSON.stringify(type, null, 2)}\n`);
      const dir = join(made.contentDir, 'documents', plural(n));
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < FILES; i++) {
        const documentId = `note${String(i).padStart(20, '0')}`;
        const published = { id: i + 1, name: `${n}.${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts };
        writeFileSync(join(dir, `${documentId}.json`), `${JSON.stringify({ documentId, published })}\n`);
      }
    }
    const file = join(made.contentDir, 'folio.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, `${JSON.stringify({ ...config, server: { readThreadsFrom: 1 } }, null, 2)}\n`);
    age(made.contentDir);
  });

  // A thread counts as alive until Node has destroyed its handle, a little after its work: so "one collection at
  // a time" shows as a few alive at once, where threads for every collection together would be twelve or more.
  it('reads each collection on threads, a collection at a time', async () => {
    const {
      value: project,
      threads,
      atOnce,
    } = await countingThreads(() => built.openProject(made.dir, { load: { useSnapshot: false } }));
    expect(project.report.problems.map((p) => p.message)).toEqual([]);
    expect(project.report.documents).toBe(COLLECTIONS * FILES);
    // One reader for each collection's one block, none started on a guess of a folder's size.
    expect(threads).toBe(COLLECTIONS);
    expect(atOnce).toBeLessThanOrEqual(COLLECTIONS / 3);
  });

  it('takes the stamps on threads at a restart, a collection at a time', async () => {
    expect(await snapshot(made.dir)).toBe(COLLECTIONS * FILES);
    const { value: project, threads, atOnce } = await countingThreads(() => built.openProject(made.dir));
    expect(project.report.fromSnapshot).toBe(COLLECTIONS * FILES);
    // Two stamping threads for each collection.
    expect(threads).toBe(COLLECTIONS * 2);
    expect(atOnce).toBeLessThanOrEqual((COLLECTIONS * 2) / 3);
  });
});
