import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadSchemas } from '../src/schema/registry.js';
import type { ContentType } from '../src/schema/types.js';
import { encodeDocument, summarizeBody } from '../src/documents/file-format.js';
import { type DocumentRecord, type Version, SlotMap, storedAttributes } from '../src/documents/model.js';
import { type ScanPlan, scanDocument, scanPlan } from '../src/startup/scan-document.js';
import { parseDocumentText } from '../src/store/document-text.js';
import { serialize } from '../src/store/serialize.js';
import { REPO } from './helpers/project.js';

/**
 * scanDocument is the fast path of a first start: it reads a document file's bytes and either appends the
 * file's summary or answers -1 ("unsure") so that the slow path decides. These tests prove it sound against
 * the slow path, `summarizeBody(ct, parseDocumentText(text, documentId), table, out)`:
 *  - an answer n >= 0 means the slow path accepts the same text, appends the same n numbers and leaves the
 *    locale table with the same entries in the same order;
 *  - -1 leaves `out` as it was (and the slow path run afterwards gives what it gives alone);
 *  - it never throws, and never reads past `end` into an answer;
 * and useful: files as Folio writes them take the fast path.
 */

const schemas = loadSchemas(join(REPO, 'content'));
const TYPES = [...schemas.contentTypes.values()];
const typeOf = (plural: string) => TYPES.find((ct) => ct.pluralName === plural)!;
const PLANS = new Map<ContentType, ScanPlan>(TYPES.map((ct) => [ct, scanPlan(ct)]));

// ---------------------------------------------------------------------------------------------------------
// Running both paths

/** The table and `out` a call starts from (reading a block, both already hold earlier files' summaries). */
interface Start {
  table: Array<[string, number]>;
  out: number[];
}
const FRESH: Start = { table: [], out: [] };

/**
 * expect(actual, label).toBe / toEqual(expected), run only when a plain comparison fails: the same verdict and
 * message, without building the label and running the matcher for each of the many thousand passing checks.
 */
function same(actual: unknown, expected: unknown, label: () => string = () => '') {
  if (!Object.is(actual, expected)) expect(actual, label()).toBe(expected);
}
function equal(actual: unknown, expected: unknown, label: () => string = () => '') {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, label()).toEqual(expected);
}

type SlowResult = { summary: number[]; table: Array<[string, number]> } | { error: string };

