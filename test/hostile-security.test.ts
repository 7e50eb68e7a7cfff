import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, createApiToken } from '../src/auth/service.js';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * Hostile input of issue 31, in tables: values built to make a regex backtrack (each one held the event loop for
 * minutes to hours on the code before, so it runs against a `folio serve` of its own: a request that hangs fails
 * the test by its timeout and cannot freeze the test process), XML that a browser runs as script, blocks links to
 * other sites, and the security headers of every kind of page.
 */

/** Just under the 1 MB body limit: the longest value one request can carry. */
const LONG = 1024 * 1024 - 200;
const emailBomb = `a@${'.'.repeat(LONG)} `;

interface RedosRow {
  name: string;
  method: string;
  path: string;
  body: unknown;
  /** Send the full-access token (by default rows are anonymous). */
  token?: boolean;
  status: number;
  message?: string;
}

const redosRows: RedosRow[] = [
  {
    name: 'forgot-password e-mail of a million dots',
    method: 'POST',
    path: '/api/auth/forgot-password',
    body: { email: emailBomb },
    status: 400,
    message: 'email must be a valid email',
  },
  {
    name: 'send-email-confirmation e-mail of a million dots',
    method: 'POST',
    path: '/api/auth/send-email-confirmation',
    body: { email: emailBomb },
    status: 400,
    message: 'email must be a valid email',
  },
  {
    name: 'register e-mail of a million dots',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { username: 'mallory', email: emailBomb, password: 'mallory-pass' },
    status: 400,
    message: 'email must be a valid email',
  },
  {
    name: 'users create e-mail of a million dots',
    method: 'POST',
    path: '/api/users',
    body: { username: 'mallory', email: emailBomb, password: 'mallory-pass', role: 'authenticated' },
    token: true,
    status: 400,
  },
  {
    name: 'users update e-mail of a million dots',
    method: 'PUT',
    path: '/api/users/1',
    body: { email: emailBomb },
    token: true,
    status: 400,
  },
  {
    name: 'an e-mail of 300 characters, each piece fine',
    method: 'POST',
    path: '/api/auth/forgot-password',
    body: { email: `${'a'.repeat(250)}@example.com` },
    status: 400,
    message: 'email must be a valid email',
  },
  {
    name: 'a schema pattern tried on a value of a million characters',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Pattern', slug: `${'a-'.repeat(LONG / 4)}!` } },
    token: true,
    status: 400,
  },
];

const XHTML = 'http://www.w3.org/1999/xhtml';
const PROLOG = '<?xml version="1.0"?>\n';
/** XML a browser runs as script once it is served as XML: refused, or stored as plain text. */
const xmlRows: Array<[string, string, 'refused' | 'text']> = [
  ['an XHTML script in a plain root', `<root><x:script xmlns:x="${XHTML}">alert(1)</x:script></root>`, 'text'],
  ['the same with an XML prolog', `${PROLOG}<root><x:script xmlns:x="${XHTML}">alert(1)</x:script></root>`, 'text'],
  ['a prefixed XHTML root', `${PROLOG}<x:html xmlns:x="${XHTML}"><x:script>alert(1)</x:script></x:html>`, 'refused'],
  ['a prefixed XHTML root, no prolog', `<h:html xmlns:h="${XHTML}"><h:body/></h:html>`, 'refused'],
  [
    'a prefixed SVG root',
    `${PROLOG}<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></s:svg>`,
    'refused',
  ],
  ['an XSLT stylesheet instruction', `${PROLOG}<?xml-stylesheet type="text/xsl" href="#x"?><doc/>`, 'text'],
  ['a plain feed', `${PROLOG}<rss version="2.0"><channel><title>t</title></channel></rss>`, 'text'],
];

/** Blocks links: what a front end would take for a path of its site but a browser opens on another. */
const linkRows: Array<[string, number]> = [
  ['//evil.example/phish', 400],
  ['/\\evil.example', 400],
  ['/\t/evil.example', 400],
  ['/\n/evil.example', 400],
  ['/about', 201],
  ['/a//b', 201],
  ['https://example.com/x', 201],
  ['mailto:ada@example.com', 201],
];

