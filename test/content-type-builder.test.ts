import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, TEST_FIXTURES, makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { Normaliser } from './replay/normalise.js';
import { createApiToken } from '../src/auth/service.js';

/** Strapi 5.54's answers for the blog model with a full-access token (strapi-recordings/README.md). */
const recorded = (name: string) =>
  JSON.parse(
    readFileSync(
      join(TEST_FIXTURES, 'strapi-recordings', 'content-type-builder', `content-type-builder-${name}.json`),
      'utf8',
    ),
  ) as { data: Array<{ uid: string; schema: { kind?: string } }> };
const normalise = (v: unknown) => new Normaliser().value(v);
const byUid = (a: { uid: string }, b: { uid: string }) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);

describe('content-type-builder read routes', () => {
  let p: ReturnType<typeof makeProject>;
  let s: TestServer;
  let readOnly: string;
  let componentsOnly: string;
  const as = (token: string | undefined) => (token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const get = (path: string, token?: string) =>
    s.api(`/api/content-type-builder/${path}`, token === undefined ? {} : { ...as(token), anonymous: !token });

  beforeAll(async () => {
    p = makeProject();
    // Public is granted the content-types list (and nothing else of the builder) the way a user would.
    execFileSync('node', [
      BIN,
      'permissions',
      'grant',
      '--role',
      'public',
      'plugin::content-type-builder.content-types.getContentTypes',
      '--dir',
      p.dir,
    ]);
    readOnly = (await createApiToken(p.dir, { name: 'ro', type: 'read-only' })).accessKey;
    componentsOnly = (
      await createApiToken(p.dir, {
        name: 'components',
        type: 'custom',
        actions: [
          'plugin::content-type-builder.components.getComponents',
          'plugin::content-type-builder.components.getComponent',
        ],
      })
    ).accessKey;
    s = await startTestServer({ dir: p.dir });
  });
  afterAll(async () => {
    await s.stop();
    p.cleanup();
  });

  it('lists every content-type as Strapi does, plugin types included', async () => {
    const res = await get('content-types');
    expect(res.status).toBe(200);
    expect(normalise(res.body)).toEqual(normalise(recorded('content-types')));
    // Strapi's own order: its plugins' types, the project's, then the admin's.
    expect(res.body.data.map((t: { uid: string }) => t.uid)).toEqual(recorded('content-types').data.map((t) => t.uid));
  });

  it('filters by kind, and refuses another kind with a ValidationError', async () => {
    for (const kind of ['collectionType', 'singleType']) {
      const res = await get(`content-types?kind=${kind}`);
      expect(res.status).toBe(200);
      expect(normalise(res.body.data)).toEqual(
        normalise(recorded('content-types').data.filter((t) => (t.schema.kind ?? 'collectionType') === kind)),
      );
    }
    const bad = await get('content-types?kind=component');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: {
        name: 'ValidationError',
        message: 'this must be one of the following values: singleType, collectionType',
        details: {
          errors: [
            {
              path: [],
              message: 'this must be one of the following values: singleType, collectionType',
              name: 'ValidationError',
              value: 'component',
            },
          ],
        },
      },
    });
  });

  it('answers one content-type by uid (written plainly or URL-encoded), and 404 for an unknown one', async () => {
    const article = recorded('content-types').data.find((t) => t.uid === 'api::article.article');
    for (const uid of ['api::article.article', encodeURIComponent('api::article.article')]) {
      const res = await get(`content-types/${uid}`);
      expect(res.status).toBe(200);
      expect(normalise(res.body)).toEqual(normalise({ data: article }));
    }
    const user = await get('content-types/plugin::users-permissions.user');
    expect(user.body.data).toMatchObject({ uid: 'plugin::users-permissions.user', plugin: 'users-permissions' });
    const missing = await get('content-types/api::nope.nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'contentType.notFound' });
  });

  it('lists the components and answers one by uid, 404 for an unknown one', async () => {
    const res = await get('components');
    expect(res.status).toBe(200);
    // Strapi lists them in the order it loaded them; Folio by category and name.
    expect(normalise([...res.body.data].sort(byUid))).toEqual(normalise([...recorded('components').data].sort(byUid)));
    const seo = await get('components/shared.seo');
    expect(seo.status).toBe(200);
    expect(normalise(seo.body)).toEqual(
      normalise({ data: recorded('components').data.find((c) => c.uid === 'shared.seo') }),
    );
    const missing = await get('components/shared.nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'component.notFound' });
  });

  it('lets a full-access token in, keeps a read-only token and Public out unless granted', async () => {
    for (const path of ['content-types', 'content-types/api::tag.tag', 'components', 'components/shared.seo']) {
      expect((await get(path)).status).toBe(200);
      const ro = await get(path, readOnly);
      expect(ro.status).toBe(403);
      expect(ro.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    }
    // Public was granted the list only; a custom token the two component routes only.
    expect((await get('content-types', '')).status).toBe(200);
    for (const path of ['content-types/api::tag.tag', 'components', 'components/shared.seo']) {
      const pub = await get(path, '');
      expect(pub.status).toBe(403);
      expect(pub.body.error.name).toBe('ForbiddenError');
    }
    expect((await get('components', componentsOnly)).status).toBe(200);
    expect((await get('components/shared.seo', componentsOnly)).status).toBe(200);
    expect((await get('content-types', componentsOnly)).status).toBe(403);
    // Unknown uids are forbidden before they are looked up, as Strapi checks the route's action first.
    expect((await get('content-types/api::nope.nope', componentsOnly)).status).toBe(403);
  });

  it("lists its four actions in users-permissions' permissions tree, for roles to be granted", async () => {
    const res = await s.api('/api/users-permissions/permissions');
    expect(res.status).toBe(200);
    expect(res.body.permissions['plugin::content-type-builder']).toEqual({
      controllers: {
        'content-types': {
          getContentTypes: { enabled: false, policy: '' },
          getContentType: { enabled: false, policy: '' },
        },
        components: {
          getComponents: { enabled: false, policy: '' },
          getComponent: { enabled: false, policy: '' },
        },
      },
    });
  });

  it('serves its four read routes only', async () => {
    const res = await get('content-types?kind=singleType');
    expect(res.body.data.map((t: { uid: string }) => t.uid)).toEqual(['api::about.about', 'api::global.global']);
    expect((await s.api('/api/content-type-builder/nothing')).status).toBe(404);
    expect((await s.api('/api/content-type-builder/content-types', { method: 'POST', body: {} })).status).toBe(405);
  });
});