/** The slow path on `text`, from `start`: what it appended and the table it left, or its error. */
function slowPath(ct: ContentType, text: string, documentId: string, start: Start): SlowResult {
  const table = new Map(start.table);
  const out = [...start.out];
  try {
    const n = summarizeBody(ct, parseDocumentText(text, documentId), table, out);
    same(n, out.length - start.out.length);
    return { summary: out.slice(start.out.length), table: [...table] };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The fast path on `bytes[from, to)`, from `start`: its answer, and the `out` and table it left. */
function fastPath(ct: ContentType, bytes: Uint8Array, from: number, to: number, documentId: string, start: Start) {
  const table = new Map(start.table);
  const out = [...start.out];
  let n: number;
  try {
    n = scanDocument(PLANS.get(ct)!, bytes, from, to, documentId, table, out);
  } catch (err) {
    throw new Error(`scanDocument threw: ${(err as Error).stack}`, { cause: err });
  }
  return { n, out, table };
}

/** Text as the reader decodes it (Buffer's UTF-8: invalid bytes become U+FFFD, a BOM is kept). */
const decode = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', from, to);

/**
 * Runs both paths on `bytes[from, to)` and asserts the contract. Returns which way the scanner went and
 * whether the slow path accepted the text.
 */
function check(
  ct: ContentType,
  bytes: Uint8Array,
  documentId: string,
  start: Start = FRESH,
  from = 0,
  to = bytes.length,
) {
  const text = decode(bytes, from, to);
  const label = (what = '') => {
    const shown = text.length > 3000 ? `${text.slice(0, 3000)}…` : text;
    return `${ct.pluralName}/${documentId}: ${JSON.stringify(shown)}${what}`;
  };
  const slow = slowPath(ct, text, documentId, start);
  const fast = fastPath(ct, bytes, from, to, documentId, start);
  same(fast.n === -1 || (Number.isInteger(fast.n) && fast.n >= 0), true, () => label(`: answer ${fast.n}`));
  equal(fast.out.slice(0, start.out.length), start.out, () => label(': earlier summaries'));
  if (fast.n >= 0) {
    equal(slow, { summary: fast.out.slice(start.out.length), table: [...fast.table] }, () =>
      label(': fast path took it'),
    );
    same(fast.n, fast.out.length - start.out.length, label);
  } else {
    same(fast.out.length, start.out.length, () => label(': unsure but out grew'));
    // The reader then runs the slow path on the table the scanner left: it must come out as if alone.
    if ('summary' in slow)
      equal(slowPath(ct, text, documentId, { table: [...fast.table], out: fast.out }), slow, label);
  }
  return { way: fast.n >= 0 ? ('fast' as const) : ('unsure' as const), slowOk: 'summary' in slow, n: fast.n };
}

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

/** Bytes that would complete or extend a value if the scanner read on past `end`. */
const HOSTILE = utf8('1 }"]\n,e0');

/** What may follow a file in the buffer: bytes that would complete a file cut short, or extend a valid one. */
const SUFFIXES = [HOSTILE, ...['}', '}\n}\n', '"}', '0}', 'ull}', 'e5}', ':', '\\"}', ' ', '\n}', ' x'].map(utf8)];

/** `bytes` copied into a larger buffer at `prefix.length`, followed by `suffix`: with its range. */
function embed(bytes: Uint8Array, prefix: Uint8Array, suffix: Uint8Array) {
  const buf = new Uint8Array(prefix.length + bytes.length + suffix.length);
  buf.set(prefix);
  buf.set(bytes, prefix.length);
  buf.set(suffix, prefix.length + bytes.length);
  return { buf, from: prefix.length, to: prefix.length + bytes.length };
}

// ---------------------------------------------------------------------------------------------------------
// 1. The example documents

interface Source {
  ct: ContentType;
  documentId: string;
  bytes: Uint8Array;
}

/** content/documents/<plural>/<documentId>.json, as bytes. */
const EXAMPLES: Source[] = readdirSync(join(REPO, 'content', 'documents')).flatMap((plural) =>
  readdirSync(join(REPO, 'content', 'documents', plural))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({
      ct: typeOf(plural),
      documentId: f.slice(0, -5),
      bytes: new Uint8Array(readFileSync(join(REPO, 'content', 'documents', plural, f))),
    })),
);

describe('the example documents', () => {
  const files = EXAMPLES;

  it('all take the fast path and agree with the slow path', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const { ct, documentId, bytes } of files)
      expect(check(ct, bytes, documentId).way, `${ct.pluralName}/${documentId}`).toBe('fast');
  });

  it('agree when read one after another into one table and one summary, as a block is read', () => {
    for (const ct of TYPES) {
      const start: Start = { table: [], out: [] };
      for (const f of files.filter((x) => x.ct === ct)) {
        expect(check(ct, f.bytes, f.documentId, start).way).toBe('fast');
        const table = new Map(start.table);
        scanDocument(PLANS.get(ct)!, f.bytes, 0, f.bytes.length, f.documentId, table, start.out);
        start.table = [...table];
      }
    }
  });

  it('agree at an offset inside a larger buffer, whatever surrounds them', () => {
    for (const { ct, documentId, bytes } of files) {
      const { buf, from, to } = embed(bytes, utf8('{"x":'), HOSTILE);
      expect(check(ct, buf, documentId, FRESH, from, to).way).toBe('fast');
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// 2. Hand-written texts

const TS1 = '2025-01-01T00:00:00.000Z';
const TS2 = '2025-01-02T00:00:00.000Z';
const TS3 = '2025-01-03T00:00:00.000Z';

function version(
  id: number,
  status: 'draft' | 'published',
  locale: string | null,
  data: Record<string, unknown>,
): Version {
  return {
    id,
    documentId: 'd1',
    locale,
    status,
    createdAt: TS1,
    updatedAt: TS2,
    publishedAt: status === 'draft' ? null : TS3,
    data,
  };
}

/** Files as Folio writes them (encodeDocument, serialize). */
function written(
  ct: ContentType,
  documentId: string,
  slots: Array<[string, { draft?: Version; published?: Version }]>,
) {
  const doc: DocumentRecord = { uid: ct.uid, documentId, slots: new SlotMap() };
  for (const [code, slot] of slots) doc.slots.set(code, slot);
  return serialize(encodeDocument(ct, doc));
}

const articles = typeOf('articles');
const tags = typeOf('tags');
const ARTICLE_DATA = {
  title: 'Hello',
  tags: ['t1', 't2'],
  seo: { metaTitle: 'Hi', shareImage: null },
  views: 3,
  rating: 4.5,
  featured: true,
};
/** en: draft 2 and published 3; fr: published 5 only (its draft is recreated at load). */
const ARTICLE = written(articles, 'a1', [
  [
    'en',
    {
      draft: version(2, 'draft', 'en', ARTICLE_DATA),
      published: version(3, 'published', 'en', ARTICLE_DATA),
    },
  ],
  ['fr', { published: version(5, 'published', 'fr', { title: 'Bonjour' }) }],
]);
const TAG = written(tags, 't1', [['', { published: version(4, 'published', null, { name: 'x' }) }]]);

/** `text` with the first `from` replaced; fails loudly when `from` is not there (a case would test nothing). */
function sub(text: string, from: string, to: string) {
  if (!text.includes(from)) throw new Error(`${JSON.stringify(from)} is not in ${text}`);
  return text.replace(from, () => to);
}
/** The tag file with its name's value as raw JSON text. */
const tagName = (raw: string) => sub(TAG, '"name": "x"', `"name": ${raw}`);
/** The tag file with its id's value as raw JSON text. */
const tagId = (raw: string) => sub(TAG, '"id": 4', `"id": ${raw}`);
/** The tag file with its createdAt value as raw JSON text. */
const tagCreated = (raw: string) => sub(TAG, `"createdAt": "${TS1}"`, `"createdAt": ${raw}`);
const TAG_VERSION = TAG.slice(TAG.indexOf('"published": ') + 13, TAG.lastIndexOf('}'));
const nested = (depth: number, open: string, close: string, inner: string) =>
  open.repeat(depth) + inner + close.repeat(depth);

type Way = 'fast' | 'unsure';
type Slow = 'ok' | 'throws';
// [what, plural, text (or raw bytes), the scanner's answer, the slow path's]
const CASES: Array<[string, string, string | Uint8Array, Way, Slow]> = [
  // As written
  ['canonical article file (two locales, a published-only slot)', 'articles', ARTICLE, 'fast', 'ok'],
  ['canonical tag file', 'tags', TAG, 'fast', 'ok'],
  ['compact JSON, no trailing newline', 'tags', JSON.stringify(JSON.parse(TAG)), 'fast', 'ok'],
  ['CRLF line ends and tab indents', 'tags', TAG.replace(/\n/g, '\r\n').replace(/ {2}/g, '\t'), 'fast', 'ok'],
  ['leading and trailing white space', 'tags', `\n \t${TAG}\r\n  `, 'fast', 'ok'],
  [
    'locales before documentId',
    'articles',
    JSON.stringify({ locales: JSON.parse(ARTICLE).locales, documentId: 'a1' }, null, 2),
    'fast',
    'ok',
  ],
  [
    'published before draft in a slot',
    'articles',
    JSON.stringify(
      {
        documentId: 'a1',
        locales: {
          en: { published: JSON.parse(ARTICLE).locales.en.published, draft: JSON.parse(ARTICLE).locales.en.draft },
        },
      },
      null,
      2,
    ),
    'fast',
    'ok',
  ],
  ['no documentId in the file', 'tags', sub(TAG, '"documentId": "t1",', ''), 'fast', 'ok'],
  [
    'locale codes with a region and in upper case',
    'articles',
    sub(sub(ARTICLE, '"en":', '"zh-Hant":'), '"fr":', '"PT-br":'),
    'fast',
    'ok',
  ],
  // Keys
  [
    'keys of a version in another order',
    'tags',
    sub(TAG, '"id": 4,\n    "name": "x",', '"name": "x",\n    "id": 4,'),
    'unsure',
    'ok',
  ],
  [
    'timestamps in another order',
    'tags',
    sub(TAG, `"createdAt": "${TS1}",\n    "updatedAt": "${TS2}"`, `"updatedAt": "${TS2}",\n    "createdAt": "${TS1}"`),
    'unsure',
    'ok',
  ],
  ['a missing optional attribute', 'tags', sub(TAG, '"name": "x",', ''), 'fast', 'ok'],
  ['a missing id (taken as 0)', 'tags', sub(TAG, '"id": 4,', ''), 'fast', 'ok'],
  ['an unknown attribute', 'tags', sub(TAG, '"name": "x",', '"name": "x",\n    "subtitle": "y",'), 'unsure', 'throws'],
  [
    'a key that begins with the next one expected',
    'tags',
    sub(TAG, '"name": "x",', '"names": "x",'),
    'unsure',
    'throws',
  ],
  ['a key that the next one expected begins with', 'tags', sub(TAG, '"name": "x",', '"nam": "x",'), 'unsure', 'throws'],
  [
    'the inverse side of a relation (not stored)',
    'tags',
    sub(TAG, '"name": "x",', '"name": "x",\n    "articles": [],'),
    'unsure',
    'throws',
  ],
  [
    'a duplicate attribute inside a version',
    'tags',
    sub(TAG, '"name": "x",', '"name": "x",\n    "name": "y",'),
    'unsure',
    'ok',
  ],
  [
    'a duplicate timestamp inside a version',
    'tags',
    sub(TAG, `"updatedAt": "${TS2}",`, `"updatedAt": "${TS2}",\n    "updatedAt": "${TS1}",`),
    'unsure',
    'ok',
  ],
  ['a duplicate id, the second one bad', 'tags', sub(TAG, '"id": 4,', '"id": 4,\n    "id": -1,'), 'unsure', 'ok'],
  [
    'a duplicate published version',
    'tags',
    sub(TAG, '"documentId": "t1",', `"documentId": "t1",\n  "published": ${TAG_VERSION},`),
    'unsure',
    'ok',
  ],
  [
    'a duplicate documentId',
    'tags',
    sub(TAG, '"documentId": "t1",', '"documentId": "t1",\n  "documentId": "t1",'),
    'unsure',
    'ok',
  ],
  ['a duplicate locale', 'articles', sub(ARTICLE, '"fr":', '"en":'), 'unsure', 'ok'],
  [
    'a duplicate locales object',
    'articles',
    sub(ARTICLE, '"locales":', '"locales": {"de": {"published": {}}},\n  "locales":'),
    'unsure',
    'ok',
  ],
  ['an escaped character in a version key', 'tags', sub(TAG, '"name"', '"n\\u0061me"'), 'unsure', 'ok'],
  ['an escaped character in a slot key', 'tags', sub(TAG, '"published"', '"publi\\u0073hed"'), 'unsure', 'ok'],
  ['an escaped character in a locale code', 'articles', sub(ARTICLE, '"fr"', '"f\\u0072"'), 'unsure', 'ok'],
  ['a non-ASCII key', 'tags', sub(TAG, '"name"', '"nämé"'), 'unsure', 'throws'],
  [
    '__proto__ as a version key',
    'tags',
    sub(TAG, '"name": "x",', '"name": "x",\n    "__proto__": {},'),
    'unsure',
    'throws',
  ],
  ['__proto__ as a locale code', 'articles', sub(ARTICLE, '"fr":', '"__proto__":'), 'unsure', 'throws'],
  [
    '__proto__ as a top-level key',
    'tags',
    sub(TAG, '"documentId": "t1",', '"documentId": "t1",\n  "__proto__": {"published": {}},'),
    'unsure',
    'throws',
  ],
  [
    '__proto__ inside an attribute value',
    'tags',
    tagName('{"__proto__": {"id": 1}, "constructor": null}'),
    'fast',
    'ok',
  ],
  // Ids
  ['id 0', 'tags', tagId('0'), 'unsure', 'ok'],
  ['a negative id', 'tags', tagId('-4'), 'unsure', 'ok'],
  ['a fractional id', 'tags', tagId('1.5'), 'unsure', 'ok'],
  ['an id with an exponent', 'tags', tagId('1e2'), 'unsure', 'ok'],
  ['an id written 4.0', 'tags', tagId('4.0'), 'unsure', 'ok'],
  ['an id of 15 digits', 'tags', tagId('999999999999999'), 'fast', 'ok'],
  ['an id of 16 digits', 'tags', tagId('1234567890123456'), 'unsure', 'ok'],
  ['an id beyond safe integers', 'tags', tagId('9007199254740993'), 'unsure', 'ok'],
  ['an id as a string', 'tags', tagId('"4"'), 'unsure', 'ok'],
  ['a null id', 'tags', tagId('null'), 'unsure', 'ok'],
  ['an id with a leading zero', 'tags', tagId('04'), 'unsure', 'throws'],
  ['an id followed by garbage', 'tags', tagId('4x'), 'unsure', 'throws'],
  // Timestamps
  ['a timestamp without milliseconds', 'tags', tagCreated('"2025-01-01T00:00:00Z"'), 'unsure', 'ok'],
  ['a timestamp with an offset', 'tags', tagCreated('"2025-01-01T02:00:00.000+02:00"'), 'unsure', 'ok'],
  ['a date without a time', 'tags', tagCreated('"2025-01-01"'), 'unsure', 'ok'],
  ['a timestamp with an escaped character', 'tags', tagCreated('"2025-01-01T00:00:00.000\\u005a"'), 'unsure', 'ok'],
  [
    'an impossible date in the canonical form (both take it as stored)',
    'tags',
    tagCreated('"2025-13-45T99:99:99.999Z"'),
    'fast',
    'ok',
  ],
  ['a timestamp without its closing quote', 'tags', tagCreated('"2025-01-01T00:00:00.000ZZ'), 'unsure', 'throws'],
  ['a timestamp that is not a date', 'tags', tagCreated('"yesterday"'), 'unsure', 'throws'],
  ['an empty timestamp', 'tags', tagCreated('""'), 'unsure', 'throws'],
  ['a timestamp one digit short', 'tags', tagCreated('"2025-01-01T00:00:00.00Z"'), 'unsure', 'ok'],
  ['a timestamp with a letter for a digit', 'tags', tagCreated('"2025-01-0xT00:00:00.000Z"'), 'unsure', 'throws'],
  ['a null createdAt', 'tags', tagCreated('null'), 'unsure', 'throws'],
  ['a numeric createdAt', 'tags', tagCreated('0'), 'unsure', 'throws'],
  ['a missing createdAt', 'tags', sub(TAG, `"createdAt": "${TS1}",`, ''), 'unsure', 'throws'],
  [
    'a missing publishedAt on a published version',
    'tags',
    sub(TAG, `,\n    "publishedAt": "${TS3}"`, ''),
    'unsure',
    'throws',
  ],
  [
    'a null publishedAt on a published version',
    'tags',
    sub(TAG, `"publishedAt": "${TS3}"`, '"publishedAt": null'),
    'unsure',
    'throws',
  ],
  [
    'any publishedAt on a draft (not checked)',
    'articles',
    sub(ARTICLE, '"publishedAt": null', '"publishedAt": [1, {"a": "garbage"}]'),
    'fast',
    'ok',
  ],
  ['no publishedAt on a draft', 'articles', sub(ARTICLE, `,\n        "publishedAt": null`, ''), 'fast', 'ok'],
  // Slots and versions
  [
    'a draft on a type without draft & publish',
    'tags',
    sub(TAG, '"published":', `"draft": ${TAG_VERSION},\n  "published":`),
    'unsure',
    'throws',
  ],
  ['an empty version', 'tags', sub(TAG, TAG_VERSION, '{}'), 'unsure', 'throws'],
  ['a version that is a string', 'tags', sub(TAG, TAG_VERSION, '"v"'), 'unsure', 'throws'],
  ['a null version', 'tags', sub(TAG, TAG_VERSION, 'null'), 'unsure', 'throws'],
  ['no version at all', 'tags', '{"documentId": "t1"}', 'unsure', 'throws'],
  ['an empty locales object', 'articles', '{"documentId": "a1", "locales": {}}', 'unsure', 'throws'],
  ['locales as an array', 'articles', '{"documentId": "a1", "locales": []}', 'unsure', 'throws'],
  ['no locales', 'articles', '{"documentId": "a1"}', 'unsure', 'throws'],
  ['a locale code with a space', 'articles', sub(ARTICLE, '"fr":', '"f r":'), 'unsure', 'throws'],
  ['an empty slot', 'articles', sub(ARTICLE, '"locales": {', '"locales": {\n    "de": {},'), 'unsure', 'throws'],
  ['a null slot', 'articles', sub(ARTICLE, '"locales": {', '"locales": {\n    "de": null,'), 'unsure', 'throws'],
  ['a slot with another key', 'articles', sub(ARTICLE, '"fr": {', '"fr": {\n      "old": {},'), 'unsure', 'throws'],
  [
    'documentId inside a slot',
    'articles',
    sub(ARTICLE, '"fr": {', '"fr": {\n      "documentId": "a1",'),
    'unsure',
    'throws',
  ],
  [
    'a non-localized file shaped as a localized one',
    'tags',
    `{"documentId": "t1", "locales": {"en": {"published": ${TAG_VERSION}}}}`,
    'unsure',
    'throws',
  ],
  // documentId
  ['a documentId that differs from the file name', 'tags', sub(TAG, '"t1"', '"t2"'), 'unsure', 'throws'],
  ['a documentId that is a prefix of the file name', 'tags', sub(TAG, '"t1"', '"t"'), 'unsure', 'throws'],
  ['a documentId without its closing quote', 'tags', sub(TAG, '"t1",', '"t1x,'), 'unsure', 'throws'],
  ['a documentId longer than the file name', 'tags', sub(TAG, '"t1"', '"t10"'), 'unsure', 'throws'],
  ['a numeric documentId', 'tags', sub(TAG, '"t1"', '1'), 'unsure', 'throws'],
  ['a null documentId', 'tags', sub(TAG, '"t1"', 'null'), 'unsure', 'throws'],
  ['a documentId spelt with escapes', 'tags', sub(TAG, '"t1"', '"\\u0074\\u0031"'), 'unsure', 'ok'],
  // String values
  [
    'escaped characters in a value',
    'tags',
    tagName(String.raw`"a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\ude00"`),
    'fast',
    'ok',
  ],
  ['a lone surrogate escape in a value', 'tags', tagName('"\\ud800"'), 'fast', 'ok'],
  ['an invalid escape in a value', 'tags', tagName('"a\\x41"'), 'unsure', 'throws'],
  ['a short \\u escape in a value', 'tags', tagName('"\\u12"'), 'unsure', 'throws'],
  ['a backslash at the end of a value', 'tags', tagName('"a\\"'), 'unsure', 'throws'],
  ['a raw control character in a value', 'tags', tagName('"a\u0001b"'), 'unsure', 'throws'],
  ['a raw tab in a value', 'tags', tagName('"a\tb"'), 'unsure', 'throws'],
  ['a raw newline in a value', 'tags', tagName('"a\nb"'), 'unsure', 'throws'],
  ['a raw NUL in a key', 'tags', sub(TAG, '"name"', '"na\u0000me"'), 'unsure', 'throws'],
  ['a raw DEL in a value (allowed)', 'tags', tagName('"a\u007fb"'), 'fast', 'ok'],
  ['non-ASCII UTF-8 in a value', 'tags', tagName('"Ünïcödé – 東京 😀 \u2028"'), 'fast', 'ok'],
  [
    'invalid UTF-8 bytes in a value',
    'tags',
    Buffer.concat([
      utf8(TAG.slice(0, TAG.indexOf('"x"') + 2)),
      Uint8Array.from([0xff, 0xc3, 0xe2, 0x80]),
      utf8(TAG.slice(TAG.indexOf('"x"') + 2)),
    ]),
    'fast',
    'ok',
  ],
  [
    'a truncated UTF-8 sequence right before a closing quote',
    'tags',
    Buffer.concat([
      utf8(TAG.slice(0, TAG.indexOf('"x"') + 2)),
      Uint8Array.from([0xf0, 0x9f, 0x98]),
      utf8(TAG.slice(TAG.indexOf('"x"') + 2)),
    ]),
    'fast',
    'ok',
  ],
  ['a single-quoted value', 'tags', tagName("'x'"), 'unsure', 'throws'],
  ['an unterminated value', 'tags', tagName('"x'), 'unsure', 'throws'],
  // Other values
  ['deeply nested arrays', 'tags', tagName(nested(3000, '[', ']', '1')), 'fast', 'ok'],
  ['deeply nested objects', 'tags', tagName(nested(3000, '{"a":', '}', '[]')), 'fast', 'ok'],
  [
    'mixed nesting with every kind of value',
    'articles',
    sub(
      ARTICLE,
      '"blocks": null',
      '"blocks": [{"a": [1, -2.5e-3, "s", true, false, null, {}, [], [[]], {"b": {"c": [{}]}}]}, [ ], { }]',
    ),
    'fast',
    'ok',
  ],
  [
    'numbers with fractions and exponents',
    'tags',
    tagName('[0, -0, 0.0, 1.5, -12.25e-3, 1E+10, 6.02e23, 1e400, -0.0e-0]'),
    'fast',
    'ok',
  ],
  ['a bare number', 'tags', tagName('-12.5E3'), 'fast', 'ok'],
  ['true, false and null', 'tags', tagName('[true, false, null]'), 'fast', 'ok'],
  ['a leading zero', 'tags', tagName('01'), 'unsure', 'throws'],
  ['a leading zero in an array', 'tags', tagName('[1, 01]'), 'unsure', 'throws'],
  ['a trailing dot', 'tags', tagName('1.'), 'unsure', 'throws'],
  ['a dot before an exponent', 'tags', tagName('1.e3'), 'unsure', 'throws'],
  ['a lone minus', 'tags', tagName('-'), 'unsure', 'throws'],
  ['a double minus', 'tags', tagName('--1'), 'unsure', 'throws'],
  ['a leading dot', 'tags', tagName('.5'), 'unsure', 'throws'],
  ['a leading plus', 'tags', tagName('+1'), 'unsure', 'throws'],
  ['an exponent without digits', 'tags', tagName('1e'), 'unsure', 'throws'],
  ['an exponent sign without digits', 'tags', tagName('1e+'), 'unsure', 'throws'],
  ['a hexadecimal number', 'tags', tagName('0x10'), 'unsure', 'throws'],
  ['NaN', 'tags', tagName('NaN'), 'unsure', 'throws'],
  ['Infinity', 'tags', tagName('Infinity'), 'unsure', 'throws'],
  ['tru', 'tags', tagName('tru'), 'unsure', 'throws'],
  ['nul', 'tags', tagName('nul'), 'unsure', 'throws'],
  ['fals in an array', 'tags', tagName('[fals]'), 'unsure', 'throws'],
  ['True', 'tags', tagName('True'), 'unsure', 'throws'],
  ['nulll', 'tags', tagName('nulll'), 'unsure', 'throws'],
  ['undefined', 'tags', tagName('undefined'), 'unsure', 'throws'],
  ['trap (as long as true)', 'tags', tagName('trap'), 'unsure', 'throws'],
  ['fault (as long as false)', 'tags', tagName('fault'), 'unsure', 'throws'],
  ['nuts in an array (as long as null)', 'tags', tagName('[nuts]'), 'unsure', 'throws'],
  ['nuts (as long as null)', 'tags', tagName('nuts'), 'unsure', 'throws'],
  // Structure
  ['a trailing comma in a version', 'tags', sub(TAG, `"${TS3}"`, `"${TS3}",`), 'unsure', 'throws'],
  ['a trailing comma in an array value', 'tags', tagName('[1, 2,]'), 'unsure', 'throws'],
  ['a trailing comma in an object value', 'tags', tagName('{"a": 1,}'), 'unsure', 'throws'],
  ['a missing comma', 'tags', sub(TAG, '"id": 4,', '"id": 4'), 'unsure', 'throws'],
  ['a missing colon', 'tags', sub(TAG, '"name": "x"', '"name" "x"'), 'unsure', 'throws'],
  ['a missing value', 'tags', tagName(''), 'unsure', 'throws'],
  ['an unclosed array value', 'tags', tagName('[1, 2'), 'unsure', 'throws'],
  ['a mismatched bracket in a value', 'tags', tagName('[1, 2}'), 'unsure', 'throws'],
  ['a comment', 'tags', sub(TAG, '"id": 4,', '"id": 4, // the id'), 'unsure', 'throws'],
  // The whole file
  ['trailing garbage after the object', 'tags', `${TAG}x`, 'unsure', 'throws'],
  ['an extra closing brace', 'tags', `${TAG}}`, 'unsure', 'throws'],
  ['two objects', 'tags', TAG + TAG, 'unsure', 'throws'],
  ['a truncated file', 'tags', TAG.slice(0, -3), 'unsure', 'throws'],
  ['a file truncated inside a timestamp', 'tags', TAG.slice(0, TAG.indexOf(TS3) + 10), 'unsure', 'throws'],
  ['a file cut before its last brace', 'articles', ARTICLE.slice(0, ARTICLE.lastIndexOf('}')), 'unsure', 'throws'],
  ['an empty file', 'tags', '', 'unsure', 'throws'],
  ['a file of white space', 'tags', ' \n\t\r\n', 'unsure', 'throws'],
  ['a BOM at the start', 'tags', `\ufeff${TAG}`, 'unsure', 'throws'],
  ['a top-level array', 'tags', `[${TAG}]`, 'unsure', 'throws'],
  ['a top-level null', 'tags', 'null', 'unsure', 'throws'],
  ['a top-level string', 'tags', '"t1"', 'unsure', 'throws'],
  ['an empty object', 'tags', '{}', 'unsure', 'throws'],
];

describe('hand-written texts', () => {
  it('are all distinct cases', () => {
    expect(new Set(CASES.map((c) => c[0])).size).toBe(CASES.length);
  });

  it.each(CASES)('%s (%s)', (_what, plural, text, way, slow) => {
    const ct = typeOf(plural);
    const documentId = plural === 'tags' ? 't1' : 'a1';
    const bytes = typeof text === 'string' ? utf8(text) : text;
    const alone = check(ct, bytes, documentId);
    expect(alone.way).toBe(way);
    expect(alone.slowOk ? 'ok' : 'throws').toBe(slow);
    // The same, from a table and summary that already hold other files', inside a larger buffer whose
    // next bytes would complete a file cut short.
    for (const after of SUFFIXES) {
      const { buf, from, to } = embed(bytes, utf8('{"x": ['), after);
      const inside = check(
        ct,
        buf,
        documentId,
        {
          table: [
            ['de', 0],
            ['fr', 1],
          ],
          out: [0, 9, -1, 1, -1, 8],
        },
        from,
        to,
      );
      expect(inside.way).toBe(way);
    }
  });

  it('give the summaries summarizeBody gives', () => {
    expect(fastPath(articles, utf8(ARTICLE), 0, utf8(ARTICLE).length, 'a1', FRESH)).toMatchObject({
      n: 6,
      out: [0, 2, 3, 1, 0, 5],
    });
    expect(fastPath(tags, utf8(TAG), 0, utf8(TAG).length, 't1', FRESH)).toMatchObject({ n: 3, out: [0, -1, 4] });
  });
});

// ---------------------------------------------------------------------------------------------------------
// 3. Mutated files

const LOCALE_POOL = ['en', 'fr', 'de', 'pt-BR', 'zh-Hant'];
const timestampArb = fc
  .date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString());
/**
 * Any code point but a lone surrogate: fast-check's 'binary' unit, drawing the same values for the same seed,
 * with an unmapper that computes the index where fast-check's builds a table of all 1.1 million code points.
 */
const SURROGATES = 0xe000 - 0xd800;
const codePointArb = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES),
  (s) => {
    const c = typeof s === 'string' ? s.codePointAt(0) : undefined;
    if (c === undefined || s !== String.fromCodePoint(c) || (c >= 0xd800 && c < 0xe000))
      throw new Error('not one code point');
    return c < 0xd800 ? c : c - SURROGATES;
  },
);
/** Any attribute value, or left out (a file written before the attribute was added). */
const valueArb = fc.option(fc.jsonValue({ maxDepth: 3, stringUnit: codePointArb }), { nil: undefined, freq: 4 });

/** A version as Folio writes it: id, attributes in schema order (some perhaps missing), timestamps. */
function versionArb(ct: ContentType, status: 'draft' | 'published') {
  const names = storedAttributes(ct);
  return fc
    .record({
      id: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 999_999_999_999_999 })),
      values: fc.tuple(...names.map(() => valueArb)),
      createdAt: timestampArb,
      updatedAt: timestampArb,
      publishedAt: timestampArb,
    })
    .map((v) => {
      const out: Record<string, unknown> = { id: v.id };
      names.forEach((n, k) => {
        out[n] = v.values[k];
      });
      return {
        ...out,
        createdAt: v.createdAt,
        updatedAt: v.updatedAt,
        publishedAt: status === 'draft' ? null : v.publishedAt,
      };
    });
}