/** One of each kind of page the server answers, as `[name, path]`: each carries the security headers. */
const pages: Array<[string, string]> = [
  ['the Studio', '/admin'],
  ['a Studio screen', '/admin/content/articles'],
  ['the API documentation', '/documentation'],
  ['its script', '/documentation/init.js'],
  ['the OpenAPI document', '/api/openapi.json'],
  ['the API index', '/api'],
  ['a list of documents', '/api/articles'],
  ['a 404', '/api/nothing-here'],
  ['a 400', '/api/articles?nonsense=1'],
  ['the root redirect', '/'],
  ['the health check', '/_health'],
];

describe('hostile input of issue 31', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  let token: string;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${serve.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    made = makeProject({ config: { users: { ratelimit: { enabled: false } } } });
    // A schema pattern: a value longer than the bound is refused before the pattern runs. (A pattern that
    // backtracks super-linearly is refused when the schema is loaded, so this one is linear.)
    const file = `${made.contentDir}/types/article.json`;
    const { readFileSync, writeFileSync } = await import('node:fs');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.attributes.slug = { type: 'text', regex: '^[a-z-]*$' };
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    token = (await createApiToken(made.dir, { name: 'hostile', type: 'full-access' })).accessKey;
    await new AuthService(made.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'ada-pass-1' });
    serve = await spawnServe(made.dir);
  });
  afterAll(async () => {
    await serve?.stop();
    made?.cleanup();
  });

  it.each(redosRows.map((r) => [r.name, r] as const))('ReDoS: %s', async (_name, row) => {
    const res = await call(row.method, row.path, row.body, row.token ? { authorization: `Bearer ${token}` } : {});
    expect(res.status, res.text.slice(0, 200)).toBe(row.status);
    const { data, error } = res.json();
    expect(data).toBeNull();
    expect(error.name).toBe('ValidationError');
    if (row.message) expect(error.message).toBe(row.message);
    expect((await fetch(`${serve.base}/_health`)).status).toBe(204);
  });

  it.each(xmlRows)('uploads: %s', async (_name, content, expected) => {
    const form = new FormData();
    form.append('files', new Blob([content], { type: 'application/xml' }), 'data.xml');
    const res = await fetch(`${serve.base}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = await res.json();
    if (expected === 'refused') {
      expect(res.status).toBe(400);
      expect(body.error.message).toMatch(/^File type '(application\/xhtml\+xml|image\/svg\+xml)' is not allowed$/);
      return;
    }
    expect(res.status).toBe(201);
    expect(body[0].mime).toBe('text/plain');
    expect(body[0].ext).toBe('.txt');
    const served = await fetch(`${serve.base}${body[0].url}`);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await served.text()).toBe(content);
  });

  it.each(linkRows)('blocks link %j', async (url, status) => {
    const body = [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', text: 'here' }] }] }];
    const res = await call(
      'POST',
      '/api/articles',
      { data: { title: 'Link', body } },
      { authorization: `Bearer ${token}` },
    );
    expect(res.status, res.text.slice(0, 200)).toBe(status);
  });

  it.each(pages)('security headers on %s', async (_name, path) => {
    const res = await fetch(`${serve.base}${path}`, { redirect: 'manual' });
    await res.arrayBuffer();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(['DENY', 'SAMEORIGIN']).toContain(res.headers.get('x-frame-options'));
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/frame-ancestors '(self|none)'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/form-action '(self|none)'/);
  });

  it('gives a stored file a sandbox and the Studio a policy that loads images and posts forms only here', async () => {
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const up = await fetch(`${serve.base}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const [file] = await up.json();
    const served = await fetch(`${serve.base}${file.url}`);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const studio = (await fetch(`${serve.base}/admin`)).headers.get('content-security-policy') ?? '';
    expect(studio).toContain("form-action 'self'");
    expect(studio).toMatch(/img-src 'self' data: blob:(;|$)/);
    expect(studio).not.toContain('https:');
  });

  it('still takes a good e-mail address', async () => {
    const res = await call('POST', '/api/auth/forgot-password', { email: 'ada@example.com' });
    expect(res.status).toBe(200);
  });
});
