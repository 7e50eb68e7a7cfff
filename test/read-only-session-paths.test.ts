import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/**
 * A read-only server takes sign-in, renewal and sign-out (POSTs that write only its own sessions), and nothing
 * else on those paths: a content-type whose plural name is `auth` has routes there too.
 */
describe('a read-only server and the sign-in paths', () => {
  const p = makeProject();
  let s: TestServer;
  const file = join(p.contentDir, 'documents', 'auth', 'local.json');
  const before = () => readFileSync(file, 'utf8');
  let original = '';

  beforeAll(async () => {
    const schema = {
      kind: 'collectionType',
      collectionName: 'auth_entries',
      info: { singularName: 'authentry', pluralName: 'auth', displayName: 'Auth entry' },
      options: { draftAndPublish: false },
      attributes: { note: { type: 'string' } },
    };
    writeFileSync(join(p.contentDir, 'types', 'authentry.json'), `${JSON.stringify(schema, null, 2)}\n`);
    mkdirSync(join(p.contentDir, 'documents', 'auth'), { recursive: true });
    const doc = { documentId: 'local', published: { id: 1, note: 'kept', createdAt: '2026-01-01T00:00:00.000Z' } };
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    original = before();
    s = await startTestServer({ dir: p.dir, app: { readOnly: true } });
  });
  afterAll(async () => {
    await s.stop();
    p.cleanup();
  });

  it('refuses PUT and DELETE on them with 403 and leaves the file as it was', async () => {
    for (const path of ['/api/auth/local', '/api/auth/refresh', '/api/auth/logout']) {
      const put = await s.api(path, { method: 'PUT', body: { data: { note: 'overwritten' } } });
      expect(put.status, path).toBe(403);
      expect(put.body.error.message).toMatch(/read-only/);
      const del = await s.api(path, { method: 'DELETE' });
      expect(del.status, path).toBe(403);
    }
    expect(existsSync(file)).toBe(true);
    expect(before()).toBe(original);
  });

  it('still answers a sign-in POST as the sign-in route does (not as a refused write)', async () => {
    const r = await s.api('/api/auth/local', {
      method: 'POST',
      anonymous: true,
      body: { identifier: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Invalid identifier or password');
  });
});