function slotArb(ct: ContentType) {
  if (!ct.draftAndPublish) return fc.record({ published: versionArb(ct, 'published') });
  return (
    fc
      .record({ draft: versionArb(ct, 'draft'), published: versionArb(ct, 'published') }, { requiredKeys: [] })
      .filter((s) => s.draft !== undefined || s.published !== undefined)
      // Folio writes draft first.
      .map((s) => JSON.parse(JSON.stringify({ draft: s.draft, published: s.published })) as Record<string, unknown>)
  );
}

/** A generated document file in Folio's format. */
const generatedArb: fc.Arbitrary<Source> = fc.constantFrom(...TYPES).chain((ct) => {
  const body = ct.localized
    ? fc
        .uniqueArray(fc.constantFrom(...LOCALE_POOL), { minLength: 1, maxLength: 3 })
        .chain((codes) =>
          fc
            .tuple(...codes.map(() => slotArb(ct)))
            .map((slots) => ({ locales: Object.fromEntries(codes.map((c, k) => [c, slots[k]])) })),
        )
    : slotArb(ct);
  return body.map((b) => ({ ct, documentId: 'g1', bytes: utf8(serialize({ documentId: 'g1', ...b })) }));
});

const sourceArb = fc.oneof(fc.constantFrom(...EXAMPLES), generatedArb);

