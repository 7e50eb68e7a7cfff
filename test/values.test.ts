import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';

/**
 * Value validation of every scalar attribute kind, over HTTP, against schemas written here
 * (strapi-v5-rest.md §1.4 for kinds, options and timing, §9.3 for the exact messages).
 */

/** Every scalar kind with its options, on a type WITHOUT draft & publish: every check applies on every write. */
const SAMPLE = {
  kind: 'collectionType',
  collectionName: 'samples',
  info: { singularName: 'sample', pluralName: 'samples', displayName: 'Sample' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true, minLength: 2 },
    level: { type: 'integer', required: true },
    title: { type: 'string', default: 'Untitled' },
    short: { type: 'string', maxLength: 5, regex: '^[a-z]+$' },
    serial: { type: 'string', unique: true },
    summary: { type: 'text', minLength: 2, maxLength: 10 },
    essay: { type: 'text' },
    rich: { type: 'richtext', minLength: 3, maxLength: 20 },
    blocks: { type: 'blocks' },
    email: { type: 'email', maxLength: 30, unique: true },
    secret: { type: 'password', minLength: 6, maxLength: 12 },
    slug: { type: 'uid', targetField: 'name' },
    code: { type: 'uid', regex: '^[A-Z]+$' },
    count: { type: 'integer', min: 0, max: 10, unique: true },
    views: { type: 'integer', default: 5 },
    big: { type: 'biginteger', default: '10' },
    ratio: { type: 'float', min: 0.5, max: 2.5 },
    price: { type: 'decimal', min: 0, max: 100 },
    day: { type: 'date', unique: true },
    since: { type: 'date', default: '2024-01-01' },
    at: { type: 'time' },
    when: { type: 'datetime' },
    stamp: { type: 'timestamp' },
    flag: { type: 'boolean', default: true },
    kind: { type: 'enumeration', enum: ['news', 'blog'], default: 'blog' },
    extra: { type: 'json', default: { a: 1 } },
    hidden: { type: 'string', private: true },
    hiddenCount: { type: 'integer', private: true },
  },
};

/** The same checks on a type WITH draft & publish: drafts get only maximum/type checks. */
const ENTRY = {
  kind: 'collectionType',
  collectionName: 'entries',
  info: { singularName: 'entry', pluralName: 'entries', displayName: 'Entry' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string', required: true, minLength: 3, maxLength: 8 },
    body: { type: 'text', maxLength: 20 },
    code: { type: 'string', regex: '^[a-z]+$' },
    mail: { type: 'email' },
    slug: { type: 'uid' },
    n: { type: 'integer', min: 1, max: 5 },
    ref: { type: 'string', unique: true },
    kind: { type: 'enumeration', enum: ['news', 'blog'] },
    day: { type: 'date' },
    on: { type: 'boolean' },
    hidden: { type: 'string', private: true },
    secret: { type: 'password' },
    creds: { type: 'component', component: 'test.creds', repeatable: true },
  },
};

/** A component holding a password, to show hashing reaches inside components. */
const CREDS = {
  collectionName: 'components_test_creds',
  info: { displayName: 'Creds' },
  attributes: { user: { type: 'string' }, pin: { type: 'password', minLength: 4 } },
};

const BASE = { name: 'ok', level: 1 };

let s: TestServer;
let cleanup: () => void;
beforeAll(async () => {
  const p = makeProject();
  cleanup = p.cleanup;
  writeFileSync(join(p.contentDir, 'types', 'sample.json'), `${JSON.stringify(SAMPLE, null, 2)}\n`);
  writeFileSync(join(p.contentDir, 'types', 'entry.json'), `${JSON.stringify(ENTRY, null, 2)}\n`);
  mkdirSync(join(p.contentDir, 'components', 'test'), { recursive: true });
  writeFileSync(join(p.contentDir, 'components', 'test', 'creds.json'), `${JSON.stringify(CREDS, null, 2)}\n`);
  s = await startTestServer({ dir: p.dir });
  expect(s.project.report.problems).toEqual([]);
});
afterAll(async () => {
  await s.stop();
  cleanup();
});

