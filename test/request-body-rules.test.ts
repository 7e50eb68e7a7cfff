import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { rawRequest, treeListing } from './helpers/serve.js';

const KB = 1024;
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** `{"data":{"title":…}}` padded with spaces to exactly `bytes` bytes. */
const sized = (bytes: number, title = 'Sized') => {
  const body = JSON.stringify({ data: { title } });
  return `${body.slice(0, -1)}${' '.repeat(bytes - body.length)}}`;
};
/** Arrays nested `n` deep. */
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/**
 * The request body as Strapi's body parser reads it: JSON (`application/json`, `+json`) and urlencoded forms, in any
 * case of the type; anything else left unread. Each refusal is one status and message in Strapi's envelope, and
 * writes nothing.
 */
describe('request bodies', () => {
  let s: TestServer;
  let tree: string[] = [];
  const post = (body: string, headers: Record<string, string> = json) =>
    s.api('/api/articles', { method: 'POST', rawBody: body, headers });
  const error = (r: { status: number; body: { error: { status: number; name: string; message: string } } }) => [
    r.status,
    r.body.error.name,
    r.body.error.message,
  ];
  beforeAll(async () => {
    s = await startTestServer({ config: { users: { ratelimit: { enabled: false } } } });
    tree = treeListing(s.contentDir);
  });
  afterAll(async () => {
    await s.stop();
  });

  it.each([['Application/JSON; charset=UTF-8'], ['application/json ;charset=utf-8'], ['application/vnd.api+json']])(
    'reads JSON sent as %s',
    async (type) => {
      const r = await post(JSON.stringify({ data: { title: `As ${type}` } }), { 'content-type': type });
      expect([r.status, r.body.data.title]).toEqual([201, `As ${type}`]);
    },
  );

  it.each([['text/plain'], ['application/jsonx'], ['multipart/form-data; boundary=x']])(
    'leaves a body sent as %s unread: no "data" payload',
    async (type) => {
      const r = await post(JSON.stringify({ data: { title: 'Never' } }), { 'content-type': type });
      expect(error(r)).toEqual([400, 'ValidationError', 'Missing "data" payload in the request body']);
    },
  );

  it('reads a urlencoded form as qs does, dropping keys of Object.prototype', async () => {
    const r = await post('data[title]=Formed&data[views]=3&data[toString]=x', form);
    expect(r.status).toBe(201);
    expect([r.body.data.title, r.body.data.views]).toEqual(['Formed', 3]);
  });

  it('reads a form list of up to 100 items as a list', async () => {
    const r = await post(
      'data[title]=Quoted&data[blocks][30][__component]=shared.quote&data[blocks][30][title]=Q',
      form,
    );
    expect(r.status).toBe(201);
    const read = await s.api(`/api/articles/${r.body.data.documentId}?status=draft&populate=blocks`);
    expect(read.body.data.blocks).toEqual([expect.objectContaining({ __component: 'shared.quote', title: 'Q' })]);
  });

  it.each([
    ['empty', ''],
    ['blank', ' \r\n\t '],
  ])('takes an %s body for no body', async (_, body) => {
    expect(error(await post(body))).toEqual([400, 'ValidationError', 'Missing "data" payload in the request body']);
  });

  it.each([
    ['null', 'null'],
    ['a string', '"text"'],
    ['a number', '42'],
    ['true', 'true'],
  ])('refuses %s as the whole body', async (_, body) => {
    expect(error(await post(body))).toEqual([400, 'SyntaxError', 'invalid JSON, only supports object and array']);
  });

  it('refuses malformed JSON with the parser’s message', async () => {
    const r = await post('{"data":');
    expect([r.status, r.body.error.name]).toEqual([400, 'SyntaxError']);
    expect(r.body.error.message).toBe(
      (() => {
        try {
          JSON.parse('{"data":');
        } catch (err) {
          return (err as Error).message;
        }
      })(),
    );
  });

  it('refuses invalid UTF-8', async () => {
    const r = await rawRequest(s.url, {
      path: '/api/articles',
      headers: { ...json, ...s.auth },
      chunks: [Buffer.concat([Buffer.from('{"data":{"title":"'), Buffer.from([0xff]), Buffer.from('"}}')])],
    });
    expect(r?.body).toEqual({
      data: null,
      error: { status: 400, name: 'SyntaxError', message: 'Invalid UTF-8 in the request body' },
    });
  });

  it.each([
    ['missing', '{}'],
    ['null', '{"data":null}'],
    ['a string', '{"data":"x"}'],
    ['a number', '{"data":1}'],
    ['false', '{"data":false}'],
  ])('refuses data that is %s', async (_, body) => {
    expect(error(await post(body))).toEqual([400, 'ValidationError', 'Missing "data" payload in the request body']);
  });

  it('refuses a list body and list data as Strapi does', async () => {
    expect(error(await post('[{"data":{"title":"x"}}]'))).toEqual([
      400,
      'ValidationError',
      'Missing "data" payload in the request body',
    ]);
    const r = await post('{"data":[]}');
    const message = 'this must be a `object` type, but the final value was: `null` (cast from the value `[]`).';
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message,
      details: { errors: [{ path: [], message, name: 'ValidationError', value: null }] },
    });
  });

  it('reads a body nested 64 levels deep, and refuses one level more', async () => {
    // data is level 1 and blocks level 2: the innermost list is at level 64 (deep enough for any document).
    const fits = await post(`{"data":{"blocks":${nested(63)}}}`);
    expect([fits.status, fits.body.error.message]).not.toContain('The JSON body is nested more than 64 levels deep');
    expect(fits.status).toBe(400);
    expect(error(await post(`{"data":{"blocks":${nested(64)}}}`))).toEqual([
      400,
      'ValidationError',
      'The JSON body is nested more than 64 levels deep',
    ]);
  });

  it('reads a body of 50,000 values, and refuses one more', async () => {
    // data and blocks count as two values.
    const zeros = (n: number) => `{"data":{"blocks":[${Array(n).fill('0').join(',')}]}}`;
    const fits = await post(zeros(49_998));
    expect(fits.status).toBe(400);
    expect(fits.body.error.message).not.toBe('The JSON body holds more than 50000 values');
    expect(error(await post(zeros(49_999)))).toEqual([
      400,
      'ValidationError',
      'The JSON body holds more than 50000 values',
    ]);
  });

  it('reads a form of 56 KB, and refuses a byte more with 413', async () => {
    const formOf = (bytes: number) => `data[title]=Long&data[description]=${'x'.repeat(bytes - 35)}`;
    expect(formOf(56 * KB).length).toBe(56 * KB);
    // Read whole, the form reaches validation (a description holds 280 characters at most).
    expect(error(await post(formOf(56 * KB), form))).toEqual([
      400,
      'ValidationError',
      'description must be at most 280 characters',
    ]);
    expect(error(await post(formOf(56 * KB + 1), form))).toEqual([
      413,
      'PayloadTooLargeError',
      'request entity too large',
    ]);
  });

  it('has written only what it created', async () => {
    const created = treeListing(s.contentDir).filter((f) => !tree.includes(f));
    expect(created.every((f) => f.startsWith('documents/articles/'))).toBe(true);
  });
});