type Mutation =
  | { op: 'delete'; at: number; length: number }
  | { op: 'insert'; at: number; bytes: number[] }
  | { op: 'replace'; at: number; byte: number }
  /** Replace (or with null delete) the nth byte among the structural ones: where most decisions are. */
  | { op: 'hit'; nth: number; byte: number | null }
  | { op: 'duplicateLine'; line: number }
  | { op: 'swapLines'; a: number; b: number }
  | { op: 'truncate'; at: number };

const STRUCTURAL = [...'{}[]:,"\\0123456789-.eE+tfnul '].map((ch) => ch.charCodeAt(0));
const byteArb = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constantFrom(...STRUCTURAL, 0x0a, 0x09, 0x00, 0xef, 0xff),
);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.array(byteArb, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), byte: byteArb }),
  fc.record({ op: fc.constant('hit' as const), nth: fc.nat(), byte: fc.option(byteArb) }),
  fc.record({ op: fc.constant('duplicateLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);

const lines = (b: number[]) => {
  const out: number[][] = [[]];
  for (const c of b) {
    out[out.length - 1].push(c);
    if (c === 0x0a) out.push([]);
  }
  return out;
};

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const b = Array.from(bytes);
  const at = (n: number) => n % (b.length + 1);
  switch (m.op) {
    case 'delete':
      b.splice(at(m.at), m.length);
      break;
    case 'insert':
      b.splice(at(m.at), 0, ...m.bytes);
      break;
    case 'replace':
      if (b.length) b[m.at % b.length] = m.byte;
      break;
    case 'hit': {
      const spots = b.flatMap((c, k) => (STRUCTURAL.includes(c) && c !== 0x20 ? [k] : []));
      if (spots.length) b.splice(spots[m.nth % spots.length], 1, ...(m.byte === null ? [] : [m.byte]));
      break;
    }
    case 'duplicateLine':
    case 'swapLines': {
      const ls = lines(b);
      if (m.op === 'duplicateLine') {
        const k = m.line % ls.length;
        ls.splice(k, 0, ls[k]);
      } else {
        const x = m.a % ls.length;
        const y = m.b % ls.length;
        [ls[x], ls[y]] = [ls[y], ls[x]];
      }
      return Uint8Array.from(ls.flat());
    }
    case 'truncate':
      b.length = at(m.at);
      break;
  }
  return Uint8Array.from(b);
}

/** A table and summary the call starts from, as in the middle of a block. */
const startArb: fc.Arbitrary<Start> = fc.subarray(['en', 'fr', 'de', '']).map((codes) => ({
  table: codes.map((c, k): [string, number] => [c, k]),
  out: codes.flatMap((_c, k) => [k, 7, -1]),
}));
const aroundArb = fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.integer({ min: 0, max: 255 })), { maxLength: 8 });

