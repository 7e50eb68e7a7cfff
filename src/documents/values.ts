import type { ScalarAttribute } from '../schema/types.js';

/**
 * Scalar attribute kinds: how a written value is coerced and checked. Each check is tagged with when it
 * applies: `always` (types, maximum constraints), or `publish` (required, minimums, formats), as Strapi does.
 */
export type Coerced =
  { ok: true; value: unknown } | { ok: false; message: string; plain?: boolean; castValue?: { value: unknown } };

const fail = (message: string, plain = false): Coerced => ({ ok: false, message, plain });
/** A value that could not be cast: Strapi reports the cast result (`NaN`, sent as null), not the value sent. */
const castFail = (message: string, value: unknown): Coerced => ({ ok: false, message, castValue: { value } });
const ok = (value: unknown): Coerced => ({ ok: true, value });

/** A scalar as yup prints it in messages, or null for objects and arrays. */
function printSimple(v: unknown, quoteStrings: boolean): string | null {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return quoteStrings ? `"${v}"` : v;
  return null;
}

/** A value as yup prints it in messages: objects and arrays as indented JSON whose leaves are printed scalars. */
export function printValue(value: unknown, quoteStrings = true): string {
  const simple = printSimple(value, quoteStrings);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, v: unknown) {
      return printSimple(this[key], quoteStrings) ?? v;
    },
    2,
  );
}

export const typeMessage = (name: string, type: string, value: unknown) =>
  `${name} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

const yupType: Record<string, string> = {
  string: 'string',
  text: 'string',
  richtext: 'string',
  email: 'string',
  password: 'string',
  uid: 'string',
  enumeration: 'string',
  integer: 'number',
  biginteger: 'string',
  float: 'number',
  decimal: 'number',
  boolean: 'boolean',
  date: 'date',
  time: 'string',
  datetime: 'date',
  timestamp: 'date',
  blocks: 'array',
  json: 'mixed',
};
export const yupTypeOf = (type: string) => yupType[type] ?? 'mixed';

const DATE = /^\d{4}-\d{2}-\d{2}/;

/** The number the ASCII digits `s[from, to)` write. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
}
const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/;
export const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
export const UID_FORMAT = /^[A-Za-z0-9-_.~]*$/;

function toNumber(name: string, v: unknown): number | Coerced {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return fail(`${name} must be a finite number`);
    return v;
  }
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (typeof v === 'string')
    return castFail(
      `${typeMessage(name, 'number', NaN).slice(0, -1)} (cast from the value \`${printValue(v)}\`).`,
      null,
    );
  return fail(typeMessage(name, 'number', v));
}

const isDateValid = (y: number, m: number, d: number) => {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
};

/** Whether `v` starts with a `yyyy-MM-dd` date that exists (read digit by digit: every stored date is checked). */
const isDateText = (v: unknown): v is string =>
  typeof v === 'string' && DATE.test(v) && isDateValid(digits(v, 0, 4), digits(v, 5, 7), digits(v, 8, 10));

