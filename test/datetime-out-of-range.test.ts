import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addAttributes, makeProject, startTestServer, type TestServer } from './helpers/project.js';

/**
 * Found in review (on main, seen while checking gcmillion's value checks against main's): a datetime given as a
 * number past the dates JavaScript holds (±8.64e15 ms) is a finite number, so it is taken as a date whose
 * `toISOString` throws a RangeError. A write must refuse it with a 400; a file holding it must be reported, and
 * must not stop the project from opening.
 */
describe('a datetime past the range of dates', () => {
  const at = '2025-01-01T00:00:00.000Z';
  const made = makeProject();
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.stop();
    made.cleanup();
  });

  it('is refused on a write with a 400', async () => {
    addAttributes(made.contentDir, 'category', { when: { type: 'datetime' } });
    s = await startTestServer({ dir: made.dir });
    const res = await s.api('/api/categories', { method: 'POST', body: { data: { name: 'Near', when: 1e21 } } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    await s.stop();
    s = undefined;
  });

  it('held in a file, leaves the project opening and the other categories served', async () => {
    mkdirSync(join(made.contentDir, 'documents', 'categories'), { recursive: true });
    const id = 'cat00000000000000000000a';
    const published = {
      id: 1001,
      name: 'Far',
      slug: 'far',
      when: 2 ** 53,
      createdAt: at,
      updatedAt: at,
      publishedAt: at,
    };
    writeFileSync(
      join(made.contentDir, 'documents', 'categories', `${id}.json`),
      JSON.stringify({ documentId: id, published }),
    );
    s = await startTestServer({ dir: made.dir });
    const res = await s.api('/api/categories');
    expect(res.status).toBe(200);
  });
});
