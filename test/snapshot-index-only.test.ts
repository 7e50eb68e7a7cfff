import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer } from './helpers/project.js';
import { SNAPSHOT, age, snapshot } from './helpers/snapshot.js';

/**
 * The start-up snapshot is an index cache: ids, stamps and summaries, no document texts. A restart indexes
 * unchanged files from it and reads their values from the files themselves on first use.
 */
describe('the start-up snapshot', () => {
  const made = makeProject({ withExampleDocuments: true });
  const articles = join(made.contentDir, 'documents', 'articles');
  let total = 0;
  beforeAll(async () => {
    age(made.contentDir);
    total = await snapshot(made.dir);
  });
  afterAll(() => made.cleanup());

  it('records no document text', () => {
    const snapshot = readFileSync(SNAPSHOT(made.dir)).toString('latin1');
    let bytes = 0;
    for (const name of readdirSync(articles)) {
      const text = readFileSync(join(articles, name), 'utf8');
      bytes += text.length;
      const title = /"title": "([^"]+)"/.exec(text)![1];
      expect(snapshot).not.toContain(title);
    }
    expect(snapshot.length).toBeLessThan(bytes / 4);
  });

  it('gives a restart the values of the files as they are, read on first use', async () => {
    // Edited in place to the same size and given its old mtime back: the stamp is the one recorded, so the
    // document is indexed from its summary; its values can only come from the file.
    const [name] = readdirSync(articles);
    const file = join(articles, name);
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    const title = /"title": "([^"]+)"/.exec(text)![1];
    const edited = 'Q'.repeat(title.length);
    writeFileSync(file, text.replaceAll(`"title": "${title}"`, `"title": "${edited}"`));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);

    const s = await startTestServer({ dir: made.dir });
    try {
      expect(s.project.report.fromSnapshot).toBe(total);
      const res = await s.api(`/api/articles/${name.slice(0, -'.json'.length)}?status=draft`);
      expect(res.status).toBe(200);
      expect(res.body.data.title).toBe(edited);
    } finally {
      await s.stop();
    }
  });
});
