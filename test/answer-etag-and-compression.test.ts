import { createHash } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';

const PARAGRAPH = [{ type: 'paragraph', children: [{ type: 'text', text: 'p' }] }];

/** One request by node:http, which asks for no encoding unless told: the answer's bytes as sent. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Successful reads carry a weak ETag of their body and answer a matching `If-None-Match` with an empty 304; JSON
 * answers over 1 KB are sent with brotli or gzip to a client that accepts it, and say they vary with
 * Accept-Encoding.
 */
describe('ETags and compression', () => {
  let s: TestServer;
  let id = '';
  /** The article's path, its answer padded (by the text of its body) to exactly `length` characters. */
  const answerOf = async (length: number) => {
    const path = `/api/articles/${id}`;
    const now = await s.api(path);
    const text = now.body.data.body[0].children[0].text as string;
    const padded = [
      { type: 'paragraph', children: [{ type: 'text', text: 'p'.repeat(text.length + length - now.text.length) }] },
    ];
    const updated = await s.api(path, { method: 'PUT', body: { data: { body: padded } } });
    expect(updated.status).toBe(200);
    return path;
  };
  beforeAll(async () => {
    s = await startTestServer();
    // Made through the service: a request here would run the request rules outside every test (see docs/testing.md).
    id = (await s.project.documents.create('article', { title: 'Tagged', body: PARAGRAPH })).documentId;
  });
  afterAll(async () => {
    await s.stop();
  });

  it('tags a read with a weak ETag that changes with its content', async () => {
    const path = `/api/articles/${id}`;
    const first = await get(s.url, path, s.auth);
    expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect((await get(s.url, path, s.auth)).headers.etag).toBe(first.headers.etag);
    await s.api(path, { method: 'PUT', body: { data: { title: 'Retagged' } } });
    const changed = await get(s.url, path, s.auth);
    expect(changed.headers.etag).toMatch(/^W\/"/);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    // HEAD gives the ETag of the body GET would send.
    expect((await get(s.url, path, s.auth, 'HEAD')).headers.etag).toBe(changed.headers.etag);
  });

  it('answers a matching If-None-Match with an empty 304, among other tags too', async () => {
    const path = `/api/articles/${id}`;
    const { etag } = (await get(s.url, path, s.auth)).headers;
    for (const inm of [etag!, `W/"other", ${etag}`, `W/"other",${etag} `]) {
      const r = await get(s.url, path, { ...s.auth, 'if-none-match': inm });
      expect([inm, r.status, r.bytes.length, r.headers['content-type'], r.headers.etag]).toEqual([
        inm,
        304,
        0,
        undefined,
        etag,
      ]);
    }
    const stale = await get(s.url, path, { ...s.auth, 'if-none-match': 'W/"other"' });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with a matching If-None-Match with a 304 too', async () => {
    const path = `/api/articles/${id}`;
    const { etag } = (await get(s.url, path, s.auth)).headers;
    const r = await get(s.url, path, { ...s.auth, 'if-none-match': etag! }, 'HEAD');
    expect([r.status, r.headers.etag]).toEqual([304, etag]);
  });

  it('tags a list and answers it with a 304 when it has not changed', async () => {
    const first = await get(s.url, '/api/articles', s.auth);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.bytes.toString()).data.length).toBeGreaterThan(0);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await get(s.url, '/api/articles', { ...s.auth, 'if-none-match': first.headers.etag! });
    expect([again.status, again.bytes.length]).toEqual([304, 0]);
  });

  it('tags no write and no failed read', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Untagged' } } });
    expect([created.status, created.headers.get('etag')]).toEqual([201, null]);
    const path = `/api/articles/${created.body.data.documentId}`;
    const updated = await s.api(path, { method: 'PUT', body: { data: { title: 'Still untagged' } } });
    expect([updated.status, updated.headers.get('etag')]).toEqual([200, null]);
    const deleted = await s.api(path, { method: 'DELETE' });
    expect([deleted.status, deleted.text, deleted.headers.get('etag')]).toEqual([204, '', null]);
    const missing = await get(s.url, '/api/articles/nope', s.auth);
    expect([missing.status, missing.headers.etag]).toEqual([404, undefined]);
  });

  it('sends 1,024 characters of JSON as they are, and compresses 1,025', async () => {
    const path = await answerOf(1024);
    const small = await get(s.url, path, { ...s.auth, 'accept-encoding': 'gzip' });
    expect([small.bytes.length, small.headers['content-encoding'], small.headers.vary]).toEqual([
      1024,
      undefined,
      'Origin',
    ]);
    await answerOf(1025);
    const big = await get(s.url, path, { ...s.auth, 'accept-encoding': 'gzip' });
    expect([big.headers['content-encoding'], big.headers.vary]).toEqual(['gzip', 'Origin, Accept-Encoding']);
    expect(gunzipSync(big.bytes).toString()).toHaveLength(1025);
  });

  it('prefers brotli, then gzip, and sends a client that takes neither the JSON as it is', async () => {
    const path = await answerOf(4000);
    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['br;q=1', 'br'],
      ['gzip', 'gzip'],
      ['brotli, gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
    ];
    for (const [accept, encoding] of cases) {
      const r = await get(s.url, path, { ...s.auth, 'accept-encoding': accept });
      expect([accept, r.headers['content-encoding']]).toEqual([accept, encoding]);
      const text = (
        encoding === 'br' ? brotliDecompressSync(r.bytes) : encoding === 'gzip' ? gunzipSync(r.bytes) : r.bytes
      ).toString();
      expect(JSON.parse(text).data.documentId).toBe(id);
    }
    // Every JSON answer of this size varies with Accept-Encoding, also to a client that sent none.
    const plain = await get(s.url, path, s.auth);
    expect([plain.headers['content-encoding'], plain.headers.vary]).toEqual([undefined, 'Origin, Accept-Encoding']);
  });

  it('compresses an answer of over 256 KB as well', async () => {
    const text = 'x'.repeat(300 * 1024);
    const body = [{ type: 'paragraph', children: [{ type: 'text', text }] }];
    const long = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Long', body } } });
    expect(long.status).toBe(201);
    const path = `/api/articles/${long.body.data.documentId}?status=draft`;
    const plain = await get(s.url, path, s.auth);
    expect(plain.bytes.length).toBeGreaterThan(300 * 1024);
    const br = await get(s.url, path, { ...s.auth, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    const gz = await get(s.url, path, { ...s.auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
  });

  it("tags a list page by its documents' digests and its meta, small pages and large alike", async () => {
    const listed: string[] = [];
    for (let i = 0; i < 30; i++)
      listed.push((await s.project.documents.create('article', { title: `Listed ${i}`, views: i })).documentId);
    const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest();
    for (const query of [
      'pagination[pageSize]=100',
      'pagination[pageSize]=2&sort=title:desc',
      'pagination[pageSize]=40',
    ]) {
      const r = await get(s.url, `/api/articles?${query}`, s.auth);
      const { data, meta } = JSON.parse(r.bytes.toString()) as { data: unknown[]; meta: unknown };
      const parts = data.map((doc) => sha1(JSON.stringify(doc)));
      const tag = createHash('sha1')
        .update(Buffer.concat([...parts, Buffer.from(`${JSON.stringify(meta)}}`)]))
        .digest('base64url');
      expect([query, r.headers.etag]).toEqual([query, `W/"${tag}"`]);
    }
    for (const documentId of listed) await s.project.documents.delete('article', documentId);
  });
});