const docsDir = (plural: string) => join(s.contentDir, 'documents', plural);
const fileCount = (plural: string) => (existsSync(docsDir(plural)) ? readdirSync(docsDir(plural)).length : 0);
const readDoc = (plural: string, id: string) => JSON.parse(readFileSync(join(docsDir(plural), `${id}.json`), 'utf8'));
const create = (data: Record<string, unknown>, plural = 'samples', query = '') =>
  s.api(`/api/${plural}${query}`, { method: 'POST', body: { data } });
const sample = (data: Record<string, unknown>) => create({ ...BASE, ...data });
const update = (plural: string, id: string, data: Record<string, unknown>, query = '') =>
  s.api(`/api/${plural}/${id}${query}`, { method: 'PUT', body: { data } });

describe('accepted values are stored and returned in their canonical form', () => {
  it.each([
    // string, text, richtext
    ['string', { title: 'Hello' }, 'title', 'Hello'],
    ['string at the implicit 255 maximum', { title: 'x'.repeat(255) }, 'title', 'x'.repeat(255)],
    ['string matching its regex', { short: 'abc' }, 'short', 'abc'],
    ['empty string skips the regex', { short: '' }, 'short', ''],
    ['text without maxLength has no implicit maximum', { essay: 'e'.repeat(5000) }, 'essay', 'e'.repeat(5000)],
    ['text at its maxLength', { summary: 'x'.repeat(10) }, 'summary', 'x'.repeat(10)],
    ['richtext (Markdown kept as written)', { rich: '# Hi *there*' }, 'rich', '# Hi *there*'],
    // blocks
    [
      'blocks: paragraph with marks and a link',
      {
        blocks: [
          {
            type: 'paragraph',
            children: [
              { type: 'text', text: 'a', bold: true },
              { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'l' }] },
            ],
          },
        ],
      },
      'blocks',
      [
        {
          type: 'paragraph',
          children: [
            { type: 'text', text: 'a', bold: true },
            { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'l' }] },
          ],
        },
      ],
    ],
    [
      'blocks: heading, list, quote, code',
      {
        blocks: [
          { type: 'heading', level: 2, children: [{ type: 'text', text: 'H' }] },
          {
            type: 'list',
            format: 'unordered',
            children: [{ type: 'list-item', children: [{ type: 'text', text: 'i' }] }],
          },
          { type: 'quote', children: [{ type: 'text', text: 'q' }] },
          { type: 'code', language: 'ts', children: [{ type: 'text', text: 'x()' }] },
        ],
      },
      'blocks',
      [
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'H' }] },
        {
          type: 'list',
          format: 'unordered',
          children: [{ type: 'list-item', children: [{ type: 'text', text: 'i' }] }],
        },
        { type: 'quote', children: [{ type: 'text', text: 'q' }] },
        { type: 'code', language: 'ts', children: [{ type: 'text', text: 'x()' }] },
      ],
    ],
    // email, uid
    ['email', { email: 'ada@example.com' }, 'email', 'ada@example.com'],
    ['uid with every allowed character', { slug: 'my-code_1.x~' }, 'slug', 'my-code_1.x~'],
    ['uid with a custom regex', { code: 'ABC' }, 'code', 'ABC'],
    ['uid is not generated from its targetField', {}, 'slug', null],
    // numbers
    ['integer', { count: 7 }, 'count', 7],
    ['integer from a numeric string', { count: '8' }, 'count', 8],
    ['integer at its min', { count: 0 }, 'count', 0],
    ['integer at its max', { count: 10 }, 'count', 10],
    ['biginteger from a digit string (kept exactly)', { big: '123456789012345678901' }, 'big', '123456789012345678901'],
    ['biginteger from a number (returned as a string)', { big: 42 }, 'big', '42'],
    ['negative biginteger', { big: '-5' }, 'big', '-5'],
    ['float', { ratio: 0.75 }, 'ratio', 0.75],
    ['float at its bounds', { ratio: 2.5 }, 'ratio', 2.5],
    ['decimal from a string (returned as a number)', { price: '12.5' }, 'price', 12.5],
    ['decimal', { price: 99.99 }, 'price', 99.99],
    // dates and times
    ['date', { day: '2024-02-29' }, 'day', '2024-02-29'],
    ['date from a longer ISO string (truncated)', { day: '2024-03-01T10:00:00Z' }, 'day', '2024-03-01'],
    ['time without milliseconds', { at: '10:20:30' }, 'at', '10:20:30.000'],
    ['time with short milliseconds', { at: '23:59:59.5' }, 'at', '23:59:59.500'],
    [
      'datetime with an offset (stored in UTC)',
      { when: '2024-01-02T10:00:00+02:00' },
      'when',
      '2024-01-02T08:00:00.000Z',
    ],
    ['datetime from epoch milliseconds', { when: 1704189600000 }, 'when', '2024-01-02T10:00:00.000Z'],
    [
      'timestamp from an ISO date (returned as epoch ms string)',
      { stamp: '2024-01-02T10:00:00.000Z' },
      'stamp',
      '1704189600000',
    ],
    ['timestamp from epoch milliseconds', { stamp: 1704189600000 }, 'stamp', '1704189600000'],
    // booleans
    ['boolean true', { flag: true }, 'flag', true],
    ['boolean "t"', { flag: 't' }, 'flag', true],
    ['boolean "1"', { flag: '1' }, 'flag', true],
    ['boolean "true"', { flag: 'true' }, 'flag', true],
    ['boolean 1', { flag: 1 }, 'flag', true],
    ['boolean false', { flag: false }, 'flag', false],
    ['boolean "f"', { flag: 'f' }, 'flag', false],
    ['boolean "0"', { flag: '0' }, 'flag', false],
    ['boolean "false"', { flag: 'false' }, 'flag', false],
    ['boolean 0', { flag: 0 }, 'flag', false],
    // enumeration, json
    ['enumeration', { kind: 'news' }, 'kind', 'news'],
    ['json object', { extra: { nested: [1, { b: null }] } }, 'extra', { nested: [1, { b: null }] }],
    ['json array', { extra: [1, 'two'] }, 'extra', [1, 'two']],
    ['json string', { extra: 'text' }, 'extra', 'text'],
    ['json number', { extra: 3.5 }, 'extra', 3.5],
    ['json false', { extra: false }, 'extra', false],
    // null clears any optional value
    ['null for an optional string', { title: null }, 'title', null],
    ['null for an optional number', { views: null }, 'views', null],
  ])('%s', async (_label, data, key, expected) => {
    const res = await sample(data);
    expect(res.status, JSON.stringify(res.body?.error)).toBe(201);
    expect(res.body.data[key]).toEqual(expected);
    const id = res.body.data.documentId;
    expect((await s.api(`/api/samples/${id}`)).body.data[key]).toEqual(expected);
    expect(readDoc('samples', id).published[key]).toEqual(expected);
  });

  it('applies the schema defaults to attributes a create leaves out', async () => {
    const res = await sample({});
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: 'Untitled',
      views: 5,
      big: '10',
      since: '2024-01-01',
      flag: true,
      kind: 'blog',
      extra: { a: 1 },
    });
    expect(res.body.data).toMatchObject({
      short: null,
      summary: null,
      email: null,
      slug: null,
      count: null,
      ratio: null,
      day: null,
      at: null,
      when: null,
      stamp: null,
      blocks: null,
    });
    expect(readDoc('samples', res.body.data.documentId).published).toMatchObject({
      title: 'Untitled',
      views: 5,
      flag: true,
      kind: 'blog',
    });
  });

  it('does not put defaults back on an update that leaves the attribute out', async () => {
    const id = (await sample({ flag: false, kind: 'news', views: 9, since: '2023-06-01' })).body.data.documentId;
    const res = await update('samples', id, { title: 'Changed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Changed', flag: false, kind: 'news', views: 9, since: '2023-06-01' });
  });
});

