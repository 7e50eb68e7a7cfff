import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startTestServer, type TestServer } from './helpers/project.js';
import { form, png } from './helpers/media.js';

/**
 * Numeric ids are never given again after a delete, as Strapi's SQL auto-increments: a client caching by id
 * would otherwise show a deleted file's (or user's) data for a new one. Across processes too: the CLI run
 * while a server runs. No watcher here: the ids must not depend on the server having seen the CLI's files.
 */

const run = promisify(execFile);

/** The CLI in a process of its own, with `--json`. */
async function folio(dir: string, args: string[]) {
  const r = await run(process.execPath, [BIN, '--dir', dir, ...args, '--json'], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  return JSON.parse(r.stdout);
}

describe('ids of media files, users and API tokens are never reused', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    writeFileSync(join(s.dir, 'cli.png'), png(7, 7, [0, 0, 250]));
  });
  afterAll(async () => {
    await s.stop();
  });

  let shade = 0;
  const upload = async (server = s): Promise<number> => {
    shade += 20;
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: server.auth,
      body: form([{ name: `f${shade}.png`, type: 'image/png', data: png(4, 4, [shade, 0, 0]) }]),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as Array<{ id: number }>)[0].id;
  };
  const removeFile = async (id: number) =>
    expect((await s.api(`/api/upload/files/${id}`, { method: 'DELETE' })).status).toBe(200);

  it('gives a new media file a new id after the last one was deleted, by a server started since too', async () => {
    const first = await upload();
    expect(first).toBe(1);
    await removeFile(first);
    // A server started now finds no file on disk to count from.
    const later = await startTestServer({ dir: s.dir });
    try {
      expect(await upload(later)).toBe(2);
    } finally {
      await later.stop();
    }
  });

  it('does so across a CLI add and rm while the server runs', async () => {
    const [added] = await folio(s.dir, ['media', 'add', join(s.dir, 'cli.png')]);
    expect(added.id).toBe(3);
    await folio(s.dir, ['media', 'rm', String(added.id)]);
    // The server never saw file 3, yet does not give its id.
    expect(await upload()).toBe(4);
    await removeFile(4);
    const [again] = await folio(s.dir, ['media', 'add', join(s.dir, 'cli.png')]);
    expect(again.id).toBe(5);
  });

  it('never gives one id twice to files added at once by the server and by CLI processes', async () => {
    const cli = () =>
      folio(s.dir, ['media', 'add', join(s.dir, 'cli.png')]).then((r: Array<{ id: number }>) => r[0].id);
    const ids = await Promise.all([cli(), upload(), cli(), upload(), cli(), upload()]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.min(...ids)).toBe(6);
  });

  it('gives a new user a new id after the last one was deleted, over HTTP and from the CLI', async () => {
    const create = async (name: string) => {
      const res = await s.api('/api/users', {
        method: 'POST',
        body: { username: name, email: `${name}@example.com`, password: 'secret-pass', role: 1 },
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const a = await create('ada');
    await s.api(`/api/users/${a}`, { method: 'DELETE' });
    const b = await create('bea');
    expect(b).toBe(a + 1);
    await s.api(`/api/users/${b}`, { method: 'DELETE' });
    const c = await folio(s.dir, [
      'users',
      'create',
      '--username',
      'cid',
      '--email',
      'cid@example.com',
      '--password',
      'secret-pass',
    ]);
    expect(c.id).toBe(b + 1);
  });

  it('gives a new API token a new id after the last one was revoked', async () => {
    const t = await folio(s.dir, ['tokens', 'create', '--name', 'one', '--type', 'read-only']);
    await folio(s.dir, ['tokens', 'revoke', 'one']);
    const u = await folio(s.dir, ['tokens', 'create', '--name', 'two', '--type', 'read-only']);
    expect(u.id).toBe(t.id + 1);
  });
});
