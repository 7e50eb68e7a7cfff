import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { ELF, SVG, png } from './helpers/media.js';
import { answers, treeBecomes, treeListing } from './helpers/serve.js';

/**
 * Hostile requests, one table, one server: bodies, query strings, headers, uploads, encodings, sizes,
 * paths and methods. Each row states the one status it must get; every answer with a body is Strapi's error
 * envelope; after each row the server still answers and content/ is as it was (once the server has let go of
 * an abandoned request).
 */

/** `{id}`: an existing article's documentId; `{token}`: the full-access token. */
interface Row {
  name: string;
  method?: string;
  /** The request target exactly as sent (no normalisation: `..` and bad escapes stay). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with chunked transfer encoding, in pieces of this many bytes. */
  chunked?: number;
  /** Close the connection after sending (no answer is awaited). */
  abandon?: boolean;
  /** Bytes written as they are, instead of a request built from the fields above. */
  raw?: string | Buffer;
  /** Send no credentials (by default rows carry the full-access token). */
  anonymous?: boolean;
  status: number;
}

const GONE = 'zzzzzzzzzzzzzzzzzzzzzzzz';
const KB = 1024;
const MB = 1024 * KB;
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const POST_HEAD = 'POST /api/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (header: object, payload: object) => `${b64(header)}.${b64(payload)}.`;

