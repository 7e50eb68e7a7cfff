/*
 * On its own so reader threads (see startup/read-block.ts) load it without the rest of the store.
 */

import { parseJsonFile } from './json-syntax.js';

/** Parses a document file's text; the documentId inside, when present, must match the file name. */
export function parseDocumentText(text: string, documentId: string): Record<string, unknown> {
  const body = parseJsonFile(text);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new Error('a document file must hold a JSON object');
  const b = body as Record<string, unknown>;
  if (b.documentId !== undefined && b.documentId !== documentId) {
    throw new Error(`"documentId" ${JSON.stringify(b.documentId)} does not match the file name`);
  }
  return b;
}
