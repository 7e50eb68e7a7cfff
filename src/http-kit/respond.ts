import type { H3Event } from 'h3';
import { FolioError, storageError } from '../errors.js';

/** Sends a JSON answer: `body` is serialised here unless the serialised `text` is given. */
export function sendJson(event: H3Event, status: number, body: unknown, text?: string): string {
  event.node.res.statusCode = status;
  event.node.res.setHeader('content-type', 'application/json; charset=utf-8');
  return text ?? JSON.stringify(body);
}

/**
 * A JSON answer already encoded as UTF-8: sent as it is, without a copy; the last step of every answer
 * (finishResponse) treats it as it treats JSON text, for its ETag, a 304 and compression.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** Sends a JSON answer given as its UTF-8 bytes (see JsonBytes). */
export function sendJsonBytes(event: H3Event, status: number, bytes: Buffer): JsonBytes {
  sendJson(event, status, undefined, '');
  return new JsonBytes(bytes);
}

export function sendEmpty(event: H3Event, status = 204): null {
  event.node.res.statusCode = status;
  return null;
}

/** 405 in Strapi's error envelope, with the methods the path takes in `Allow`. */
export function methodNotAllowed(event: H3Event, allow: string[]): string {
  event.node.res.setHeader('allow', allow.join(', '));
  return sendJson(event, 405, new FolioError(405, 'MethodNotAllowedError', 'Method Not Allowed', {}).toJSON());
}

/** Maps any thrown error to Strapi's error envelope; unexpected errors become a 500 without details. */
export function sendError(event: H3Event, err: unknown, log: (msg: string) => void): string {
  if (err instanceof FolioError) return sendJson(event, err.status, err.toJSON());
  const storage = storageError(err);
  if (storage) {
    log(`write failed: ${(err as Error).message}`);
    return sendJson(event, storage.status, storage.toJSON());
  }
  log(`internal error: ${(err as Error)?.stack ?? String(err)}`);
  return sendJson(event, 500, new FolioError(500, 'InternalServerError', 'Internal Server Error', null).toJSON());
}