/** A multipart body by hand, so that it can be malformed on purpose. */
const multipart = (parts: string[], boundary = 'XX', end = true) =>
  Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}${end ? `--${boundary}--\r\n` : ''}`, 'latin1');
const filePart = (filename: string, content: string | Buffer, type = 'application/octet-stream', field = 'files') =>
  `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n` +
  Buffer.from(content).toString('latin1');
const fieldPart = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const mp = (boundary = 'XX') => ({ 'content-type': `multipart/form-data; boundary=${boundary}` });
const badInfo = fieldPart('fileInfo', '{not json');

const malformedJson: Array<[string, string]> = [
  ['open brace', '{'],
  ['close brace', '}'],
  ['open bracket', '['],
  ['cut after key', '{"data":'],
  ['missing close', '{"data":{"title":"x"}'],
  ['extra close', '{"data":{"title":"x"}}}'],
  ['single quotes', "{'data':{}}"],
  ['trailing comma', '{"data":{"title":"x",}}'],
  ['bare keys', '{data:{}}'],
  ['NaN', '{"data":NaN}'],
  ['Infinity', '{"data":{"views":Infinity}}'],
  ['comment', '/* c */{"data":{}}'],
  ['bad escape', '{"data":{"title":"\\x41"}}'],
  ['cut string', '{"data":{"title":"abc'],
  ['raw newline in string', '{"data":{"title":"a\nb"}}'],
  ['two documents', '{"data":{}}{"data":{}}'],
  ['byte order mark', '\ufeff{"data":{}}'],
  ['hex number', '{"data":{"views":0x10}}'],
  ['leading zero', '{"data":{"views":01}}'],
  ['plus sign', '{"data":{"views":+1}}'],
  ['undefined', '{"data":undefined}'],
  ['a string', '"string"'],
  ['a number', '123'],
  ['null', 'null'],
  ['true', 'true'],
  ['an array', '[]'],
  ['an empty object', '{}'],
  ['data null', '{"data":null}'],
  ['data array', '{"data":[]}'],
  ['data string', '{"data":"x"}'],
  ['data number', '{"data":1}'],
  ['data false', '{"data":false}'],
  ['empty body', ''],
  ['whitespace body', ' \n\t '],
];

/**
 * Well-formed JSON with hostile values, written to a document that does not exist. As in Strapi the body is
 * checked first (400); a body that is valid reaches the lookup (404).
 */
const hostileValues: Array<[string, string, number]> = [
  ['a 1e400 integer', '{"data":{"views":1e400}}', 400],
  ['a -1e400 decimal', '{"data":{"rating":-1e400}}', 400],
  ['an integer past 2^53', '{"data":{"views":9007199254740993}}', 400],
  ['a 100,000-digit number', `{"data":{"views":${'9'.repeat(100000)}}}`, 400],
  ['a numeric string of 1e1000', '{"data":{"views":"1e1000"}}', 400],
  ['a NUL in a string', '{"data":{"title":"a\\u0000b"}}', 404],
  ['a lone surrogate', '{"data":{"title":"\\ud800"}}', 404],
  ['a huge date', '{"data":{"publishDate":"99999-99-99"}}', 400],
  ['an object as a string', '{"data":{"title":{"$ne":null}}}', 400],
  ['an operator key', '{"data":{"$where":"1"}}', 400],
  ['a relation to __proto__', '{"data":{"author":"__proto__"}}', 404],
  ['a deep component', `{"data":{"seo":${deepObject(60)}}}`, 400],
  ['a zone of 100,000 entries', `{"data":{"blocks":[${Array(100000).fill('{}').join(',')}]}}`, 400],
];

const prototypeBodies: Array<[string, string]> = [
  ['__proto__ at the top', '{"__proto__":{"data":{"title":"x"}}}'],
  ['__proto__ in data', '{"data":{"__proto__":{"title":"x"}}}'],
  ['__proto__ beside a title', '{"data":{"title":"x","__proto__":{"publishedAt":null}}}'],
  ['constructor.prototype in data', '{"data":{"constructor":{"prototype":{"x":1}}}}'],
  ['hasOwnProperty in data', '{"data":{"hasOwnProperty":1}}'],
  ['toString in data', '{"data":{"toString":"x"}}'],
  ['__proto__ in a component', '{"data":{"title":"x","seo":{"__proto__":{"metaTitle":"x"}}}}'],
  ['__proto__ in a connect', '{"data":{"title":"x","tags":{"connect":[{"__proto__":{"documentId":"x"}}]}}}'],
  ['constructor as a relation id', '{"data":{"title":"x","tags":{"connect":[{"documentId":"constructor"}]}}}'],
  ['id in data', '{"data":{"id":1,"title":"x"}}'],
  ['documentId in data', '{"data":{"documentId":"abc","title":"x"}}'],
  ['an unknown attribute', '{"data":{"title":"x","nope":1}}'],
];

const rows: Row[] = [
  // ---------------------------------------------------------------- bodies
  ...malformedJson.map(([name, body]): Row => ({
    name: `POST malformed JSON: ${name}`,
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body,
    status: 400,
  })),
  ...malformedJson.slice(0, 12).map(([name, body]): Row => ({
    name: `PUT a single type, malformed JSON: ${name}`,
    method: 'PUT',
    path: '/api/global',
    headers: json,
    body,
    status: 400,
  })),
  ...hostileValues.map(([name, body, status]): Row => ({
    name: `PUT ${name}`,
    method: 'PUT',
    path: `/api/articles/${GONE}`,
    headers: json,
    body,
    status,
  })),
  ...prototypeBodies.map(([name, body]): Row => ({
    name: `POST ${name}`,
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body,
    status: 400,
  })),
  ...[65, 1000, 100000, 500000].map((n): Row => ({
    name: `POST an array nested ${n} deep`,
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: `{"data":{"body":${deepArray(n)}}}`,
    status: 400,
  })),
  ...[100, 10000, 100000].map((n): Row => ({
    name: `POST an object nested ${n} deep`,
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: `{"data":${deepObject(n)}}`,
    status: 400,
  })),
  {
    name: 'POST invalid UTF-8 in a string',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: Buffer.concat([Buffer.from('{"data":{"title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]),
    status: 400,
  },
  {
    name: 'POST an overlong UTF-8 slash',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: Buffer.concat([Buffer.from('{"data":{"title":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')]),
    status: 400,
  },
  {
    name: 'POST a UTF-16 body',
    method: 'POST',
    path: '/api/articles',
    headers: { 'content-type': 'application/json; charset=utf-16' },
    body: Buffer.from('{"data":{"title":"x"}}', 'utf16le'),
    status: 400,
  },
  {
    name: 'POST a gzipped body (not decoded)',
    method: 'POST',
    path: '/api/articles',
    headers: { ...json, 'content-encoding': 'gzip' },
    body: gzipSync('{"data":{"title":"x"}}'),
    status: 400,
  },
  // Content types
  ...[
    'text/plain',
    'application/xml',
    'application/octet-stream',
    'text/html; charset=utf-8',
    'application/x-json',
    'json',
    ';;;',
    'multipart/form-data; boundary=XX',
    'multipart/mixed',
    'application/json-patch+json',
  ].map((type): Row => ({
    name: `POST a body sent as ${type}`,
    method: 'POST',
    path: '/api/articles',
    headers: { 'content-type': type },
    body: '{"data":{"title":"never"}',
    status: 400,
  })),
  {
    name: 'POST JSON without a content type',
    method: 'POST',
    path: '/api/articles',
    body: '{"data":{"title":"never"}}',
    status: 400,
  },
  // Form bodies (parsed as Strapi parses them, qs style), to a document that does not exist: a refused body is a
  // 400, a valid one reaches the lookup (404).
  ...(
    [
      ['data[__proto__][title]=x', 400],
      ['__proto__[data][title]=x', 400],
      ['data[constructor][prototype][x]=1', 400],
      ['data=1', 400],
      ['data[title][$ne]=1&data[nope]=1', 400],
      [`data${'[a]'.repeat(100)}=1`, 400],
      ['%zz=1&data[title]=%ff', 404],
      [Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&'), 400],
    ] as const
  ).map(([body, status], i): Row => ({
    name: `PUT a form body #${i + 1}: ${body.slice(0, 40)}`,
    method: 'PUT',
    path: `/api/articles/${GONE}`,
    headers: form,
    body,
    status,
  })),
  {
    name: 'POST a form body over 56 KB',
    method: 'POST',
    path: '/api/articles',
    headers: form,
    body: `a=${'x'.repeat(60 * KB)}`,
    status: 413,
  },
  // Sizes and framing
  {
    name: 'POST 2 MB of JSON',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: `{"data":{"title":"${'x'.repeat(2 * MB)}"}}`,
    status: 413,
  },
  {
    name: 'POST 2 MB of chunked JSON',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: `{"data":{"title":"${'x'.repeat(2 * MB)}"}}`,
    chunked: 64 * KB,
    status: 413,
  },
  {
    name: 'POST 70 KB of chunked form',
    method: 'POST',
    path: '/api/articles',
    headers: form,
    body: `a=${'x'.repeat(70 * KB)}`,
    chunked: 8 * KB,
    status: 413,
  },
  {
    name: 'POST chunked JSON, abandoned past the limit',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: 'x'.repeat(1.5 * MB),
    chunked: 64 * KB,
    abandon: true,
    status: 413,
  },
  {
    name: 'POST chunked JSON, abandoned half way',
    method: 'POST',
    path: '/api/articles',
    headers: json,
    body: '{"data":{"title":"x',
    chunked: 4,
    abandon: true,
    status: 400,
  },
  {
    name: 'POST a declared 5 MB, abandoned',
    method: 'POST',
    path: '/api/articles',
    headers: { ...json, 'content-length': String(5 * MB) },
    body: 'x'.repeat(100),
    abandon: true,
    status: 413,
  },
  {
    name: 'POST a body shorter than its length, abandoned',
    method: 'POST',
    path: '/api/articles',
    headers: { ...json, 'content-length': '1000' },
    body: '{"data":{}}',
    abandon: true,
    status: 400,
  },
  ...[
    ['a non-numeric Content-Length', 'Content-Length: abc\r\n'],
    ['a negative Content-Length', 'Content-Length: -1\r\n'],
    ['two different Content-Lengths', 'Content-Length: 2\r\nContent-Length: 3\r\n'],
    ['Content-Length with chunked', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n'],
    ['an unknown transfer encoding', 'Transfer-Encoding: gzip, foo\r\n'],
  ].map(([name, headers]): Row => ({
    name: `POST ${name}`,
    path: '/api/articles',
    raw: `${POST_HEAD}${headers}Connection: close\r\n\r\n0\r\n\r\n`,
    status: 400,
  })),
  {
    name: 'POST a bad chunk size',
    path: '/api/articles',
    raw: `${POST_HEAD}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    status: 400,
  },
  {
    name: 'POST a chunk longer than announced',
    path: '/api/articles',
    raw: `${POST_HEAD}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{"data":{}}\r\n0\r\n\r\n`,
    status: 400,
  },
];

// ---------------------------------------------------------------- query strings (reads change nothing)
const badQueries: Array<[string, number]> = [
  ['filters[title][$foo]=x', 400],
  ['filters[nope][$eq]=1', 400],
  ['filters[$or]=x', 400],
  ['filters[title][$eq][$eq]=1', 400],
  ['filters[views][$gt]=abc', 400],
  ['filters[publishDate][$lt]=notadate', 400],
  ['filters[title][$null]=maybe', 200],
  ['filters[secretNote][$eq]=x', 400],
  ['filters[title][$regex]=.*', 400],
  ['filters[title][$contains]=(a%2B)%2B%24', 200],
  ['filters[title][$containsi]=%25%25%25', 200],
  ['filters[views][$between]=1', 400],
  ['filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3', 400],
  // One value, the empty string: no title is empty (on a number attribute, `$in=` is a 400, query.test.ts).
  ['filters[title][$in]=', 200],
  [`filters[title][$eq]=${'x'.repeat(10000)}`, 200],
  [`filters${'[author]'.repeat(40)}[name][$eq]=x`, 400],
  [`filters${'[$not]'.repeat(100)}[title][$eq]=x`, 400],
  [Array.from({ length: 1500 }, (_, i) => `filters[$or][${i}][title][$eq]=x${i}`).join('&'), 431],
  // qs makes an index past 100 an object key: an $or that is not an array.
  ['filters[$or][999999][title][$eq]=x', 400],
  [Array.from({ length: 2000 }, () => 'filters[title][$in][]=a').join('&'), 431],
  ['filters[__proto__][title]=x', 200],
  ['filters[constructor][name]=x', 200],
  ['filters[title][__proto__]=x', 200],
  ['filters[author][__proto__][name]=x', 200],
  ['__proto__[x]=1', 200],
  ['constructor[prototype][x]=1', 200],
  ['sort=nope', 400],
  ['sort=title:sideways', 400],
  ['sort[0][title]=up', 400],
  ['sort=secretNote', 400],
  ['sort=__proto__', 400],
  ['sort=author.__proto__', 400],
  [`sort=${Array(500).fill('title').join(',')}`, 200],
  ['fields=nope', 400],
  ['fields[0]=secretNote', 400],
  ['fields[0][a]=b', 400],
  ['fields=constructor', 400],
  ['populate=nope', 400],
  ['populate[author][populate][nope]=*', 400],
  ['populate=**', 400],
  ['populate[0]=__proto__', 400],
  ['populate[__proto__][x]=1', 200],
  // Populate is bounded in depth.
  [`populate=${'author.articles.'.repeat(30)}author`, 400],
  ['pagination[page]=0', 200],
  ['pagination[page]=-1', 200],
  ['pagination[page]=abc', 400],
  ['pagination[page]=1e999', 400],
  // A page past the last: no data.
  ['pagination[page]=99999999999999999999999', 200],
  ['pagination[pageSize]=0', 200],
  ['pagination[pageSize]=-5', 200],
  // Capped at maxLimit.
  ['pagination[pageSize]=99999999999999999999', 200],
  ['pagination[start]=-1', 200],
  ['pagination[limit]=-2', 200],
  ['pagination[limit]=abc', 200],
  ['pagination[page]=1&pagination[start]=0', 400],
  ['pagination[withCount]=maybe', 400],
  ['pagination=5', 200],
  ['pagination[page][x]=1', 400],
  ['status=foo', 400],
  ['status[0]=draft', 400],
  ['locale=../../etc', 400],
  ['locale=%00', 400],
  // A list of locales works on find, as in Strapi (strapi-v5-rest.md §4.7).
  ['locale[0]=en&locale[1]=fr', 200],
  ['x=1', 400],
  // Unknown top-level parameters (strictParams), however badly escaped.
  ['%=1', 400],
  ['%zz=1', 400],
  // Bad escapes stay as sent, as qs leaves them: a value that matches nothing.
  ['filters[title][$eq]=%ff%fe', 200],
  ['filters[title][$eq]=%E0%A4%A', 200],
  ['_q=' + 'a'.repeat(5000), 200],
  [`${'a'.repeat(10)}${'[b]'.repeat(300)}=1`, 400],
  [Array.from({ length: 5000 }, (_, i) => `k${i}=1`).join('&'), 431],
  [Array.from({ length: 1500 }, (_, i) => `k${i}=1`).join('&'), 400],
];

rows.push(
  ...badQueries.map(([query, status]): Row => ({
    name: `GET ?${query.slice(0, 70)}${query.length > 70 ? ` (${query.length} characters)` : ''}`,
    path: `/api/articles?${query}`,
    status,
  })),
  ...badQueries.slice(0, 20).map(([query, status]): Row => ({
    name: `DELETE ${GONE} ?${query.slice(0, 60)}${query.length > 60 ? ` (${query.length} characters)` : ''}`,
    method: 'DELETE',
    path: `/api/articles/${GONE}?${query}`,
    // The query is checked as on a read; Strapi answers a delete of a missing document with 204.
    status: status === 200 ? 204 : status,
  })),
);

// ---------------------------------------------------------------- credentials and headers
/**
 * As Strapi reads the header: anything but `Bearer <one value>` is no credentials at all (the public role: 403 on
 * a route it lacks); a Bearer value that is no token or valid JWT is a 401.
 */
const badAuth: Array<[string, string, 401 | 403]> = [
  ['an empty Bearer', 'Bearer', 403],
  ['Bearer and a space', 'Bearer ', 403],
  ['a short token', 'Bearer x', 401],
  ['Basic credentials', 'Basic dXNlcjpwYXNz', 403],
  ['a token with extra words', 'Bearer {token} extra', 403],
  ['an 8 KB token', `Bearer ${'a'.repeat(8000)}`, 401],
  ['a three-part garbage JWT', 'Bearer a.b.c', 401],
  ['an unsigned JWT (alg none)', `Bearer ${jwt({ alg: 'none', typ: 'JWT' }, { id: 1 })}`, 401],
  ['a JWT signed with nothing', `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { id: 1, exp: 9999999999 })}`, 401],
  ['the token and one more byte', 'Bearer {token}x', 401],
  ['a path as a token', 'Bearer ../../.folio/tokens.json', 401],
  ['a percent-encoded token', 'Bearer %00%ff', 401],
  ['another scheme', 'Token {token}', 403],
];
rows.push(
  ...badAuth.map(([name, value, status]): Row => ({
    name: `POST with ${name}`,
    method: 'POST',
    path: '/api/articles',
    headers: { ...json, authorization: value },
    body: '{"data":{"title":"never"}}',
    status,
  })),
  ...badAuth.slice(0, 8).map(([name, value, status]): Row => ({
    name: `GET /api/users/me with ${name}`,
    path: '/api/users/me',
    headers: { authorization: value },
    status,
  })),
  ...[badAuth[2], badAuth[5], badAuth[6], badAuth[7]].map(([name, value, status]): Row => ({
    name: `GET /_folio/events with ${name}`,
    path: '/_folio/events',
    headers: { authorization: value },
    status,
  })),
  { name: 'a 20 KB header', path: '/api/articles', headers: { 'x-big': 'a'.repeat(20 * KB) }, status: 431 },
  { name: 'a 20 KB request target', path: `/api/articles?${'a'.repeat(20 * KB)}=1`, status: 431 },
  {
    name: 'strapi-response-format garbage',
    path: '/api/articles?fields=nope',
    headers: { 'strapi-response-format': 'v4; x' },
    status: 400,
  },
  {
    name: 'if-none-match garbage on a bad read',
    path: '/api/articles?sort=nope',
    headers: { 'if-none-match': '*, W/"' },
    status: 400,
  },
  {
    name: 'accept-encoding garbage on a bad read',
    path: '/api/articles?sort=nope',
    headers: { 'accept-encoding': 'br;q=abc, gzip;q=-1' },
    status: 400,
  },
  { name: 'a range on an API route', path: `/api/articles/${GONE}`, headers: { range: 'bytes=0-1,-5' }, status: 404 },
  { name: 'an Origin of null on a bad read', path: '/api/articles?x=1', headers: { origin: 'null' }, status: 400 },
  {
    name: 'a preflight with huge requested headers',
    method: 'OPTIONS',
    path: '/api/articles',
    headers: {
      origin: 'http://x',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'a,'.repeat(3000),
    },
    status: 204,
  },
  {
    name: 'a header with a bare CR',
    path: '/',
    raw: 'GET /api/articles HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a header without a colon',
    path: '/',
    raw: 'GET /api/articles HTTP/1.1\r\nHost: x\r\nBroken header\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'a header name with spaces',
    path: '/',
    raw: 'GET /api/articles HTTP/1.1\r\nHost: x\r\nX A: b\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  { name: 'a garbage request line', path: '/', raw: 'GARBAGE\r\n\r\n', status: 400 },
  // Read as HTTP/1.x by Node: the unknown parameter x is refused.
  { name: 'an HTTP/0.9 request', path: '/', raw: 'GET /api/articles?x=1\r\n\r\n', status: 400 },
  {
    name: 'HTTP/9.9',
    path: '/',
    raw: 'GET /api/articles HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  { name: 'binary noise', path: '/', raw: Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10]), status: 400 },
  {
    name: 'a space in the target',
    path: '/',
    raw: 'GET /api/art icles HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 400,
  },
);

// ---------------------------------------------------------------- paths and methods
const badPaths: Array<[string, number]> = [
  ['/api/../content/folio.json', 404],
  ['/api/articles/../../folio.json', 404],
  ['/api/articles/..%2f..%2ffolio.json', 404],
  ['/api/%2e%2e/folio.json', 404],
  ['/api/articles/%00', 404],
  ['/api/articles/%ff', 404],
  ['/api/articles/%', 404],
  ['/api/articles/%2F', 404],
  ['//api/articles', 404],
  ['/api//articles', 404],
  [`/api/articles/${'a'.repeat(5000)}`, 404],
  ['/api/__proto__', 404],
  ['/api/constructor', 404],
  ['/api/hasOwnProperty', 404],
  ['/api/toString', 404],
  ['/api/articles/__proto__', 404],
  ['/api/articles/constructor', 404],
  ['/api/articles/a/b', 404],
  ['/uploads/../content/folio.json', 404],
  ['/uploads/..%2f..%2fcontent%2ffolio.json', 404],
  ['/uploads/%2e%2e%2f%2e%2e%2fpermissions.json', 404],
  ['/uploads/', 404],
  ['/uploads/%00', 404],
  ['/uploads/%', 404],
  ['/uploads/.folio-tmp-upload-x', 404],
  ['/_folio/../content/folio.json', 404],
  ['/documentation/../../package.json', 404],
  ['/documentation/%2e%2e/%2e%2e/package.json', 404],
  ['/documentation/swagger-ui.css/..', 404],
  ['/api/upload/files/..%2f..', 404],
  ['/api/upload/files/-1', 404],
  ['/api/upload/files/99999999999999999999', 404],
  ['/api/upload/files/1e3', 404],
  ['/api/upload/files/__proto__', 404],
  ['http://evil.example/api/articles/x/y', 404],
  ['/api/i18n/locales/__proto__', 404],
  ['/api/users-permissions/roles/__proto__', 404],
  // Strapi answers an unknown user with an empty 204.
  ['/api/users/__proto__', 204],
];
rows.push(
  ...badPaths.map(([path, status]): Row => ({ name: `GET ${path.slice(0, 70)}`, path, status })),
  ...badPaths.slice(0, 10).map(([path]): Row => ({
    name: `DELETE ${path.slice(0, 70)}`,
    method: 'DELETE',
    path,
    status: 404,
  })),
  ...['TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'PATCH', 'LOCK', 'PURGE'].map((method): Row => ({
    name: `${method} /api/articles`,
    method,
    path: '/api/articles',
    status: 405,
  })),
  {
    name: 'an unknown method',
    path: '/',
    raw: 'FROB /api/articles HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'CONNECT (closed unanswered)',
    path: '/',
    raw: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    abandon: true,
    status: 400,
  },
  {
    name: 'OPTIONS * ',
    path: '/',
    raw: 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    status: 404,
  },
  { name: 'PUT a collection', method: 'PUT', path: '/api/articles', headers: json, body: '{"data":{}}', status: 405 },
  { name: 'DELETE a collection', method: 'DELETE', path: '/api/articles', status: 405 },
  {
    name: 'POST a document',
    method: 'POST',
    path: `/api/articles/${GONE}`,
    headers: json,
    body: '{"data":{}}',
    status: 405,
  },
  {
    name: 'PUT a missing document',
    method: 'PUT',
    path: `/api/articles/${GONE}`,
    headers: json,
    body: '{"data":{"title":"x"}}',
    status: 404,
  },
  { name: 'DELETE a missing document (204, as Strapi)', method: 'DELETE', path: `/api/articles/${GONE}`, status: 204 },
  { name: 'DELETE an unknown locale', method: 'DELETE', path: '/api/articles/{id}?locale=xx', status: 400 },
  { name: 'DELETE locale *x', method: 'DELETE', path: '/api/articles/{id}?locale=*x', status: 400 },
  { name: 'DELETE a draft alone', method: 'DELETE', path: '/api/articles/{id}?status=draft', status: 400 },
  {
    name: 'POST an unknown locale',
    method: 'POST',
    path: '/api/articles?locale=xx',
    headers: json,
    body: '{"data":{"title":"x"}}',
    status: 400,
  },
  {
    name: 'PUT an unknown locale',
    method: 'PUT',
    path: '/api/articles/{id}?locale=xx',
    headers: json,
    body: '{"data":{"title":"x"}}',
    status: 400,
  },
  {
    name: 'PUT a malformed locale',
    method: 'PUT',
    path: '/api/articles/{id}?locale=../x',
    headers: json,
    body: '{"data":{"title":"x"}}',
    status: 400,
  },
  {
    name: 'PUT status=published&status=draft',
    method: 'PUT',
    path: '/api/articles/{id}?status=draft&status=published',
    headers: json,
    body: '{"data":{"title":"x"}}',
    status: 400,
  },
);

// ---------------------------------------------------------------- uploads (all refused: nothing may be stored)
const up = (
  name: string,
  body: Buffer,
  headers: Record<string, string> = mp(),
  status = 400,
  path = '/api/upload',
): Row => ({
  name: `upload: ${name}`,
  method: 'POST',
  path,
  headers,
  body,
  status,
});
rows.push(
  up('no boundary', multipart([filePart('a.png', png(2, 2))]), { 'content-type': 'multipart/form-data' }),
  up('another boundary', multipart([filePart('a.png', png(2, 2))], 'YY')),
  up('truncated in a file', multipart([filePart('a.png', 'abc')], 'XX', false).subarray(0, -2)),
  up('truncated in part headers', Buffer.from('--XX\r\nContent-Disposition: form-da')),
  up('no closing boundary', multipart([filePart('a.png', png(2, 2))], 'XX', false)),
  up('a part without Content-Disposition', multipart(['Content-Type: image/png\r\n\r\nabc'])),
  up('the file in another field', multipart([filePart('a.png', png(2, 2), 'image/png', 'file')])),
  up('no parts at all', Buffer.from('--XX--\r\n')),
  up('an empty body', Buffer.alloc(0)),
  up('a traversal filename', multipart([filePart('../../../content/folio.json', png(2, 2), 'image/png'), badInfo])),
  up('a Windows traversal filename', multipart([filePart('..\\..\\..\\folio.json', png(2, 2), 'image/png'), badInfo])),
  up('an absolute filename', multipart([filePart('/etc/passwd', 'root:x:0:0', 'text/plain'), badInfo])),
  up('a 5,000-character filename', multipart([filePart(`${'a'.repeat(5000)}.png`, png(2, 2), 'image/png'), badInfo])),
  up('a filename of dots', multipart([filePart('..', png(2, 2), 'image/png'), badInfo])),
  up('a filename with a NUL', multipart([filePart('a\u0000.png', png(2, 2), 'image/png'), badInfo])),
  up(
    'an RFC 5987 filename with bad escapes',
    multipart([`Content-Disposition: form-data; name="files"; filename*=UTF-8''%ff%fe%2e%2e%2f\r\n\r\nabc`, badInfo]),
  ),
  up('an executable', multipart([filePart('run.png', ELF, 'image/png')])),
  up('an SVG', multipart([filePart('a.svg', SVG, 'image/svg+xml')])),
  up('text claiming to be an image', multipart([filePart('a.png', 'not an image', 'image/png')])),
  up('fileInfo that is not JSON', multipart([filePart('a.png', png(2, 2), 'image/png'), badInfo])),
  up(
    'fileInfo with __proto__',
    multipart([filePart('a.png', png(2, 2), 'image/png'), fieldPart('fileInfo', '{"__proto__":{"name":"x"}}')]),
  ),
  up('fileInfo as an array', multipart([filePart('a.png', png(2, 2), 'image/png'), fieldPart('fileInfo', '[]')])),
  up(
    'fileInfo with a focal point of 1e999',
    multipart([filePart('a.png', png(2, 2), 'image/png'), fieldPart('fileInfo', '{"focalPoint":{"x":1e999,"y":0}}')]),
  ),
  up(
    'a display name with a traversal',
    multipart([
      filePart('a.png', png(2, 2), 'image/png'),
      fieldPart('fileInfo', '{"name":"../../x"}'),
      fieldPart('ref', 'nope'),
    ]),
  ),
  up(
    'a link to an unknown type',
    multipart([
      filePart('a.png', png(2, 2), 'image/png'),
      fieldPart('ref', 'api::nope.nope'),
      fieldPart('refId', '1'),
      fieldPart('field', 'cover'),
    ]),
  ),
  up(
    'a link to __proto__',
    multipart([
      filePart('a.png', png(2, 2), 'image/png'),
      fieldPart('ref', '__proto__'),
      fieldPart('refId', '1'),
      fieldPart('field', 'cover'),
    ]),
  ),
  up(
    'a link to a missing entry',
    multipart([
      filePart('a.png', png(2, 2), 'image/png'),
      fieldPart('ref', 'api::article.article'),
      fieldPart('refId', '999999'),
      fieldPart('field', 'cover'),
    ]),
  ),
  up(
    'a link to a field that is not media',
    multipart([
      filePart('a.png', png(2, 2), 'image/png'),
      fieldPart('ref', 'api::article.article'),
      fieldPart('refId', '1'),
      fieldPart('field', 'constructor'),
    ]),
  ),
  up('half a link', multipart([filePart('a.png', png(2, 2), 'image/png'), fieldPart('ref', 'api::article.article')])),
  up('2,000 fields', multipart(Array.from({ length: 2000 }, (_, i) => fieldPart(`f${i}`, 'x'))), mp(), 413),
  up(
    '21 files',
    multipart(Array.from({ length: 21 }, (_, i) => filePart(`f${i}.png`, png(2, 2), 'image/png'))),
    mp(),
    413,
  ),
  up('a 2 MB field', multipart([fieldPart('fileInfo', 'x'.repeat(2 * MB))]), mp(), 413),
  up('?id=abc with JSON', Buffer.from('{"fileInfo":{}}'), json, 404, '/api/upload?id=abc'),
  up('?id=99999 with JSON', Buffer.from('{"fileInfo":{"name":"x"}}'), json, 404, '/api/upload?id=99999'),
  up('?id[]=1', Buffer.from('{"fileInfo":{}}'), json, 400, '/api/upload?id[]=1'),
  up('?id=__proto__', Buffer.from('{"fileInfo":{}}'), json, 404, '/api/upload?id=__proto__'),
  up('an unknown parameter', multipart([filePart('a.png', png(2, 2), 'image/png')]), mp(), 400, '/api/upload?nope=1'),
  up('a text/plain body', Buffer.from('hello'), { 'content-type': 'text/plain' }),
  up('JSON without ?id', Buffer.from('{"files":[]}'), json),
  {
    name: 'upload: chunked and abandoned in a file',
    method: 'POST',
    path: '/api/upload',
    headers: mp(),
    body: Buffer.concat([
      Buffer.from('--XX\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n'),
      Buffer.alloc(300 * KB),
    ]),
    chunked: 32 * KB,
    abandon: true,
    status: 400,
  },
  {
    name: 'upload: anonymous',
    method: 'POST',
    path: '/api/upload',
    headers: mp(),
    body: multipart([filePart('a.png', png(2, 2), 'image/png')]),
    anonymous: true,
    status: 403,
  },
  // Auth routes: refused sign-ins and registrations change nothing under content/.
  ...[
    '{}',
    '{"identifier":{"$ne":1},"password":{"$ne":1}}',
    '{"identifier":"a","password":"b"}',
    '{"identifier":"__proto__","password":"x"}',
    '{"__proto__":{"identifier":"a"},"password":"x"}',
    '[1,2,3]',
  ].map((body): Row => ({
    name: `POST /api/auth/local ${body}`,
    method: 'POST',
    path: '/api/auth/local',
    headers: json,
    body,
    anonymous: true,
    // Strapi refuses every failed sign-in with a 400 ValidationError.
    status: 400,
  })),
  ...[
    '{"username":{"$gt":""},"email":"a@b.c","password":"x"}',
    '{"username":"a","email":"not-an-email","password":"secret12"}',
    '{"username":"__proto__","email":"a@b.c","password":"x"}',
    '{"username":"a","email":"a@b.c","password":"secret12","role":1}',
  ].map((body): Row => ({
    name: `POST /api/auth/local/register ${body}`,
    method: 'POST',
    path: '/api/auth/local/register',
    headers: json,
    body,
    anonymous: true,
    status: 400,
  })),
  {
    name: 'POST /api/auth/refresh garbage',
    method: 'POST',
    path: '/api/auth/refresh',
    headers: json,
    body: '{"refreshToken":"x.y.z"}',
    anonymous: true,
    status: 401,
  },
);

/** One request on its own connection, written byte for byte; undefined when no answer came. */
function send(
  base: URL,
  row: Row,
  token: string,
  id: string,
): Promise<{ status: number; headers: string; body: string } | undefined> {
  const path = row.path.replaceAll('{id}', id);
  let bytes: Buffer;
  if (row.raw !== undefined) bytes = Buffer.from(row.raw);
  else {
    const headers: Record<string, string> = { host: base.host, connection: 'close', ...row.headers };
    if (!row.anonymous && !('authorization' in headers)) headers.authorization = `Bearer ${token}`;
    for (const k of Object.keys(headers)) headers[k] = headers[k].replaceAll('{token}', token);
    const body = row.body === undefined ? undefined : Buffer.from(row.body);
    let payload = Buffer.alloc(0);
    if (body && row.chunked) {
      headers['transfer-encoding'] = 'chunked';
      const pieces: Buffer[] = [];
      for (let i = 0; i < body.length; i += row.chunked) {
        const piece = body.subarray(i, i + row.chunked);
        pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      }
      if (!row.abandon) pieces.push(Buffer.from('0\r\n\r\n'));
      payload = Buffer.concat(pieces);
    } else if (body) {
      headers['content-length'] ??= String(body.length);
      payload = body;
    }
    const head = `${row.method ?? 'GET'} ${path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    bytes = Buffer.concat([Buffer.from(head, 'latin1'), payload]);
  }
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname);
    const received: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 15000);
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(received)));
    });
    socket.write(bytes, () => {
      if (row.abandon) setTimeout(() => socket.destroy(), 50);
    });
  });
}

