import { execFile } from 'node:child_process';
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startTestServer, type TestServer } from './helpers/project.js';
import { RED_PNG } from './helpers/media.js';
import { watchProject, type Watcher } from '../src/watch/watcher.js';
import { eventually } from './helpers/eventually.js';

const run = promisify(execFile);
const folio = (dir: string, args: string[]) =>
  run(process.execPath, [BIN, '--dir', dir, ...args], { env: { ...process.env, NO_COLOR: '1' } });

/**
 * `content/documents/` going away and coming back (a checkout of a branch without it, a removal) must not stop
 * the server from following the media library, which is watched beside the collections' folders.
 */
describe('the media library after content/documents/ went away and came back', () => {
  let s: TestServer;
  let watcher: Watcher;
  beforeAll(async () => {
    s = await startTestServer();
    watcher = await watchProject(s.project, { onChange: () => undefined });
    await watcher.ready;
    writeFileSync(join(s.dir, 'some.png'), RED_PNG);
  });
  afterAll(async () => {
    await watcher.close();
    await s.stop();
  });

  const served = async () => ((await s.api('/api/upload/files')).body as unknown[]).length;
  const records = () => readdirSync(join(s.contentDir, 'uploads', '_records')).length;

  it('still shows what another process adds', async () => {
    expect((await s.api('/api/tags', { method: 'POST', body: { data: { name: 'one' } } })).status).toBe(201);
    const tags = async () => ((await s.api('/api/tags')).body.data as unknown[]).length;
    await folio(s.dir, ['media', 'add', join(s.dir, 'some.png')]);
    await eventually(async () => (await served()) === 1, 'the added file listed');
    const documents = join(s.contentDir, 'documents');
    renameSync(documents, `${documents}.away`);
    await eventually(async () => (await tags()) === 0, 'no tag once documents/ is gone');
    renameSync(`${documents}.away`, documents);
    await eventually(async () => (await tags()) === 1, 'the tag once documents/ is back');
    await folio(s.dir, ['media', 'add', join(s.dir, 'some.png')]);
    expect(records()).toBe(2);
    await eventually(async () => (await served()) === 2, 'the second file listed');
  });
});