describe('mutated files', () => {
  it("files generated in Folio's format take the fast path", () => {
    fc.assert(
      fc.property(generatedArb, startArb, ({ ct, documentId, bytes }, start) => {
        same(check(ct, bytes, documentId, start).way, 'fast');
      }),
      { numRuns: 300 },
    );
  });

  it('are never accepted where the slow path differs, wherever they sit in a buffer', () => {
    const seen = { fast: 0, unsure: 0, fastMutated: 0 };
    fc.assert(
      fc.property(
        sourceArb,
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        startArb,
        aroundArb,
        aroundArb,
        ({ ct, documentId, bytes }, mutations, start, before, after) => {
          const text = mutations.reduce(mutate, bytes);
          const alone = check(ct, text, documentId, start);
          const { buf, from, to } = embed(text, Uint8Array.from(before), Uint8Array.from(after));
          // The bytes around the range change nothing: the scanner never reads past `end` into an answer.
          same(
            check(ct, buf, documentId, start, from, to).n,
            alone.n,
            () => `${JSON.stringify(decode(buf, 0, buf.length))} [${from}, ${to})`,
          );
          seen[alone.way]++;
          if (alone.way === 'fast' && !sameBytes(text, bytes)) seen.fastMutated++;
        },
      ),
      { numRuns: 500 },
    );
    // Both answers were exercised, including files that were changed and still taken.
    expect(seen.fast).toBeGreaterThan(15);
    expect(seen.unsure).toBeGreaterThan(15);
    expect(seen.fastMutated).toBeGreaterThan(10);
  });
});