describe("refused values answer 400 with Strapi's messages (type without draft & publish: everything applies)", () => {
  it.each([
    // required
    ['required string absent', { name: undefined }, 'name must be defined.'],
    ['required integer absent', { level: undefined }, 'level must be defined.'],
    ['required string null', { name: null }, 'name must be a `string` type, but the final value was: `null`.'],
    ['required integer null', { level: null }, 'level must be a `number` type, but the final value was: `null`.'],
    // string / text / richtext lengths and regex
    ['string over the implicit 255', { title: 'x'.repeat(256) }, 'title must be at most 255 characters'],
    ['string under minLength', { name: 'x' }, 'name must be at least 2 characters'],
    ['string over maxLength', { short: 'abcdef' }, 'short must be at most 5 characters'],
    ['string not matching regex', { short: 'ABC' }, 'short must match the following: "/^[a-z]+$/"'],
    ['text over maxLength', { summary: 'x'.repeat(11) }, 'summary must be at most 10 characters'],
    ['text under minLength', { summary: 'x' }, 'summary must be at least 2 characters'],
    ['richtext over maxLength', { rich: 'r'.repeat(21) }, 'rich must be at most 20 characters'],
    ['richtext under minLength', { rich: 'rr' }, 'rich must be at least 3 characters'],
    // email, password, uid
    ['invalid email', { email: 'not-an-email' }, 'email must be a valid email'],
    ['email over maxLength', { email: `${'a'.repeat(30)}@example.com` }, 'email must be at most 30 characters'],
    ['password under minLength', { secret: 'abc' }, 'secret must be at least 6 characters'],
    ['password over maxLength', { secret: 'p'.repeat(13) }, 'secret must be at most 12 characters'],
    ['uid with a space', { slug: 'has space' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    ['uid with a slash', { slug: 'a/b' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    ['uid not matching its custom regex', { code: 'abc' }, 'code must match the following: "/^[A-Z]+$/"'],
    // numbers
    [
      'integer from a non-numeric string',
      { count: 'abc' },
      'count must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
    ],
    ['integer over max', { count: 11 }, 'count must be less than or equal to 10'],
    ['integer under min', { count: -1 }, 'count must be greater than or equal to 0'],
    ['integer with a fraction', { count: 1.5 }, 'count must be an integer'],
    ['biginteger not a digit string', { big: '12x' }, 'big must be a valid integer'],
    ['biginteger with a fraction', { big: '1.5' }, 'big must be a valid integer'],
    [
      'float from a non-numeric string',
      { ratio: 'abc' },
      'ratio must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
    ],
    ['float over max', { ratio: 3 }, 'ratio must be less than or equal to 2.5'],
    ['float under min', { ratio: 0.1 }, 'ratio must be greater than or equal to 0.5'],
    [
      'decimal from a non-numeric string',
      { price: 'cheap' },
      'price must be a `number` type, but the final value was: `NaN` (cast from the value `"cheap"`).',
    ],
    ['decimal over max', { price: 100.5 }, 'price must be less than or equal to 100'],
    ['decimal under min', { price: -0.01 }, 'price must be greater than or equal to 0'],
    // booleans, enumerations
    [
      'boolean from an unknown word',
      { flag: 'maybe' },
      'flag must be a `boolean` type, but the final value was: `"maybe"`.',
    ],
    ['enumeration value not listed', { kind: 'other' }, 'kind must be one of the following values: news, blog, '],
    ['enumeration is case-sensitive', { kind: 'News' }, 'kind must be one of the following values: news, blog, '],
  ])('%s', async (_label, data, message) => {
    const body: Record<string, unknown> = { ...BASE, ...data };
    for (const [k, v] of Object.entries(data)) if (v === undefined) delete body[k];
    const before = fileCount('samples');
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(message);
    const key = Object.keys(data)[0];
    expect(res.body.error.details.errors).toHaveLength(1);
    expect(res.body.error.details.errors[0]).toMatchObject({ path: [key], message, name: 'ValidationError' });
    expect(fileCount('samples')).toBe(before);
  });

  it.each([
    ['date in another format', { day: '02/29/2024' }, 'Invalid format, expected yyyy-MM-dd'],
    ['time without seconds', { at: '10:20' }, 'Invalid time format, expected HH:mm:ss.SSS'],
    ['time out of range', { at: '24:00:00' }, 'Invalid time format, expected HH:mm:ss.SSS'],
    ['datetime from a word', { when: 'yesterday' }, 'Invalid format, expected a timestamp or an ISO date'],
    ['timestamp from a word', { stamp: 'soon' }, 'Invalid format, expected a timestamp or an ISO date'],
  ])('%s is a plain ValidationError with empty details', async (_label, data, message) => {
    const before = fileCount('samples');
    const res = await sample(data);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    expect(fileCount('samples')).toBe(before);
  });

  it.each([
    ['a date that does not exist', { day: '2023-02-30' }],
    ['a date that is not a string', { day: true }],
    ['a datetime that is an object', { when: { at: 1 } }],
    ['a time that is a number', { at: 1020 }],
  ])('%s is refused with a 400 ValidationError', async (_label, data) => {
    const before = fileCount('samples');
    const res = await sample(data);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(fileCount('samples')).toBe(before);
  });

  it.each([
    ['an unknown node type', [{ type: 'marquee', children: [] }]],
    ['a heading of level 7', [{ type: 'heading', level: 7, children: [{ type: 'text', text: 'h' }] }]],
    [
      'a link with a javascript: url',
      [
        {
          type: 'paragraph',
          children: [{ type: 'link', url: 'javascript:alert(1)', children: [{ type: 'text', text: 'x' }] }],
        },
      ],
    ],
    ['a text node without text', [{ type: 'paragraph', children: [{ type: 'text' }] }]],
    ['a string instead of nodes', 'just text'],
  ])('blocks with %s are refused', async (_label, blocks) => {
    const before = fileCount('samples');
    const res = await sample({ blocks });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.details.errors[0].path).toEqual(['blocks']);
    expect(fileCount('samples')).toBe(before);
  });

  it('reports the value that was refused in the error details', async () => {
    const res = await sample({ count: 11 });
    expect(res.body.error.details).toEqual({
      errors: [
        { path: ['count'], message: 'count must be less than or equal to 10', name: 'ValidationError', value: 11 },
      ],
    });
  });

  it('collects several field problems into one error', async () => {
    const res = await create({ name: 'x', short: 'toolong', count: 99 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('4 errors occurred');
    const byPath = Object.fromEntries(
      res.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path.join('.'), e.message]),
    );
    expect(byPath).toEqual({
      name: 'name must be at least 2 characters',
      level: 'level must be defined.',
      short: 'short must be at most 5 characters',
      count: 'count must be less than or equal to 10',
    });
  });

  it.each([
    ['minLength', { name: 'x' }, 'name must be at least 2 characters'],
    ['required (null)', { name: null }, 'name must be a `string` type, but the final value was: `null`.'],
    ['regex', { short: 'ABC' }, 'short must match the following: "/^[a-z]+$/"'],
    ['email format', { email: 'nope' }, 'email must be a valid email'],
    ['min', { count: -5 }, 'count must be greater than or equal to 0'],
    ['uid format', { slug: 'no spaces please' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    ['max', { count: 50 }, 'count must be less than or equal to 10'],
    ['enumeration', { kind: 'gossip' }, 'kind must be one of the following values: news, blog, '],
  ])('an update is checked too (%s), and a refused update changes nothing', async (_label, data, message) => {
    const id = (await sample({ short: 'abc', count: null })).body.data.documentId;
    const before = readFileSync(join(docsDir('samples'), `${id}.json`), 'utf8');
    const res = await update('samples', id, data);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(readFileSync(join(docsDir('samples'), `${id}.json`), 'utf8')).toBe(before);
    expect((await s.api(`/api/samples/${id}`)).body.data).toMatchObject({ name: 'ok', short: 'abc' });
  });

  it('a required attribute may be left out of an update, but not set to null', async () => {
    const id = (await sample({})).body.data.documentId;
    expect((await update('samples', id, { title: 'only this' })).status).toBe(200);
    const res = await update('samples', id, { level: null });
    expect(res.body.error.message).toBe('level must be a `number` type, but the final value was: `null`.');
  });
});

describe('unique attributes', () => {
  it.each([
    ['string', 'serial', 'S-1'],
    ['email', 'email', 'uniq@example.com'],
    ['integer', 'count', 3],
    ['date', 'day', '2001-02-03'],
  ])('a %s value already used by another document is refused, on create and on update', async (_kind, key, value) => {
    const first = await sample({ [key]: value });
    expect(first.status).toBe(201);
    const dup = await sample({ [key]: value });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe('This attribute must be unique');
    expect(dup.body.error.details.errors).toEqual([
      { path: [key], message: 'This attribute must be unique', name: 'ValidationError', value },
    ]);

    const other = (await sample({})).body.data.documentId;
    const clash = await update('samples', other, { [key]: value });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toBe('This attribute must be unique');
    // The document itself may keep (re-send) its own value.
    expect((await update('samples', first.body.data.documentId, { [key]: value })).status).toBe(200);
    // Once the first document is deleted, the value is free again.
    expect((await s.api(`/api/samples/${first.body.data.documentId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await update('samples', other, { [key]: value })).status).toBe(200);
  });

  it('null and empty strings are never duplicates', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await sample({ serial: null })).status).toBe(201);
      expect((await sample({ serial: '' })).status).toBe(201);
    }
  });

  it('compares values exactly (a different case is another value)', async () => {
    expect((await sample({ serial: 'Case' })).status).toBe(201);
    expect((await sample({ serial: 'case' })).status).toBe(201);
  });
});

describe('private and password attributes', () => {
  const SECRET = 'hush-hush-1';
  const PASSWORD = 'pw-Secret9';
  let id = '';
  let created: Awaited<ReturnType<typeof sample>>;

  beforeAll(async () => {
    created = await sample({ hidden: SECRET, hiddenCount: 424242, secret: PASSWORD });
    expect(created.status).toBe(201);
    id = created.body.data.documentId;
  });

  const expectHidden = (res: { text: string }, where: string) => {
    expect(res.text, where).not.toContain(SECRET);
    expect(res.text, where).not.toContain('424242');
    expect(res.text, where).not.toContain(PASSWORD);
    expect(res.text, where).not.toMatch(/"(hidden|hiddenCount|secret)"/);
  };

  it('are never returned: create, get, list, update, with fields and populate', async () => {
    expectHidden(created, 'create');
    const got = await s.api(`/api/samples/${id}`);
    expect(got.status).toBe(200);
    expectHidden(got, 'get');
    expect(got.body.data.name).toBe('ok');
    expectHidden(await s.api('/api/samples'), 'list');
    expectHidden(await s.api('/api/samples?populate=*'), 'list populate=*');
    expectHidden(await s.api(`/api/samples/${id}?populate=*`), 'get populate=*');
    expectHidden(await s.api(`/api/samples?filters[documentId][$eq]=${id}`), 'filtered list');
    const upd = await update('samples', id, { title: 'touched' });
    expect(upd.status).toBe(200);
    expectHidden(upd, 'update');
  });

  it('are kept in the document: an update that leaves them out does not erase them', async () => {
    const stored = readDoc('samples', id).published;
    expect(stored.hidden).toBe(SECRET);
    expect(stored.hiddenCount).toBe(424242);
    await update('samples', id, { title: 'again' });
    expect(readDoc('samples', id).published.hidden).toBe(SECRET);
  });

  it('a password is not stored in clear text on disk (Strapi stores a hash)', async () => {
    const text = readFileSync(join(docsDir('samples'), `${id}.json`), 'utf8');
    expect(text).not.toContain(PASSWORD);
    // Strapi's format (bcryptjs, 10 rounds), so the stored value still verifies the password.
    const hash = readDoc('samples', id).published.secret as string;
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    expect(await bcrypt.compare(PASSWORD, hash)).toBe(true);
    expect(await bcrypt.compare('wrong', hash)).toBe(false);
  });

  const componentPasswordTitle =
    'a password inside a component is hashed too; its minimum is checked on the clear text, drafts included';
  it(componentPasswordTitle, async () => {
    const short = await create({ title: 'Creds', creds: [{ user: 'a', pin: '12' }] }, 'entries', '?status=draft');
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('creds.0.pin must be at least 4 characters');
    const res = await create(
      {
        title: 'Creds',
        creds: [
          { user: 'a', pin: '4321' },
          { user: 'b', pin: '8765' },
        ],
      },
      'entries',
    );
    expect(res.status).toBe(201);
    const doc = readDoc('entries', res.body.data.documentId);
    // Both versions hold the same hashes (of one write), so verifying the draft's verifies the published one's.
    expect(doc.published.creds).toEqual(doc.draft.creds);
    expect(doc.draft.creds.map((c: { user: string }) => c.user)).toEqual(['a', 'b']);
    expect(await bcrypt.compare('4321', doc.draft.creds[0].pin)).toBe(true);
    expect(await bcrypt.compare('8765', doc.draft.creds[1].pin)).toBe(true);
    const populated = await s.api(`/api/entries/${res.body.data.documentId}?populate=creds`);
    expect(populated.body.data.creds).toEqual([{ user: 'a' }, { user: 'b' }]);
  });

  it.each([
    ['filters', 'filters[hidden][$eq]=x', 'hidden'],
    ['filters on a password', 'filters[secret][$eq]=x', 'secret'],
    ['sort', 'sort=hidden', 'hidden'],
    ['sort on a password', 'sort=secret:asc', 'secret'],
    ['fields', 'fields[0]=hiddenCount', 'hiddenCount'],
    ['fields on a password', 'fields[0]=secret', 'secret'],
  ])('cannot be used in %s (400 Invalid key)', async (_label, query, key) => {
    const res = await s.api(`/api/samples?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe(`Invalid key ${key}`);
    expect(res.body.error.details).toMatchObject({ key, source: 'query' });
  });

  it('private attributes of a draft & publish type stay hidden in draft reads too', async () => {
    const res = await create({ title: 'Priv', hidden: SECRET, secret: PASSWORD }, 'entries', '?status=draft');
    expect(res.status).toBe(201);
    expectHidden(res, 'draft create');
    expectHidden(await s.api(`/api/entries/${res.body.data.documentId}?status=draft`), 'draft get');
    expectHidden(await s.api('/api/entries?status=draft'), 'draft list');
  });
});

describe('validation timing on a draft & publish type', () => {
  // Only maximum and type constraints apply to drafts; required/min/regex/email/uid/unique wait for publishing.
  it.each([
    ['required missing', {}, 'title must be a `string` type, but the final value was: `null`.', 'title'],
    ['minLength', { title: 'ab' }, 'title must be at least 3 characters', 'title'],
    ['regex', { title: 'Okay', code: 'ABC' }, 'code must match the following: "/^[a-z]+$/"', 'code'],
    ['email format', { title: 'Okay', mail: 'nope' }, 'mail must be a valid email', 'mail'],
    ['uid format', { title: 'Okay', slug: 'a b' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'slug'],
    ['min', { title: 'Okay', n: 0 }, 'n must be greater than or equal to 1', 'n'],
  ])('a draft may break %s; publishing it is refused and leaves it a draft', async (_label, data, message, key) => {
    const draft = await create(data, 'entries', '?status=draft');
    expect(draft.status, JSON.stringify(draft.body?.error)).toBe(201);
    expect(draft.body.data.publishedAt).toBeNull();
    const id = draft.body.data.documentId;
    const fileBefore = readFileSync(join(docsDir('entries'), `${id}.json`), 'utf8');

    const publish = await update('entries', id, {});
    expect(publish.status).toBe(400);
    expect(publish.body.error.message).toBe(message);
    expect(publish.body.error.details.errors[0].path).toEqual([key]);
    expect((await s.api(`/api/entries/${id}`)).status).toBe(404);
    expect((await s.api(`/api/entries/${id}?status=draft`)).status).toBe(200);
    expect(readFileSync(join(docsDir('entries'), `${id}.json`), 'utf8')).toBe(fileBefore);

    // A draft-only update with the same problem is still fine.
    expect((await update('entries', id, { body: 'draft edit' }, '?status=draft')).status).toBe(200);
  });

  it.each([
    ['maxLength', { title: 'much too long' }, 'title must be at most 8 characters'],
    ['text maxLength', { body: 'b'.repeat(21) }, 'body must be at most 20 characters'],
    ['max', { n: 6 }, 'n must be less than or equal to 5'],
    [
      'number type',
      { n: 'abc' },
      'n must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
    ],
    ['boolean type', { on: 'perhaps' }, 'on must be a `boolean` type, but the final value was: `"perhaps"`.'],
    ['enumeration', { kind: 'rumour' }, 'kind must be one of the following values: news, blog, '],
    ['date format', { day: '2024/01/01' }, 'Invalid format, expected yyyy-MM-dd'],
  ])('a draft may not break %s', async (_label, data, message) => {
    const before = fileCount('entries');
    const res = await create(data, 'entries', '?status=draft');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(fileCount('entries')).toBe(before);
  });

  it('a draft-only update may not break a maximum either', async () => {
    const id = (await create({ title: 'Fine' }, 'entries', '?status=draft')).body.data.documentId;
    const res = await update('entries', id, { title: 'far too long' }, '?status=draft');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('title must be at most 8 characters');
    expect((await s.api(`/api/entries/${id}?status=draft`)).body.data.title).toBe('Fine');
  });

  it('a POST that publishes checks everything and leaves nothing behind when it fails', async () => {
    const before = fileCount('entries');
    for (const [data, message] of [
      [{}, 'title must be a `string` type, but the final value was: `null`.'],
      [{ title: 'zq' }, 'title must be at least 3 characters'],
      [{ title: 'Okay', mail: 'nope' }, 'mail must be a valid email'],
    ] as const) {
      const res = await create(data as Record<string, unknown>, 'entries');
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(fileCount('entries')).toBe(before);
    const list = await s.api('/api/entries?status=draft&filters[title][$eq]=zq');
    expect(list.body.data).toEqual([]);
  });

  it('a failed publishing PUT rolls back the draft change too', async () => {
    const created = await create({ title: 'Stable', n: 2 }, 'entries');
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;
    const fileBefore = readFileSync(join(docsDir('entries'), `${id}.json`), 'utf8');
    const res = await update('entries', id, { title: 'no', n: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('title must be at least 3 characters');
    expect((await s.api(`/api/entries/${id}?status=draft`)).body.data).toMatchObject({ title: 'Stable', n: 2 });
    expect((await s.api(`/api/entries/${id}`)).body.data).toMatchObject({ title: 'Stable', n: 2 });
    expect(readFileSync(join(docsDir('entries'), `${id}.json`), 'utf8')).toBe(fileBefore);
  });

  it('unique values are checked against published documents only, when publishing', async () => {
    const a = await create({ title: 'First', ref: 'R-1' }, 'entries', '?status=draft');
    const b = await create({ title: 'Second', ref: 'R-1' }, 'entries', '?status=draft');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect((await update('entries', a.body.data.documentId, {})).status).toBe(200);
    const clash = await update('entries', b.body.data.documentId, {});
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toBe('This attribute must be unique');
    expect((await s.api(`/api/entries/${b.body.data.documentId}`)).status).toBe(404);
    // A draft edit of the published one may reuse the value (drafts are not compared).
    expect((await update('entries', b.body.data.documentId, { ref: 'R-1', body: 'x' }, '?status=draft')).status).toBe(
      200,
    );
    // A published POST with the value is refused.
    const direct = await create({ title: 'Third', ref: 'R-1' }, 'entries');
    expect(direct.status).toBe(400);
    expect(direct.body.error.message).toBe('This attribute must be unique');
  });

  it('the published version keeps passing while its draft is broken', async () => {
    const id = (await create({ title: 'Good', n: 2 }, 'entries')).body.data.documentId;
    expect((await update('entries', id, { title: 'x', n: 0 }, '?status=draft')).status).toBe(200);
    expect((await s.api(`/api/entries/${id}`)).body.data).toMatchObject({ title: 'Good', n: 2 });
    expect((await s.api(`/api/entries/${id}?status=draft`)).body.data).toMatchObject({ title: 'x', n: 0 });
    const publish = await update('entries', id, {});
    expect(publish.status).toBe(400);
    expect(publish.body.error.message).toBe('2 errors occurred');
  });
});
