import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';

/**
 * The watcher skips the changes this server made itself by the text of the file: a file that holds again a text
 * the server wrote earlier (a write undone by `git checkout`, `git stash`, `git rebase --abort`) is a change like
 * any other, and a text read before a write of the server replaced it is never served over that write.
 */
describe('a document file that holds again a text the server wrote', () => {
  let s: TestServer;
  let watcher: Watcher;
  const waiting: Array<{ file: string; seen: (what: string) => void }> = [];
  beforeAll(async () => {
    s = await startTestServer({ withExampleDocuments: true });
    watcher = await watchProject(s.project, {
      onChange: (c) => {
        for (const w of waiting.filter((w) => w.file === c.file)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.seen(c.problem ?? c.what);
        }
      },
    });
    await watcher.ready;
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const fileOf = (id: string) => join(s.contentDir, 'documents', 'articles', `${id}.json`);
  /** What the watcher says of `file` at its next change (a change the server made itself is not reported). */
  const nextReport = (file: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the watcher never reported ${file}`)), 10_000);
      waiting.push({
        file,
        seen: (what) => {
          clearTimeout(timer);
          resolve(what);
        },
      });
    });
  /** Another process replacing the file's text, as git does: a new file renamed over it. */
  const replace = (file: string, text: string) => {
    writeFileSync(`${file}.by-hand`, text);
    renameSync(`${file}.by-hand`, file);
  };
  const title = async (id: string) => (await s.api(`/api/articles/${id}`)).body.data.title as string;
  const write = async (id: string, data: Record<string, unknown>) => {
    expect((await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data } })).status).toBe(200);
    await s.project.documents.idle();
    return readFileSync(fileOf(id), 'utf8');
  };
  const create = async (data: Record<string, unknown>) => {
    const r = await s.api('/api/articles', { method: 'POST', body: { data } });
    expect(r.status).toBe(201);
    await s.project.documents.idle();
    return r.body.data.documentId as string;
  };

  it('serves an earlier write of its own that another process put back', async () => {
    const id = await create({ title: 'One' });
    const one = readFileSync(fileOf(id), 'utf8');
    await write(id, { title: 'Two' });
    expect(await title(id)).toBe('Two');
    const seen = nextReport(fileOf(id));
    replace(fileOf(id), one);
    expect(await seen).toBe('updated');
    expect(await title(id)).toBe('One');
  });

  it("serves the server's own text again once another process changed it and put it back", async () => {
    const id = await create({ title: 'Three' });
    const three = readFileSync(fileOf(id), 'utf8');
    let seen = nextReport(fileOf(id));
    replace(fileOf(id), three.replaceAll('"title": "Three"', '"title": "Edited"'));
    expect(await seen).toBe('updated');
    expect(await title(id)).toBe('Edited');
    seen = nextReport(fileOf(id));
    replace(fileOf(id), three);
    expect(await seen).toBe('updated');
    expect(await title(id)).toBe('Three');
  });
});

describe('a document file read by the watcher before a write of the server replaced it', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ withExampleDocuments: true });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('is not served over that write', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Four' } } });
    const id = created.body.data.documentId as string;
    await s.project.documents.idle();
    const four = readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8');
    // The watcher reads a hand edit, and its read answers only after the server wrote the file again.
    const handEdit = four.replaceAll('"title": "Four"', '"title": "Saved by hand"');
    const store = s.project.documents.store;
    const read = store.readTextAsync.bind(store);
    let answer!: () => void;
    store.readTextAsync = (pluralName, documentId) =>
      documentId === id ? new Promise((resolve) => (answer = () => resolve(handEdit))) : read(pluralName, documentId);
    try {
      const ct = s.project.documents.contentType('article');
      const reload = s.project.documents.reloadDocument(ct, id);
      expect((await s.api(`/api/articles/${id}`, { method: 'PUT', body: { data: { title: 'Five' } } })).status).toBe(
        200,
      );
      answer();
      expect(await reload).toBe('unchanged');
    } finally {
      store.readTextAsync = read;
    }
    expect((await s.api(`/api/articles/${id}`)).body.data.title).toBe('Five');
  });
});