export function parseDateTime(v: unknown): Date | undefined {
  if (typeof v === 'number') {
    // Past ±8.64e15 ms a number is no date (an Invalid Date, which `toISOString` throws on).
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  if (typeof v === 'string' && v.trim() !== '') {
    const d = /^\d+$/.test(v) ? new Date(Number(v)) : new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v;
  return undefined;
}

/**
 * The link addresses blocks take: web, mail, phone and FTP addresses, and paths of the site. A path is `/` not
 * followed by `/` or `\`: browsers read `//host` and `/\host` as another site. Tabs and line breaks are refused
 * too, since browsers drop them from an address (`/<tab>/host` is `//host`).
 */
export const isBlockLink = (url: string) =>
  /^(?:https?:|ftp:|mailto:|tel:|\/(?![/\\]))/.test(url) && !/[\t\n\r]/.test(url);

const BLOCK_TYPES = new Set(['paragraph', 'heading', 'quote', 'code', 'list', 'list-item', 'image', 'text', 'link']);
function checkBlocks(nodes: unknown, depth = 0): boolean {
  if (!Array.isArray(nodes) || depth > 50) return false;
  return nodes.every((n) => {
    if (!n || typeof n !== 'object' || Array.isArray(n)) return false;
    const node = n as Record<string, unknown>;
    if (typeof node.type !== 'string' || !BLOCK_TYPES.has(node.type)) return false;
    if (node.type === 'text') return typeof node.text === 'string';
    if (
      node.type === 'heading' &&
      !(Number.isInteger(node.level) && (node.level as number) >= 1 && (node.level as number) <= 6)
    )
      return false;
    if (node.type === 'link' && (typeof node.url !== 'string' || !isBlockLink(node.url))) return false;
    if (node.type === 'image') return !!node.image && typeof node.image === 'object';
    return node.children === undefined || checkBlocks(node.children, depth + 1);
  });
}

/** What the checks of every write refuse in a text value (undefined: nothing). */
function textProblem(name: string, attr: ScalarAttribute, s: string): string | undefined {
  const max = attr.maxLength ?? (attr.type === 'string' ? 255 : attr.type === 'uid' ? 256 : undefined);
  if (max !== undefined && s.length > max) return `${name} must be at most ${max} characters`;
  // Only the hash is stored, so a password's minimum is checked on the clear text, on every write.
  if (attr.type === 'password' && attr.minLength !== undefined && s.length < attr.minLength)
    return `${name} must be at least ${attr.minLength} characters`;
  return undefined;
}

const TEXTS = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid']);
const NUMBERS = new Set(['integer', 'float', 'decimal']);

/** Whether `coerceScalar` takes this number as it is for a number attribute (the checks of its number case). */
const numberPasses = (attr: ScalarAttribute, n: number) =>
  Number.isFinite(n) &&
  (attr.type !== 'integer' || Number.isSafeInteger(n)) &&
  (attr.max === undefined || n <= Number(attr.max));

/**
 * What `coerceScalar` refuses in a non-null stored value (undefined: nothing), without a result object for a
 * text, a boolean, a number or a date: every value of every document file is checked as it is decoded.
 */
export function scalarProblem(name: string, attr: ScalarAttribute, v: unknown): string | undefined {
  if (typeof v === 'string' && TEXTS.has(attr.type)) return textProblem(name, attr, v);
  if (typeof v === 'boolean' && attr.type === 'boolean') return undefined;
  if (typeof v === 'number' && NUMBERS.has(attr.type) && numberPasses(attr, v)) return undefined;
  if (typeof v === 'string' && attr.type === 'date')
    return isDateText(v) ? undefined : 'Invalid format, expected yyyy-MM-dd';
  const c = coerceScalar(name, attr, v);
  return c.ok ? undefined : c.message;
}

/** Coerces a non-null written value and applies the checks that hold on every write. */
export function coerceScalar(name: string, attr: ScalarAttribute, v: unknown): Coerced {
  switch (attr.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid': {
      // Strapi's string checks are strict: a number is refused, not stored as its text.
      if (typeof v !== 'string') return fail(typeMessage(name, 'string', v));
      const problem = textProblem(name, attr, v);
      return problem ? fail(problem) : ok(v);
    }
    case 'enumeration': {
      const values = attr.enum ?? [];
      if (typeof v !== 'string' || !values.includes(v))
        return fail(`${name} must be one of the following values: ${[...values, ''].join(', ')}`);
      return ok(v);
    }
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = toNumber(name, v);
      if (typeof n !== 'number') return n;
      if (attr.type === 'integer' && !Number.isInteger(n)) return fail(`${name} must be an integer`);
      if (attr.type === 'integer' && !Number.isSafeInteger(n)) return fail(`${name} must be a safe integer`);
      if (attr.max !== undefined && n > Number(attr.max))
        return fail(`${name} must be less than or equal to ${attr.max}`);
      return ok(n);
    }
    case 'biginteger': {
      const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : v;
      if (typeof s !== 'string' || !/^-?\d+$/.test(s)) return fail(`${name} must be a valid integer`);
      return ok(BigInt(s).toString());
    }
    case 'boolean': {
      if (v === true || v === 'true' || v === 't' || v === '1' || v === 1) return ok(true);
      if (v === false || v === 'false' || v === 'f' || v === '0' || v === 0) return ok(false);
      return fail(typeMessage(name, 'boolean', v));
    }
    case 'date': {
      if (!isDateText(v)) return fail('Invalid format, expected yyyy-MM-dd', true);
      return ok(v.length === 10 ? v : v.slice(0, 10));
    }
    case 'time': {
      const m = typeof v === 'string' ? TIME.exec(v) : null;
      if (!m) return fail('Invalid time format, expected HH:mm:ss.SSS', true);
      const ms = (m[4] ?? '.000').slice(1).padEnd(3, '0');
      return ok(`${m[1]}:${m[2]}:${m[3]}.${ms}`);
    }
    case 'datetime':
    case 'timestamp': {
      const d = parseDateTime(v);
      if (!d) return fail('Invalid format, expected a timestamp or an ISO date', true);
      return ok(attr.type === 'datetime' ? d.toISOString() : String(d.getTime()));
    }
    case 'blocks':
      if (!checkBlocks(v)) return fail(`${name} must be a valid blocks value (an array of block nodes)`);
      return ok(v);
    case 'json':
      return ok(v);
  }
  return fail(`${name} has an unsupported type`);
}

/**
 * The longest value a schema's `regex` is tried on. A bound keeps a linear pattern's work small; it does not make a
 * backtracking one safe (`^([a-z0-9]+-?)+$` takes exponential time on 40 characters): those are refused when the
 * schema is loaded (schema/regex-check.ts).
 */
export const PATTERN_INPUT_MAX = 4096;

/** Checks that only apply when content is published (or on types without draft & publish). */
export function publishChecks(name: string, attr: ScalarAttribute, v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (attr.type === 'password') return undefined; // stored as a hash; checked as clear text on write
  if (typeof v === 'string') {
    if (attr.minLength !== undefined && v.length < attr.minLength)
      return `${name} must be at least ${attr.minLength} characters`;
    if (attr.regex && v !== '' && v.length > PATTERN_INPUT_MAX)
      return `${name} must be at most ${PATTERN_INPUT_MAX} characters to be checked against its pattern`;
    if (attr.regex && v !== '' && !new RegExp(attr.regex).test(v))
      return `${name} must match the following: "/${attr.regex}/"`;
    if (attr.type === 'email' && v !== '' && !EMAIL.test(v)) return `${name} must be a valid email`;
    if (attr.type === 'uid' && !attr.regex && !UID_FORMAT.test(v))
      return `${name} must match the following: "/^[A-Za-z0-9-_.~]*$/"`;
  }
  if (typeof v === 'number' && attr.min !== undefined && v < Number(attr.min))
    return `${name} must be greater than or equal to ${attr.min}`;
  return undefined;
}

/** Default of a scalar attribute for a new document, coerced (a bad default in a schema is ignored). */
export function defaultValue(name: string, attr: ScalarAttribute): unknown {
  if (attr.default === undefined || attr.default === null) return null;
  const c = coerceScalar(name, attr, attr.default);
  return c.ok ? c.value : null;
}
