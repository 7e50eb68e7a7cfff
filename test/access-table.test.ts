import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, startTestServer, type ApiAnswer, type TestServer } from './helpers/project.js';
import { writePermissions } from './helpers/auth.js';
import type { Caller } from './helpers/callers.js';
import { RED_PNG } from './helpers/media.js';

/**
 * Who may call each route, as Strapi decides it: the public role (fixture permissions: reads of articles,
 * authors, categories, about, global), an authenticated user (the role's full CRUD on the blog, `users/me`), a
 * custom token (exactly its actions), a read-only token (every `find`/`findOne`) and a full-access token.
 * One row per route, one column per caller: a failed comparison shows the whole row.
 */
const CUSTOM_ACTIONS = [
  'api::tag.tag.find',
  'api::article.article.create',
  'plugin::upload.content-api.find',
  'plugin::i18n.locales.listLocales',
];
const CALLERS: Record<string, Caller> = {
  public: 'anonymous',
  authenticated: { user: 'reader' },
  custom: { custom: CUSTOM_ACTIONS },
  readOnly: 'read-only',
  fullAccess: 'full-access',
};

describe('access: each route for each kind of caller', () => {
  let s: TestServer;
  let article = '';
  let tag = '';
  let file = 0;
  let n = 0;

  beforeAll(async () => {
    s = await startTestServer();
    article = (await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Open' } } })).body.data
      .documentId;
    tag = (await s.api('/api/tags', { method: 'POST', body: { data: { name: 'kept' } } })).body.data.documentId;
    await s.api('/api/about', { method: 'PUT', body: { data: { title: 'About' } } });
    file = (await upload('full-access')).body[0].id;
  });
  afterAll(async () => {
    await s.stop();
  });

  const upload = (caller: Caller) => {
    const form = new FormData();
    form.append('files', new Blob([RED_PNG], { type: 'image/png' }), `red-${++n}.png`);
    return s.credentials(caller).then(async (headers) => {
      const res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers, body: form });
      return { status: res.status, body: await res.json() } as ApiAnswer;
    });
  };
  /** A document made for one request, so what one caller deletes or unpublishes is not gone for the next. */
  const doomed = async (plural: string, data: Record<string, unknown>) =>
    (await s.api(`/api/${plural}`, { method: 'POST', body: { data } })).body.data.documentId as string;

  type Row = [route: string, send: (c: Caller) => Promise<ApiAnswer>, want: Record<keyof typeof CALLERS, number>];
  const row = (
    route: string,
    send: (c: Caller) => Promise<ApiAnswer>,
    [pub, user, custom, ro, full]: number[],
  ): Row => [route, send, { public: pub, authenticated: user, custom, readOnly: ro, fullAccess: full }];

  const table: Row[] = [
    //                                                                        public user custom ro full
    row('GET /api/articles', (c) => s.api('/api/articles', { as: c }), [200, 200, 403, 200, 200]),
    row('GET /api/articles/:id', (c) => s.api(`/api/articles/${article}`, { as: c }), [200, 200, 403, 200, 200]),
    row(
      'POST /api/articles',
      (c) => s.api('/api/articles', { as: c, method: 'POST', body: { data: { title: `new ${++n}` } } }),
      [403, 201, 201, 403, 201],
    ),
    row(
      'PUT /api/articles/:id',
      (c) => s.api(`/api/articles/${article}`, { as: c, method: 'PUT', body: { data: {} } }),
      [403, 200, 403, 403, 200],
    ),
    row(
      'DELETE /api/articles/:id',
      async (c) =>
        s.api(`/api/articles/${await doomed('articles', { title: `x ${++n}` })}`, { as: c, method: 'DELETE' }),
      [403, 204, 403, 403, 204],
    ),
    row('GET /api/tags', (c) => s.api('/api/tags', { as: c }), [403, 200, 200, 200, 200]),
    row('GET /api/tags/:id', (c) => s.api(`/api/tags/${tag}`, { as: c }), [403, 200, 403, 200, 200]),
    row('GET /api/about', (c) => s.api('/api/about', { as: c }), [200, 200, 403, 200, 200]),
    row(
      'PUT /api/about',
      (c) => s.api('/api/about', { as: c, method: 'PUT', body: { data: { title: `About ${++n}` } } }),
      [403, 200, 403, 403, 200],
    ),
    row(
      'POST /_folio/content/articles/:id/unpublish',
      async (c) =>
        s.api(`/_folio/content/articles/${await doomed('articles', { title: `x ${++n}` })}/unpublish`, {
          as: c,
          method: 'POST',
        }),
      [403, 200, 403, 403, 200],
    ),
    // Who may create or update the type may ask whether a uid value is free (custom: articles' create).
    row(
      'POST /_folio/uid/check-availability',
      (c) =>
        s.api('/_folio/uid/check-availability', {
          as: c,
          method: 'POST',
          body: { contentTypeUID: 'api::article.article', field: 'slug', value: 'free' },
        }),
      [403, 200, 200, 403, 200],
    ),
    row('GET /api/upload/files', (c) => s.api('/api/upload/files', { as: c }), [403, 403, 200, 200, 200]),
    row('GET /api/upload/files/:id', (c) => s.api(`/api/upload/files/${file}`, { as: c }), [403, 403, 403, 200, 200]),
    // findPage is not a find: a read-only token may not call it.
    row('GET /api/upload/files/page', (c) => s.api('/api/upload/files/page', { as: c }), [403, 403, 403, 403, 200]),
    row('POST /api/upload', (c) => upload(c), [403, 403, 403, 403, 201]),
    row('GET /api/users', (c) => s.api('/api/users', { as: c }), [403, 403, 403, 200, 200]),
    // A token has no user: read-only lacks the `me` action (403), full access has it and finds no one (401).
    row('GET /api/users/me', (c) => s.api('/api/users/me', { as: c }), [403, 200, 403, 403, 401]),
    row(
      'GET /api/users-permissions/roles',
      (c) => s.api('/api/users-permissions/roles', { as: c }),
      [403, 403, 403, 200, 200],
    ),
    row('GET /api/i18n/locales', (c) => s.api('/api/i18n/locales', { as: c }), [403, 403, 200, 403, 200]),
    row(
      'GET /api/content-type-builder/content-types',
      (c) => s.api('/api/content-type-builder/content-types', { as: c }),
      [403, 403, 403, 403, 200],
    ),
    row('GET /api/openapi.json', (c) => s.api('/api/openapi.json', { as: c }), [200, 200, 200, 200, 200]),
    // Whether the project is in git and its merge driver set up: for any caller with credentials, not the public.
    row('GET /_folio/git/state', (c) => s.api('/_folio/git/state', { as: c }), [403, 200, 200, 200, 200]),
  ];

  it.each(Object.keys(CALLERS))('%s', async (who) => {
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const [route, send, expected] of table) {
      const res = await send(CALLERS[who]);
      got[route] = res.status;
      want[route] = expected[who as keyof typeof CALLERS];
      if (res.status === 403) expect(res.body.error, route).toMatchObject({ name: 'ForbiddenError' });
    }
    expect(got).toEqual(want);
  });
});

describe('a project whose permissions.json has no public role', () => {
  const made = makeProject();
  let s: TestServer;
  beforeAll(async () => {
    writePermissions(made.contentDir, { authenticated: ['api::article.article.find'] });
    s = await startTestServer({ dir: made.dir });
  });
  afterAll(async () => {
    await s.stop();
    made.cleanup();
  });

  it("gives anonymous callers a fresh Strapi's public grants: no content (403), the sign-in flows", async () => {
    const anonymous = await s.api('/api/articles', { as: 'anonymous' });
    expect([anonymous.status, anonymous.body.error.name]).toEqual([403, 'ForbiddenError']);
    const signIn = await s.api('/api/auth/local', {
      as: 'anonymous',
      method: 'POST',
      body: { identifier: 'x', password: 'y' },
    });
    expect([signIn.status, signIn.body.error.message]).toEqual([400, 'Invalid identifier or password']);
    expect((await s.api('/api/articles', { as: { user: 'reader' } })).status).toBe(200);
  });
});
