import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/project.js';
import type { Caller } from './helpers/callers.js';

/**
 * Read answers are cached, and a populated relation shows only where the caller may `find` its target: a cached
 * answer must never reach a caller who may see less (another custom token, another role) nor outlive a change
 * of the permissions. Each case reads the same URL as two callers, the richer one first, so that its answer is
 * the one cached.
 */
describe('cached answers are kept per caller', () => {
  let s: TestServer;
  const URL = '/api/articles?fields[0]=title&populate[author][fields][0]=name';
  const authors = (body: { data: Array<{ author?: { name: string } | null }> }) =>
    body.data.map((a) => a.author?.name ?? null);

  beforeAll(async () => {
    s = await startTestServer();
    const ada = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } })).body.data.documentId;
    await s.api('/api/articles', { method: 'POST', body: { data: { title: 'By Ada', author: ada } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  // Asked three times, so that the answer is held (an answer is kept when its URL is asked again).
  const read = async (caller: Caller) => {
    const names = [];
    for (let i = 0; i < 3; i++) {
      const res = await s.api(URL, { as: caller });
      expect(res.status).toBe(200);
      names.push(authors(res.body));
    }
    expect(names[1]).toEqual(names[0]);
    expect(names[2]).toEqual(names[0]);
    return names[0];
  };

  it('a custom token without author.find gets no author, after one with it read the same URL', async () => {
    expect(await read({ custom: ['api::article.article.find', 'api::author.author.find'] })).toEqual(['Ada']);
    expect(await read({ custom: ['api::article.article.find'] })).toEqual([null]);
    // And the other way round, each from its own cached answer.
    expect(await read({ custom: ['api::article.article.find', 'api::author.author.find'] })).toEqual(['Ada']);
  });

  it('a user whose role lacks author.find gets no author, after tokens and other roles read it', async () => {
    const created = await s.api('/api/users-permissions/roles', {
      method: 'POST',
      body: {
        name: 'Limited',
        description: 'Articles only',
        permissions: { 'api::article': { controllers: { article: { find: { enabled: true } } } } },
      },
    });
    expect(created.status).toBe(200);
    const roles = JSON.parse(readFileSync(join(s.contentDir, 'permissions.json'), 'utf8')).roles;
    expect(roles.limited.permissions).toEqual(['api::article.article.find']);
    expect(await read('full-access')).toEqual(['Ada']);
    expect(await read('read-only')).toEqual(['Ada']);
    // The fixture's public and authenticated roles may read articles and authors.
    expect(await read('anonymous')).toEqual(['Ada']);
    expect(await read({ user: 'reader' })).toEqual(['Ada']);
    expect(await read({ user: 'limited', role: 'limited' })).toEqual([null]);
  });

  it('a change of the permissions ends the answers cached under the old ones', async () => {
    expect(await read('anonymous')).toEqual(['Ada']);
    const list = (await s.api('/api/users-permissions/roles')).body.roles as Array<{ id: number; type: string }>;
    const pub = list.find((r) => r.type === 'public')!;
    const res = await s.api(`/api/users-permissions/roles/${pub.id}`, {
      method: 'PUT',
      body: { permissions: { 'api::article': { controllers: { article: { find: { enabled: true } } } } } },
    });
    expect(res.status).toBe(200);
    expect(await read('anonymous')).toEqual([null]);
  });
});
