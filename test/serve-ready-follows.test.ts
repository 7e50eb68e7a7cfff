import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { articleVersion } from './helpers/article-files.js';
import { eventually } from './helpers/eventually.js';

/**
 * `folio serve`'s ready line means the files are followed: a script that starts the server, waits for the line
 * and then edits content (a build step, a test harness) sees its edit in the API, the first edit included.
 */
const TS = '2026-01-01T00:00:00.000Z';
const EXISTING = 'readylineexisting0000001';
const ADDED = 'readylineadded0000000001';

function writeArticle(contentDir: string, documentId: string, id: number, title: string) {
  const dir = join(contentDir, 'documents', 'articles');
  mkdirSync(dir, { recursive: true });
  const draft = articleVersion(id, { title }, TS, false);
  const en = { draft, published: articleVersion(id + 1, { title }, TS, true) };
  writeFileSync(join(dir, `${documentId}.json`), `${JSON.stringify({ documentId, locales: { en } }, null, 2)}\n`);
}

const titleOf = async (base: string, documentId: string) => {
  const res = await fetch(`${base}/api/articles/${documentId}`);
  return res.status === 200 ? ((await res.json()) as { data: { title: string } }).data.title : res.status;
};

describe('files edited the moment serve says it is ready', () => {
  let made: ReturnType<typeof makeProject>;
  let server: ServeProcess;

  beforeAll(async () => {
    made = makeProject();
    writeArticle(made.contentDir, EXISTING, 1, 'Before the start');
    server = await spawnServe(made.dir, ['--no-snapshot']);
    // Written as soon as the ready line is read, before anything else is asked of the server.
    writeArticle(made.contentDir, EXISTING, 1, 'Edited at the ready line');
    writeArticle(made.contentDir, ADDED, 10, 'Added at the ready line');
  });
  afterAll(async () => {
    await server?.stop();
    made?.cleanup();
  });

  it('serves a document file changed and one added right after the ready line', async () => {
    await eventually(async () => (await titleOf(server.base, ADDED)) === 'Added at the ready line', 'the added file');
    await eventually(
      async () => (await titleOf(server.base, EXISTING)) === 'Edited at the ready line',
      'the edited file',
    );
    expect(await titleOf(server.base, EXISTING)).toBe('Edited at the ready line');
  });
});
