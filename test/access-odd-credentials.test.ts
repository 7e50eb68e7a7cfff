import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { writePermissions } from './helpers/auth.js';

/**
 * Credentials as clients and hand edits leave them: a bearer header spaced otherwise than usual is still the
 * caller's (Strapi splits it on any run of whitespace), and a user whose role is no longer in permissions.json
 * (taken out by hand, or by a merge) may do nothing, rather than everything or a server error.
 */
describe('credentials written oddly', () => {
  const made = makeProject();
  let s: TestServer;

  beforeAll(async () => {
    // Anonymous callers may read articles, authenticated users tags too; an `editor` role existed once.
    writePermissions(made.contentDir, {
      public: ['api::article.article.find'],
      authenticated: ['api::article.article.find', 'api::tag.tag.find'],
    });
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  /** GET /api/tags with this Authorization header, sent as written (no client normalises it). */
  const tagsWith = (authorization: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${s.url}/api/tags`, { headers: { authorization } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });

  it('takes a bearer value after several spaces or a tab', async () => {
    const { jwt } = await s.user('spaced');
    expect(await tagsWith(`Bearer ${jwt}`)).toBe(200);
    expect(await tagsWith(`Bearer   ${jwt}`)).toBe(200);
    expect(await tagsWith(`bearer\t${jwt}`)).toBe(200);
    expect(await tagsWith(`Bearer ${jwt}  `)).toBe(200);
    // Anything else is not a bearer value: the request is anonymous, and anonymous callers may not read tags.
    expect(await tagsWith(`Bearer ${jwt} extra`)).toBe(403);
    expect(await tagsWith(`Basic ${jwt}`)).toBe(403);
  });

  it('gives a user whose role is gone from permissions.json no access: 403, not 500', async () => {
    const orphan = { user: 'orphan', role: 'editor' } as const;
    expect((await s.api('/api/articles', { as: orphan })).status).toBe(403);
    expect((await s.api('/api/tags', { as: orphan })).status).toBe(403);
    // A user of a role that exists reads what that role may.
    expect((await s.api('/api/tags', { as: { user: 'orphan-no-more' } })).status).toBe(200);
  });
});
