import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, makeProject } from './helpers/project.js';
import { age, countingThreads, snapshot } from './helpers/snapshot.js';
import { NO_LOCALE } from '../src/documents/model.js';

/**
 * After a restart over the snapshot, preparing a large type (what its first filtered query waits for) decodes
 * every document: their files are read on reader threads ahead of their decoding (`server.readThreadsFrom`
 * and more of them). What each document then holds is its file as it is at that moment, whatever the
 * snapshot said: a file edited in place with its stamp put back, one whose versions changed, one removed and
 * one broken are each seen as they are.
 */
describe('a restart reads the files of a large type on threads when preparing it', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());
  const FILES = 2500;
  const dir = join(made.contentDir, 'documents', 'notes');
  const ts = '2025-01-01T00:00:00.000Z';
  const idOf = (i: number) => `note${String(i).padStart(20, '0')}`;
  const fileOf = (i: number) => join(dir, `${idOf(i)}.json`);
  const text = (i: number, name: string, id = i + 1) => {
    const published = { id, name, createdAt: ts, updatedAt: ts, publishedAt: ts };
    return `${JSON.stringify({ documentId: idOf(i), published })}\n`;
  };
  /** Rewrites a file in place and puts its mtime back: its stamp says nothing changed. */
  const editKeepingStamp = (i: number, body: string) => {
    const { atime, mtime, size } = statSync(fileOf(i));
    expect(Buffer.byteLength(body)).toBe(size);
    writeFileSync(fileOf(i), body);
    utimesSync(fileOf(i), atime, mtime);
  };
  // The compiled build: the TypeScript sources have no worker scripts next to them, so they never use threads.
  let built: typeof import('../src/project.js');
  beforeAll(async () => {
    built = await import(pathToFileURL(join(REPO, 'dist', 'project.js')).href);
    const type = {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    };
    writeFileSync(join(made.contentDir, 'types', 'note.json'), `${JSON.stringify(type, null, 2)}\n`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < FILES; i++) writeFileSync(fileOf(i), text(i, `n${String(i).padStart(4, '0')}`));
    const file = join(made.contentDir, 'folio.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, `${JSON.stringify({ ...config, server: { readThreadsFrom: 1000 } }, null, 2)}\n`);
    age(made.contentDir);
    expect(await snapshot(made.dir)).toBe(FILES);
  });

  it('decodes each document from its file as it is now', async () => {
    // Each in a different block of 1,000 files.
    editKeepingStamp(10, text(10, 'EDIT!'));
    editKeepingStamp(1200, text(1200, 'MOVED', 9001));
    rmSync(fileOf(2100));
    editKeepingStamp(2200, text(2200, 'n2200').replace('{', '['));
    const project = await built.openProject(made.dir);
    expect(project.report.fromSnapshot).toBe(FILES - 1);
    const { threads } = await countingThreads(() => project.documents.index.whenPrepared());
    expect(threads).toBeGreaterThan(0);

    const name = (i: number) =>
      project.documents.index.get('api::note.note', idOf(i))?.slots.get(NO_LOCALE)?.published?.data.name;
    expect(name(9)).toBe('n0009');
    expect(name(10)).toBe('EDIT!');
    expect(name(1999)).toBe('n1999');
    expect(name(2499)).toBe('n2499');
    expect(name(2100)).toBeUndefined();
    // Indexed again from the file, with the id it now holds; the broken one is taken out.
    await project.documents.index.whenPrepared();
    expect(name(1200)).toBe('MOVED');
    expect(project.documents.index.byId('api::note.note', 9001)?.documentId).toBe(idOf(1200));
    expect(project.documents.index.get('api::note.note', idOf(2200))).toBeUndefined();
    expect(project.documents.index.count('api::note.note')).toBe(FILES - 2);
  });
});
