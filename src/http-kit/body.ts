import type { IncomingMessage } from 'node:http';
import { FolioError, validationError } from '../errors.js';
import { printValue } from '../documents/values.js';
import { QUERY_LIMITS, loadQs } from '../query/parse-qs.js';

const MAX_JSON_DEPTH = 64;
const MAX_JSON_VALUES = 50_000;
const FORM_LIMIT = 56 * 1024;
const tooLarge = () => new FolioError(413, 'PayloadTooLargeError', 'request entity too large', null);

/**
 * Reads the raw request body, refusing (413) as soon as it passes `limit` bytes. A refused or failed body
 * is not kept: the rest is discarded as it comes.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // A body without a length (chunked) declares NaN, which is never over the limit: its bytes are counted below.
  if (Number(req.headers['content-length']) > limit) return Promise.reject(refuseRest(req, tooLarge()));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(refuseRest(req, err));
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (err: Error) => done(aborted(err));
    const onClose = () => {
      if (!req.complete) done(aborted());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

const aborted = (cause?: Error) =>
  new FolioError(
    400,
    'BadRequestError',
    `The request body could not be read${cause ? `: ${cause.message}` : ''}`,
    null,
  );

/** What is left of a refused body is discarded (the app closes the connection after the answer). */
function refuseRest(req: IncomingMessage, err: Error): Error {
  req.on('error', () => undefined);
  req.resume();
  return err;
}

/**
 * Parses a JSON or urlencoded body as Strapi's body parser does. Returns undefined when there is no body
 * it understands (the route then answers `Missing "data" payload`).
 */
export async function parseBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const isJson = type === 'application/json' || type.endsWith('+json');
  const isForm = type === 'application/x-www-form-urlencoded';
  // Other content types (multipart uploads among them) are left unread for the route that owns them.
  if (!isJson && !isForm) return undefined;
  const raw = await readBody(req, isForm ? Math.min(limit, FORM_LIMIT) : limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new FolioError(400, 'SyntaxError', 'Invalid UTF-8 in the request body', null);
  }
  if (text.trim() === '') return undefined;
  if (isForm) {
    return loadQs().parse(text, {
      depth: QUERY_LIMITS.depth,
      arrayLimit: QUERY_LIMITS.arrayLimit,
      parameterLimit: QUERY_LIMITS.parameterLimit,
      allowPrototypes: false,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8 parses iteratively: however deep, a body fails here only for its syntax (checkShape bounds the depth).
    throw new FolioError(400, 'SyntaxError', (err as Error).message, null);
  }
  if (value === null || typeof value !== 'object') {
    throw new FolioError(400, 'SyntaxError', 'invalid JSON, only supports object and array', null);
  }
  checkShape(value);
  return value;
}

/**
 * Refuses a JSON body nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES values: what
 * follows (validation, errors listed per value) costs time per value, and no document needs that many.
 */
function checkShape(root: object) {
  let values = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_JSON_DEPTH)
      throw validationError(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    for (const x of Object.values(v as object)) {
      if (++values > MAX_JSON_VALUES) throw validationError(`The JSON body holds more than ${MAX_JSON_VALUES} values`);
      if (x && typeof x === 'object') stack.push([x, depth + 1]);
    }
  }
}

/** The `data` object of a write body, or Strapi's 400 when it is missing or not an object. */
export function dataOf(body: unknown): Record<string, unknown> {
  const data =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).data : undefined;
  // As Strapi: only an object or an array gets past the payload check; the array then fails yup's object check.
  if (!data || typeof data !== 'object') throw validationError('Missing "data" payload in the request body');
  if (Array.isArray(data)) {
    const message =
      'this must be a `object` type, but the final value was: `null` ' +
      `(cast from the value \`${printValue(data)}\`).`;
    throw validationError(message, { errors: [{ path: [], message, name: 'ValidationError', value: null }] });
  }
  return data as Record<string, unknown>;
}