/** `server.bodyLimit`: a body of the limit is read, a byte more is a 413, whether its length is declared or not. */
describe('the body limit', () => {
  let s: TestServer;
  const LIMIT = 4 * KB;
  beforeAll(async () => {
    s = await startTestServer({ config: { server: { bodyLimit: LIMIT } } });
  });
  afterAll(async () => {
    await s.stop();
  });

  const send = (body: string, chunked: boolean, headers: Record<string, string> = json) =>
    rawRequest(s.url, {
      path: '/api/articles',
      headers: { ...headers, ...s.auth, ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      // Written in pieces without a length: sent chunked.
      chunks: chunked ? [body.slice(0, 1000), body.slice(1000)] : [body],
    });

  it.each([
    ['declared', false],
    ['chunked', true],
  ])('reads a %s body of the limit and refuses one byte more', async (_, chunked) => {
    const fits = await send(sized(LIMIT), chunked);
    expect([fits?.status, (fits?.body as { data: { title: string } }).data.title]).toEqual([201, 'Sized']);
    const over = await send(sized(LIMIT + 1), chunked);
    expect([over?.status, over?.body]).toEqual([
      413,
      { data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' } },
    ]);
  });

  it('holds forms to it too when it is under 56 KB', async () => {
    const over = await send(`data[title]=${'x'.repeat(LIMIT)}`, false, form);
    expect(over?.status).toBe(413);
  });
});