describe('files cut short', () => {
  it('are never accepted on the strength of the bytes after `end`, however they were cut', () => {
    const cutArb = fc.oneof(
      fc.nat(),
      fc.integer({ min: 1, max: 64 }).map((back) => -back),
    );
    fc.assert(
      fc.property(sourceArb, cutArb, startArb, ({ ct, documentId, bytes }, cut, start) => {
        // The whole file is in the buffer; the range ends early (near the end, or anywhere).
        const to = cut < 0 ? Math.max(0, bytes.length + cut) : cut % (bytes.length + 1);
        check(ct, bytes, documentId, start, 0, to);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// 4. Edited documents: still JSON, but with keys and values changed where the checks look

type Json = Record<string, unknown> | unknown[];
interface Edit {
  path: number[];
  at: number;
  kind: 'delete' | 'set' | 'rename' | 'add';
  key: string;
  value: unknown;
}

const EDIT_KEYS = [
  'id',
  'name',
  'title',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'draft',
  'published',
  'documentId',
  'locales',
  'en',
  'fr',
  '__proto__',
  'e n',
  'other',
];
const EDIT_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  4,
  1e21,
  '',
  'x',
  TS1,
  '2025-01-01T00:00:00Z',
  'not a date',
  {},
  [],
  true,
  'g1',
  'g2',
  { published: {} },
];
const editArb: fc.Arbitrary<Edit> = fc.record({
  path: fc.array(fc.nat(), { maxLength: 5 }),
  at: fc.nat(),
  kind: fc.constantFrom('delete' as const, 'set' as const, 'rename' as const, 'add' as const),
  key: fc.constantFrom(...EDIT_KEYS),
  value: fc.constantFrom(...EDIT_VALUES),
});

/** Sets an own property, even one named __proto__ (plain assignment would change the prototype). */
const define = (o: Record<string, unknown>, k: string, value: unknown) =>
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });

/** `body` with one edit, applied to the container reached by following `path` down (child `step % size` each level). */
function applyEdit(body: Json, e: Edit): Json {
  const root = JSON.parse(JSON.stringify(body)) as Json;
  let node = root;
  for (const step of e.path) {
    const keys = Object.keys(node);
    const child = keys.length ? (node as Record<string, unknown>)[keys[step % keys.length]] : undefined;
    if (!child || typeof child !== 'object') break;
    node = child as Json;
  }
  const keys = Object.keys(node);
  const target = keys.length ? keys[e.at % keys.length] : undefined;
  if (Array.isArray(node)) {
    if (e.kind === 'delete' && target !== undefined) node.splice(Number(target), 1);
    else if (target !== undefined) node[Number(target)] = e.value;
    else node.push(e.value);
  } else if (e.kind === 'add' || target === undefined) define(node, e.key, e.value);
  else if (e.kind === 'set') define(node, target, e.value);
  else {
    const entries = Object.entries(node);
    for (const k of keys) delete node[k];
    for (const [k, v] of entries) if (k !== target || e.kind === 'rename') define(node, k === target ? e.key : k, v);
  }
  return root;
}

describe('edited documents', () => {
  it('are never accepted where the slow path differs', () => {
    const seen = { fast: 0, unsure: 0 };
    fc.assert(
      fc.property(
        sourceArb,
        fc.array(editArb, { minLength: 1, maxLength: 3 }),
        startArb,
        ({ ct, documentId, bytes }, edits, start) => {
          const body = edits.reduce(applyEdit, JSON.parse(decode(bytes, 0, bytes.length)) as Json);
          seen[check(ct, utf8(serialize(body)), documentId, start).way]++;
        },
      ),
      { numRuns: 300 },
    );
    expect(seen.fast).toBeGreaterThan(10);
    expect(seen.unsure).toBeGreaterThan(10);
  });
});

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((c, k) => c === b[k]);

// ---------------------------------------------------------------------------------------------------------
// 5. What is checked several bytes at a time: Folio's layout between members, plain string bytes, timestamps

describe('bytes checked several at a time', () => {
  /** The canonical article file with the draft's title as raw JSON text. */
  const titled = (raw: string) => sub(ARTICLE, '"title": "Hello"', `"title": ${raw}`);

  it('find a quote, a backslash or a control character at any position in a string', () => {
    // Strings of every length around a word boundary, with the byte that ends a plain run at each position.
    const specials: Array<[string, Way]> = [
      ['\\"', 'fast'],
      ['\\\\', 'fast'],
      ['\\n', 'fast'],
      ['\\u00e9', 'fast'],
      ['é', 'fast'],
      ['😀', 'fast'],
      ['\u0001', 'unsure'],
      ['\t', 'unsure'],
      ['\u001f', 'unsure'],
      ['\\x', 'unsure'],
      ['\\u00g0', 'unsure'],
      ['"', 'unsure'],
    ];
    for (let length = 0; length <= 13; length++) {
      for (let at = 0; at <= length; at++) {
        for (const [special, way] of specials) {
          const raw = `"${'a'.repeat(at)}${special}${'b'.repeat(length - at)}"`;
          same(check(articles, utf8(titled(raw)), 'a1').way, way, () => raw);
        }
      }
      same(check(articles, utf8(titled(`"${'c'.repeat(length)}"`)), 'a1').way, 'fast');
    }
  });

  it('check every byte of a timestamp', () => {
    // Each of the 24 characters replaced by a character of each class: only a digit for a digit passes.
    for (let k = 0; k < 24; k++) {
      for (const ch of ['0', '9', '/', ':', '-', 'T', 'Z', '.', 'a', ' ', '\u00ff', '\u0660']) {
        const ts = TS1.slice(0, k) + ch + TS1.slice(k + 1);
        const text = sub(ARTICLE, `"createdAt": "${TS1}"`, `"createdAt": "${ts}"`);
        const { way } = check(articles, utf8(text), 'a1');
        same(way, ts === TS1 || (/\d/.test(TS1[k]) && /^[0-9]$/.test(ch)) ? 'fast' : 'unsure', () => ts);
      }
    }
  });

  it('are never read past `end`, wherever the file is cut (no throw, no answer from the bytes after it)', () => {
    const bytes = utf8(ARTICLE);
    for (let to = 0; to <= bytes.length; to++) check(articles, bytes, 'a1', FRESH, 0, to);
    for (let to = 0; to <= bytes.length; to++) {
      const { buf, from } = embed(bytes.subarray(0, to), utf8('{"x":'), HOSTILE);
      check(articles, buf, 'a1', FRESH, from, from + to);
    }
  });

  it('read files in another layout than the first one read, and back, the same as the slow path', () => {
    // A reader's layout is the first version it reads; files indented otherwise go the general way.
    const other = JSON.stringify(JSON.parse(ARTICLE), null, '\t');
    const crlf = ARTICLE.replace(/\n/g, '\r\n');
    for (const order of [
      [other, ARTICLE, crlf, ARTICLE],
      [ARTICLE, other, ARTICLE, crlf],
    ]) {
      const plan = scanPlan(articles);
      for (const text of order) {
        const bytes = utf8(text);
        const out: number[] = [];
        const table = new Map<string, number>();
        const n = scanDocument(plan, bytes, 0, bytes.length, 'a1', table, out);
        expect(n).toBeGreaterThan(0);
        expect(slowPath(articles, text, 'a1', FRESH)).toEqual({ summary: out, table: [...table] });
      }
    }
  });

  it('read separators shorter than eight bytes the general way', () => {
    // A one-letter attribute and no indentation: `,\n"a": ` is seven bytes, less than one word.
    const short: ContentType = {
      ...tags,
      attributes: { a: { type: 'string' }, bb: { type: 'string' } },
    } as ContentType;
    const plan = scanPlan(short);
    const text = `${JSON.stringify({ documentId: 't1', published: { id: 4, a: 'x', bb: 'y', createdAt: TS1, updatedAt: TS2, publishedAt: TS3 } }, null, 1).replace(/\n +/g, '\n')}\n`;
    expect(text).toContain(',\n"a": "x",\n"bb": "y"');
    for (let k = 0; k < 2; k++) {
      const bytes = utf8(text);
      const out: number[] = [];
      const table = new Map<string, number>();
      expect(scanDocument(plan, bytes, 0, bytes.length, 't1', table, out)).toBe(3);
      expect(slowPath(short, text, 't1', FRESH)).toEqual({ summary: out, table: [...table] });
    }
  });

  it('take a member whose key only begins like the expected one the general way', () => {
    // The layout match covers the key's closing quote and the colon: "titles" or "title " must not pass as "title".
    expect(check(articles, utf8(sub(ARTICLE, '"views": 3', '"viewsx": 3')), 'a1').way).toBe('unsure');
    expect(check(articles, utf8(sub(ARTICLE, '"views": 3', '"view": 3')), 'a1').way).toBe('unsure');
    expect(check(articles, utf8(sub(ARTICLE, '"views": 3', '"views" : 3')), 'a1').way).toBe('fast');
    expect(check(articles, utf8(sub(ARTICLE, '"views": 3', '"views":  3')), 'a1').way).toBe('fast');
    expect(check(articles, utf8(sub(ARTICLE, ',\n        "views"', ' ,\n        "views"')), 'a1').way).toBe('fast');
    expect(check(articles, utf8(sub(ARTICLE, ',\n        "views"', ',\n         "views"')), 'a1').way).toBe('fast');
  });
});
