import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/** `docs get` of a document with no published version says so without claiming it never had one. */
describe('docs get after unpublish', () => {
  let made: ReturnType<typeof makeProject>;
  beforeAll(() => {
    made = makeProject();
  });
  afterAll(() => made.cleanup());
  const folio = (args: string[]) => runFolio([...args, '--dir', made.dir]);

  it('names the missing published version, not a history it does not know', async () => {
    const created = await folio(['docs', 'create', 'articles', '--data', '{"title":"Was live"}', '--json']);
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).data.documentId as string;
    expect((await folio(['docs', 'unpublish', 'articles', id])).code).toBe(0);
    const got = await folio(['docs', 'get', 'articles', id]);
    expect(got.code).not.toBe(0);
    expect(got.stderr).not.toContain('never published');
    expect(got.stderr).toMatch(new RegExp(`^Error: article ${id} has no published version in en, only a draft: `));
    expect(got.stderr).toContain('pass --status draft');
  });
});
