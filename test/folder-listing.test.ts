import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { largeFolderBytes, listLargeFolders, listingOf, snapshotFileOf } from '../src/startup/folder-listing.js';
import { dirOf } from '../src/cli/main.js';
import { diskTmpdir } from './helpers/temp-in-memory.js';

/**
 * `folio serve` lists large folders ahead, on the thread pool, and the scan takes that listing while
 * the folder's mtime is unchanged. To see which listing a scan got, a file is added after the listing
 * ahead and the folder's mtime put back: a listing from ahead misses it, one made now has it.
 */
// On the disk: a folder is large by its byte size, which on tmpfs counts entries, not blocks.
const root = mkdtempSync(join(diskTmpdir(), 'folio-listing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Files from which a folder is large in these projects (`server.readThreadsFrom`), and files in a large
 * folder here: the product's default (20,000) would take 5,000 of these names on ext4.
 */
const FROM = 1_000;
const BIG = 600;

/** A project with a large folder (`big`) and a small one (`small`) of documents, and this folio.json. */
function project(name: string, config: object = { server: { readThreadsFrom: FROM } }) {
  const contentDir = join(root, name, 'content');
  mkdirSync(contentDir, { recursive: true });
  writeFileSync(join(contentDir, 'folio.json'), JSON.stringify(config));
  const folder = (plural: string, count: number) => {
    const dir = join(contentDir, 'documents', plural);
    mkdirSync(dir, { recursive: true });
    // Long names (documentIds have at most 64 characters): fewer files make a large folder. Only names are
    // listed, so the files are links to one: a link is a name, where a new file costs an inode each.
    const first = join(dir, `${plural}${String(0).padStart(61, '0')}.json`);
    writeFileSync(first, '{}');
    for (let i = 1; i < count; i++) linkSync(first, join(dir, `${plural}${String(i).padStart(61, '0')}.json`));
    return dir;
  };
  const big = folder('big', BIG);
  const small = folder('small', 3);
  roundMtime(big);
  roundMtime(small);
  expect(statSync(big).size).toBeGreaterThanOrEqual(largeFolderBytes(FROM));
  expect(statSync(small).size).toBeLessThan(largeFolderBytes(FROM));
  return { contentDir, big, small };
}

/**
 * Sets the folder's mtime ten seconds back, in whole milliseconds, which `addUnseen` can put back exactly
 * (file clocks count finer than a Date): a folder changed within a clock tick of its listing is listed
 * again (see listingOf).
 */
function roundMtime(dir: string) {
  utimesSync(dir, statSync(dir).atime, new Date(Math.floor(Date.now() / 1000) * 1000 - 10_000));
}

/** Adds document `documentId`'s file to `dir` without changing the folder's mtime; answers the documentId. */
function addUnseen(dir: string, documentId = 'aaadded'): string {
  const { atime, mtime } = statSync(dir);
  writeFileSync(join(dir, `${documentId}.json`), '{}');
  utimesSync(dir, atime, mtime);
  return documentId;
}

describe('listing a collection folder ahead of its scan', { timeout: 60_000 }, () => {
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
    const listed = await listingOf(made.big, statSync(made.big));
    expect(listed.ids).toHaveLength(BIG);
    expect(listed.ids).not.toContain(bigAdded);
    expect(listed.ids).toEqual([...listed.ids].sort());
    expect(listed.strays).toBe(1);
  });

  it('lists now a folder not listed ahead (a small one, or a large one taken already)', async () => {
    expect((await listingOf(made.small, statSync(made.small))).ids).toContain(smallAdded);
    expect((await listingOf(made.big, statSync(made.big))).ids).toContain(bigAdded);
  });

  it('lists again a folder that changed since it was listed ahead', async () => {
    const other = project('b');
    await listLargeFolders(other.contentDir, true);
    writeFileSync(join(other.big, 'zzznew.json'), '{}');
    const listed = await listingOf(other.big, statSync(other.big));
    expect(listed.ids).toHaveLength(BIG + 1);
    expect(listed.ids.at(-1)).toBe('zzznew');
  });

  it('lists again a folder changed within a clock tick before it was listed ahead', async () => {
    const other = project('d');
    utimesSync(other.big, statSync(other.big).atime, new Date());
    await listLargeFolders(other.contentDir, true);
    const added = addUnseen(other.big);
    expect((await listingOf(other.big, statSync(other.big))).ids).toContain(added);
  });

  it('starts whatever it can, and never fails a start', async () => {
    const other = project('e');
    symlinkSync('loop', join(other.contentDir, 'documents', 'loop'));
    await expect(listLargeFolders(other.contentDir, true)).resolves.toBeUndefined();
    const added = addUnseen(other.big);
    expect((await listingOf(other.big, statSync(other.big))).ids).not.toContain(added);
    await expect(listLargeFolders(join(root, 'nowhere', 'content'), true)).resolves.toBeUndefined();
  });

  it("judges a folder large by the project's server.readThreadsFrom", async () => {
    // The default (20,000 files): the same folder is not large.
    const other = project('f', {});
    expect(statSync(other.big).size).toBeLessThan(largeFolderBytes(20_000));
    await listLargeFolders(other.contentDir, true);
    const added = addUnseen(other.big);
    expect((await listingOf(other.big, statSync(other.big))).ids).toContain(added);
  });

  it('does not list ahead where a start-up snapshot may spare the listing, unless told not to use it', async () => {
    const other = project('c');
    mkdirSync(join(other.contentDir, '..', '.folio', 'cache'), { recursive: true });
    writeFileSync(snapshotFileOf(other.contentDir), '');
    await listLargeFolders(other.contentDir, true);
    const seen = addUnseen(other.big, 'aaa1');
    expect((await listingOf(other.big, statSync(other.big))).ids).toContain(seen);
    // `--no-snapshot`: listed ahead.
    await listLargeFolders(other.contentDir, false);
    const unseen = addUnseen(other.big, 'aaa2');
    const listed = await listingOf(other.big, statSync(other.big));
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
    [['-dsite', 'serve'], 'site'],
    [['-qd', 'site', 'serve', '-p', '4000'], 'site'],
  ])('%j -> %s', (args, dir) => {
    expect(dirOf(['node', 'folio', ...args])).toBe(dir);
  });
});
