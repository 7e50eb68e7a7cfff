import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../src/auth/service.js';
import { bearer, writePermissions } from './helpers/auth.js';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/** `GET /_folio/studio/permissions`: what the caller may do, so the Studio shows only that. */
describe('the Studio’s permissions route', () => {
  let s: TestServer;
  let jwt: string;
  beforeAll(async () => {
    const made = makeProject();
    writePermissions(made.contentDir, {
      public: ['api::article.article.find'],
      writer: ['api::article.article.find', 'api::article.article.update', 'plugin::upload.content-api.upload'],
    });
    await new AuthService(made.dir).createUser({
      username: 'writer',
      email: 'writer@example.com',
      password: 'writer-pass',
      role: 'writer',
    });
    s = await startTestServer({ dir: made.dir });
    const auth = new AuthService(made.dir);
    jwt = (await auth.issue(auth.userByEmail('writer@example.com')!, null)).jwt;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('lists a user’s role actions, the public role’s for no one, everything for a full-access token', async () => {
    const mine = await s.api('/_folio/studio/permissions', { headers: bearer(jwt) });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([
      'api::article.article.find',
      'api::article.article.update',
      'plugin::upload.content-api.upload',
    ]);
    expect((await s.api('/_folio/studio/permissions', { anonymous: true })).body.data).toEqual([
      'api::article.article.find',
    ]);
    const all = (await s.api('/_folio/studio/permissions')).body.data as string[];
    expect(all).toContain('api::tag.tag.delete');
    expect(all).toContain('plugin::content-type-builder.content-types.getContentTypes');
    expect((await s.api('/_folio/studio/permissions', { headers: bearer('not-a-token') })).status).toBe(401);
    expect((await s.api('/_folio/studio/permissions', { method: 'POST' })).status).toBe(405);
  });
});
