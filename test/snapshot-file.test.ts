import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSnapshot, writeSnapshot, type Snapshot, type SnapshotEntry } from '../src/startup/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'folio-snapshot-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `n` entries with summaries of varied lengths (0 to 6 numbers), sorted by documentId as a capture makes them. */
function entries(n: number, seed: number): SnapshotEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    documentId: `doc${String(i).padStart(6, '0')}`,
    mtimeMs: 1_700_000_000_000 + i * 7 + seed,
    size: 100 + ((i * 13) % 900),
    ino: 5_000_000 + i,
    summary: Array.from({ length: (i + seed) % 7 }, (_, k) => k * 3 + i),
  }));
}

describe('the start-up snapshot file', () => {
  // Collections larger than the slices the writer pauses between, and one empty: read back as written.
  it.each([
    ['a large collection, written in slices', 20_001],
    ['a collection of one slice exactly', 8192],
    ['an empty collection', 0],
  ])('%s round-trips entry by entry', async (_label, n) => {
    const snap: Snapshot = {
      folioVersion: '1.2.3',
      takenAt: 1_700_000_500_000,
      collections: new Map([
        ['articles', { fingerprint: 'fa', dirMtimeMs: 1_700_000_000_001, table: ['', 'en'], entries: entries(n, 1) }],
        ['authors', { fingerprint: 'fb', dirMtimeMs: -1, table: [''], entries: entries(3, 2) }],
      ]),
    };
    const file = join(dir, `snapshot-${n}`);
    await writeSnapshot(file, snap);
    const read = readSnapshot(file)!;
    expect({ ...read, collections: undefined }).toEqual({ ...snap, collections: undefined });
    expect([...read.collections.keys()]).toEqual([...snap.collections.keys()]);
    for (const [name, c] of snap.collections) {
      const { entries, ...rest } = read.collections.get(name)!;
      expect({ ...rest, entries: Array.from(entries.ids, (_, i) => entries.entry(i)) }).toEqual(c);
    }
  });
});
