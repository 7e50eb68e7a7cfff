import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LARGE_FOLDER_BYTES, listLargeFolders, listingOf, snapshotFileOf } from '../src/store/folder-listing.js';
import { dirOf } from '../src/cli/main.js';

/**
 * `folio serve` lists large folders ahead, on the thread pool, and the scan takes that listing while
 * the folder's mtime is unchanged. To see which listing a scan got, a file is added after the listing
 * ahead and the folder's mtime put back: a listing from ahead misses it, one made now has it.
 */
const root = mkdtempSync(join(tmpdir(), 'folio-listing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project with a large folder (`big`) and a small one (`small`) of documents. */
function project(name: string) {
  const contentDir = join(root, name, 'content');
  const folder = (plural: string, count: number) => {
    const dir = join(contentDir, 'documents', plural);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `${plural}${String(i).padStart(20, '0')}.json`), '{}');
    return dir;
  };
  const big = folder('big', 12_000);
  const small = folder('small', 3);
  roundMtime(big);
  roundMtime(small);
  expect(statSync(big).size).toBeGreaterThanOrEqual(LARGE_FOLDER_BYTES);
  expect(statSync(small).size).toBeLessThan(LARGE_FOLDER_BYTES);
  return { contentDir, big, small };
}

/**
 * Sets the folder's mtime to itself in whole milliseconds, which `addUnseen` can put back exactly
 * (file clocks count finer than a Date).
 */
function roundMtime(dir: string) {
  const { atime, mtime } = statSync(dir);
  utimesSync(dir, atime, mtime);
}

/** Adds document `documentId`'s file to `dir` without changing the folder's mtime; answers the documentId. */
function addUnseen(dir: string, documentId = 'aaadded'): string {
  const { atime, mtime } = statSync(dir);
  writeFileSync(join(dir, `${documentId}.json`), '{}');
  utimesSync(dir, atime, mtime);
  return documentId;
}

describe('listing a collection folder ahead of its scan', () => {
  const made = project('a');
  writeFileSync(join(made.big, '.folio-tmp-left-by-a-killed-writer'), '');
  roundMtime(made.big);
  let bigAdded = '';
  let smallAdded = '';
  beforeAll(async () => {
    await listLargeFolders(made.contentDir, true);
    bigAdded = addUnseen(made.big);
    smallAdded = addUnseen(made.small);
  });

  it('takes the listing started ahead for a large folder whose mtime is unchanged', async () => {
    const listed = await listingOf(made.big, statSync(made.big).mtimeMs);
    expect(listed.ids).toHaveLength(12_000);
    expect(listed.ids).not.toContain(bigAdded);
    expect(listed.ids).toEqual([...listed.ids].sort());
    expect(listed.strays).toBe(1);
  });

  it('lists now a folder not listed ahead (a small one, or a large one taken already)', async () => {
    expect((await listingOf(made.small, statSync(made.small).mtimeMs)).ids).toContain(smallAdded);
    expect((await listingOf(made.big, statSync(made.big).mtimeMs)).ids).toContain(bigAdded);
  });

  it('lists again a folder that changed since it was listed ahead', async () => {
    const other = project('b');
    await listLargeFolders(other.contentDir, true);
    writeFileSync(join(other.big, 'zzznew.json'), '{}');
    const listed = await listingOf(other.big, statSync(other.big).mtimeMs);
    expect(listed.ids).toHaveLength(12_001);
    expect(listed.ids.at(-1)).toBe('zzznew');
  });

  it('does not list ahead where a start-up snapshot may spare the listing, unless told not to use it', async () => {
    const other = project('c');
    mkdirSync(join(other.contentDir, '..', '.folio', 'cache'), { recursive: true });
    writeFileSync(snapshotFileOf(other.contentDir), '');
    await listLargeFolders(other.contentDir, true);
    const seen = addUnseen(other.big, 'aaa1');
    expect((await listingOf(other.big, statSync(other.big).mtimeMs)).ids).toContain(seen);
    // `--no-snapshot`: listed ahead.
    await listLargeFolders(other.contentDir, false);
    const unseen = addUnseen(other.big, 'aaa2');
    const listed = await listingOf(other.big, statSync(other.big).mtimeMs);
    expect(listed.ids).toContain('aaa1');
    expect(listed.ids).not.toContain(unseen);
  });
});

describe('the project folder a command line names', () => {
  it.each([
    [['serve'], undefined],
    [['serve', '--dir', 'site'], 'site'],
    [['--dir', 'site', 'serve', '--port', '4000'], 'site'],
    [['serve', '-d', 'site'], 'site'],
    [['serve', '--dir=site'], 'site'],
  ])('%j -> %s', (args, dir) => {
    expect(dirOf(['node', 'folio', ...args])).toBe(dir);
  });
});
