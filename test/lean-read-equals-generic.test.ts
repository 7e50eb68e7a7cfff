import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { toNodeListener } from 'h3';
import { createFolioApp } from '../src/http/app.js';
import { serverOptions } from '../src/http/compose.js';
import { startTestServer, type TestServer } from './helpers/project.js';
import type { Caller } from './helpers/callers.js';

/** An answer as it came over the wire: status, headers in their order (but the date), its body's size and digest. */
interface Wire {
  status: number;
  headers: string[];
  body: string;
}

function ask(base: string, method: string, path: string, headers: Record<string, string>): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const kept: string[] = [];
        for (let i = 0; i < raw.length; i += 2)
          if (raw[i].toLowerCase() !== 'date') kept.push(`${raw[i]}: ${raw[i + 1]}`);
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode!,
          headers: kept,
          body: `${body.length} ${createHash('sha1').update(body).digest('hex')}`,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `folio serve` answers a read of the content API on a lean path, without h3's event and response machinery. Every
 * observable byte must be what the generic path (the h3 app an embedding program gets) answers: status, headers
 * and their order, body, for callers of every kind, cached and uncached, compressed, conditional, HEAD and errors.
 */
describe('a read on the lean path answers exactly what the h3 app answers', () => {
  let s: TestServer;
  let generic: Server;
  let genericBase: string;
  let articleId: string;

  beforeAll(async () => {
    s = await startTestServer({
      config: { server: { cors: { origin: ['https://site.example'], credentials: true }, trustProxy: true } },
    });
    const author = (await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ada' } } })).body.data;
    for (let i = 0; i < 30; i++) {
      const created = await s.api('/api/articles', {
        method: 'POST',
        body: {
          data: {
            title: `Article ${i}`,
            description: 'words '.repeat((i % 9) * 5),
            views: i,
            author: author.documentId,
          },
        },
      });
      expect(created.status, created.text).toBe(201);
      articleId = created.body.data.documentId;
    }
    await s.api('/api/about', { method: 'PUT', body: { data: { title: 'About' } } });
    const app = createFolioApp(s.project, { log: () => undefined, ...(await serverOptions(s.project)) });
    generic = createServer(toNodeListener(app));
    await new Promise<void>((resolve) => generic.listen(0, '127.0.0.1', resolve));
    genericBase = `http://127.0.0.1:${(generic.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => generic.close(resolve));
    await s.stop();
  });

  const paths = [
    '/api/articles',
    '/api/articles?sort=title:asc&pagination[pageSize]=5&pagination[page]=2',
    '/api/articles?populate=author&fields[0]=title',
    '/api/articles?filters[title][$contains]=Article%201',
    '/api/articles/',
    '/api/articles//',
    '/api/Articles',
    '/API/articles',
    '/api/articles?filters[nope][$eq]=1',
    '/api/articles?pagination[pageSize]=abc',
    '/api/nowhere',
    '/api/about',
    '/api/users',
    '/api/i18n/locales',
    '/api/articles/missing-one',
    '/api/artic%6Ces?sort=views:desc',
    '/api/%zz',
    '/api/articles?filters[views][$gt]=10&sort=views:desc&pagination[page]=2&pagination[pageSize]=3',
  ];
  const callers: Caller[] = ['full-access', 'anonymous', 'read-only', { custom: ['api::article.article.find'] }];
  const variants: Array<[string, Record<string, string>]> = [
    ['plain', {}],
    ['gzip', { 'accept-encoding': 'gzip' }],
    ['br', { 'accept-encoding': 'gzip, br' }],
    ['listed origin', { origin: 'https://site.example' }],
    ['other origin', { origin: 'https://elsewhere.example' }],
    ['v4', { 'strapi-response-format': 'v4' }],
    ['behind a proxy', { 'x-forwarded-proto': 'https' }],
  ];

  it.each(callers.map((caller) => [JSON.stringify(caller), caller] as const))('as %s', async (_name, caller) => {
    const who = await s.credentials(caller);
    for (const [variant, extra] of variants)
      for (const path of [...paths, `/api/articles/${articleId}`])
        for (const method of ['GET', 'HEAD']) {
          const headers = { ...who, ...extra };
          // Thrice each: the third answer comes from the response cache (an answer is kept when asked again).
          for (let i = 0; i < 3; i++) {
            const lean = await ask(s.url, method, path, headers);
            const plain = await ask(genericBase, method, path, headers);
            expect(lean, `${method} ${path} (${variant}), ask ${i + 1}`).toEqual(plain);
          }
        }
  });

  it('a conditional read gets the same 304, or the same answer when the tag is stale', async () => {
    const first = await s.api('/api/articles?sort=title:desc');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    for (const inm of [etag, `"stale", ${etag}`, 'W/"stale"'])
      for (const method of ['GET', 'HEAD']) {
        const headers = { authorization: s.auth.authorization, 'if-none-match': inm };
        const lean = await ask(s.url, method, '/api/articles?sort=title:desc', headers);
        const plain = await ask(genericBase, method, '/api/articles?sort=title:desc', headers);
        expect(lean).toEqual(plain);
        expect(lean.status).toBe(inm === 'W/"stale"' ? 200 : 304);
      }
  });

  it('pages asked back to back on one connection each get their own bytes, as when asked alone', async () => {
    // Pipelined requests are answered in turn: an answer waits, by reference, behind the one before it.
    const pages = [];
    for (const sort of ['title:asc', 'views:desc', 'title:desc'])
      for (let page = 1; page <= 6; page++)
        pages.push(`/api/articles?sort=${sort}&pagination[pageSize]=5&pagination[page]=${page}&populate=author`);
    const bodies = await pipelined(s.url, pages, s.auth.authorization);
    for (const [i, path] of pages.entries()) {
      const alone = await fetch(new URL(path, genericBase), { headers: s.auth });
      expect(bodies[i], path).toBe(await alone.text());
    }
  });
});

/** The bodies of GETs of `paths` sent together on one connection, in order. */
function pipelined(base: string, paths: string[], authorization: string): Promise<string[]> {
  const { hostname, port } = new URL(base);
  const head = (path: string, last: boolean) =>
    `GET ${path} HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: ${authorization}\r\n` +
    `connection: ${last ? 'close' : 'keep-alive'}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(paths.map((p, i) => head(p, i === paths.length - 1)).join('')),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const bodies: string[] = [];
      for (let at = 0; at < all.length;) {
        const end = all.indexOf('\r\n\r\n', at);
        const length = Number(/content-length: (\d+)/i.exec(all.subarray(at, end).toString('latin1'))?.[1]);
        bodies.push(all.subarray(end + 4, end + 4 + length).toString());
        at = end + 4 + length;
      }
      resolve(bodies);
    });
  });
}
