import { describe, expect, it } from 'vitest';
import { Column } from '../src/documents/column.js';
import { LinkIndex } from '../src/documents/link-index.js';
import type { Version } from '../src/documents/model.js';

/**
 * The indexes a query builds over a whole type are built a slice at a time (see sliced-work.ts), and a slice can
 * end only where the building pauses: at a million rows, a build that pauses every few thousand rows held the
 * server for hundreds of milliseconds at a time. These builds pause every few hundred rows, and still index
 * every row.
 */
describe('index builds over a large type', () => {
  const N = 3000;
  const ids = Int32Array.from({ length: N }, (_, i) => i + 1);
  const versions = new Map<number, Version>(
    [...ids].map((id) => [
      id,
      {
        id,
        documentId: `doc${id}`,
        locale: null,
        status: 'draft',
        createdAt: '',
        updatedAt: '',
        publishedAt: null,
        data: { author: id % 3 === 0 ? 'writer-a' : 'writer-b' },
      },
    ]),
  );
  const column = new Column((v) => v.data.author ?? null, 1 << 20);
  column.setMany(ids, 0, N, { get: (id) => versions.get(id) });

  it('pauses every few hundred rows while it links rows to the targets they point at', () => {
    const links = new LinkIndex();
    let done = false;
    let pauses = 0;
    const work = links.build(column, ids, () => (done = true));
    while (!work.next().done) pauses++;
    expect(done).toBe(true);
    expect(pauses).toBeGreaterThanOrEqual(N / 512);
    expect(links.from('writer-a').length).toBe(N / 3);
    expect(links.from('writer-b').length).toBe((2 * N) / 3);
    expect([...links.from('writer-a')].slice(0, 3)).toEqual([3, 6, 9]);
  });
});
