import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.js';
import { REPO, makeProject } from './helpers/project.js';
import { age, countingThreads, snapshot } from './helpers/snapshot.js';

/**
 * `server.readThreadsFrom` in folio.json: from this many files a collection is read on reader threads at a
 * first start, and its stamps taken on worker threads at a restart from the start-up snapshot.
 */
const made = makeProject();
afterAll(() => made.cleanup());
const configFile = join(made.contentDir, 'folio.json');
const baseConfig = JSON.parse(readFileSync(configFile, 'utf8'));
/** Writes folio.json with these `server` settings. */
const setServer = (server: Record<string, unknown>) =>
  writeFileSync(configFile, `${JSON.stringify({ ...baseConfig, server }, null, 2)}\n`);

describe('the setting in folio.json', () => {
  it('is 20,000 unless set, and takes any integer from 0', () => {
    setServer({});
    expect(loadConfig(made.contentDir).server.readThreadsFrom).toBe(20_000);
    for (const value of [0, 1, 1000, 50_000]) {
      setServer({ readThreadsFrom: value });
      expect(loadConfig(made.contentDir).server.readThreadsFrom).toBe(value);
    }
  });

  it.each([[-1], [2.5], ['1000'], [null], [true]])('refuses %j, as snapshotFrom is refused', (value) => {
    setServer({ readThreadsFrom: value });
    expect(() => loadConfig(made.contentDir)).toThrow(ConfigError);
    expect(() => loadConfig(made.contentDir)).toThrow(
      `${configFile}: "server.readThreadsFrom" must be an integer >= 0`,
    );
    setServer({ snapshotFrom: value });
    expect(() => loadConfig(made.contentDir)).toThrow(`${configFile}: "server.snapshotFrom" must be an integer >= 0`);
  });
});

describe('a small collection on threads when the setting says so', () => {
  const TAGS = 5;
  const tags = join(made.contentDir, 'documents', 'tags');
  const idOf = (i: number) => `tag${String(i).padStart(21, '0')}`;
  // The compiled build: the TypeScript sources have no worker scripts next to them, so they never use threads.
  let built: typeof import('../src/project.js');
  beforeAll(async () => {
    built = await import(pathToFileURL(join(REPO, 'dist', 'project.js')).href);
    mkdirSync(tags, { recursive: true });
    const ts = '2025-01-01T00:00:00.000Z';
    for (let i = 0; i < TAGS; i++) {
      const published = { id: i + 1, name: `tag ${i}`, createdAt: ts, updatedAt: ts, publishedAt: ts };
      writeFileSync(join(tags, `${idOf(i)}.json`), `${JSON.stringify({ documentId: idOf(i), published })}\n`);
    }
    // Listed with the others (six files in the folder), reported wherever it is read.
    writeFileSync(join(tags, 'zzzbroken.json'), '{ "documentId": ');
    age(made.contentDir);
  });

  // Six files in the folder: read on threads from a setting of 6 down (0 and 1 included), here from 7 up.
  it.each([
    [0, true],
    [1, true],
    [6, true],
    [7, false],
    [undefined, false],
  ])('a first start with readThreadsFrom %j reads on threads: %s', async (from, threaded) => {
    setServer(from === undefined ? {} : { readThreadsFrom: from });
    const { value: project, threads } = await countingThreads(() =>
      built.openProject(made.dir, { load: { useSnapshot: false } }),
    );
    const { index } = project.documents;
    expect(project.report.documents).toBe(TAGS);
    expect(project.report.problems.map((p) => p.file)).toEqual([join(tags, 'zzzbroken.json')]);
    // A file read on a thread is indexed from its summary, and decoded when first used; one read here at once.
    // (Threads may also be started on a guess of the folder's size, and stopped once it is listed.)
    const doc = index.get('api::tag.tag', idOf(3))!;
    expect(index.isUndecoded(doc)).toBe(threaded);
    // One block of files: one reader thread.
    if (threaded) expect(threads).toBe(1);
    expect(doc.slots.get('')?.published).toMatchObject({ id: 4, data: { name: 'tag 3' } });
  });

  it('a restart takes the stamps of the files its snapshot recorded on threads from that many files', async () => {
    setServer({});
    expect(await snapshot(made.dir)).toBe(TAGS);
    // Five files recorded (the broken one, read again each time, is one: below every setting tried here).
    for (const [from, threaded] of [
      [5, true],
      [6, false],
    ] as const) {
      setServer({ readThreadsFrom: from });
      const { value: project, threads } = await countingThreads(() => built.openProject(made.dir));
      expect(project.report.fromSnapshot, `readThreadsFrom ${from}`).toBe(TAGS);
      expect(threads > 0, `readThreadsFrom ${from}`).toBe(threaded);
    }
  });
});