function parse(data: Buffer): { status: number; headers: string; body: string } | undefined {
  const text = data.toString('latin1');
  const m = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n/.exec(text);
  if (!m) return undefined;
  const split = text.indexOf('\r\n\r\n');
  const headers = text.slice(0, split).toLowerCase();
  let body = data.subarray(split + 4);
  if (/\r\ntransfer-encoding: chunked/.test(headers)) {
    const out: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      if (eol === -1) break;
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!size) break;
      out.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(out);
  }
  return { status: Number(m[1]), headers, body: body.toString('utf8') };
}

describe('hostile input', () => {
  let s: TestServer;
  let base: URL;
  let id: string;
  let tree: string[];

  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    base = new URL(s.url);
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Standing' } } });
    expect(created.status).toBe(201);
    id = created.body.data.documentId;
    tree = treeListing(s.contentDir);
  });
  afterAll(async () => {
    await s.stop();
  });

  it('has at least 200 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it.for(rows.map((r) => [r.name, r] as const))('%s', async ([, row], ctx) => {
    // The server's end of the row's connection: closed once the server has let go of the request.
    const released = new Promise<void>((resolve) =>
      s.server.once('connection', (socket) => socket.once('close', () => resolve())),
    );
    const res = await send(base, row, s.token, id);
    if (!row.abandon) {
      expect(res, 'an answer').toBeDefined();
      expect(res!.status, res!.body.slice(0, 300)).toBe(row.status);
      if (res!.status >= 400) {
        expect(res!.headers).toContain('content-type: application/json');
        const body = JSON.parse(res!.body) as { data: unknown; error: Record<string, unknown> };
        expect(body.data).toBeNull();
        expect(body.error.status).toBe(res!.status);
        expect(typeof body.error.name).toBe('string');
        expect(typeof body.error.message).toBe('string');
      }
    }
    await released;
    expect(await answers(s.url)).toBe(true);
    // What the request put under content/ (an upload's temp file) is gone once the server is done with it.
    await treeBecomes(s.contentDir, tree, ctx.signal);
    // HOSTILE_REPORT=1 prints each row's answer.
    if (process.env.HOSTILE_REPORT) console.log(`ROW ${res?.status} ${row.name} ${res?.body.slice(0, 120) ?? ''}`);
  });
});
