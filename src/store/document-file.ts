import { join } from 'node:path';
import { DOCUMENT_SUFFIX, SAFE_ID } from './document-id.js';

/*
 * Where a project's document files are, for the store and for the start-up's reader and stamping threads,
 * which cannot share a Store but must not know the layout themselves. On its own, so those threads load
 * nothing else of the store.
 */

export { readWhole as readDocumentBytes } from './read-file.js';

/** The folder of one collection's document files. */
export function collectionDirOf(contentDir: string, pluralName: string): string {
  return join(contentDir, 'documents', pluralName);
}

/**
 * The file of each documentId of one collection (undefined for a name that is not a documentId: no
 * document file can have it). The folder is joined once: a start asks for 100,000 of these.
 */
export function documentPaths(contentDir: string, pluralName: string): (documentId: string) => string | undefined {
  const prefix = join(collectionDirOf(contentDir, pluralName), '_').slice(0, -1);
  return (documentId) => (SAFE_ID.test(documentId) ? prefix + documentId + DOCUMENT_SUFFIX : undefined);
}

/** The file a listed document name is in, whether or not it is a documentId (to report one that is not). */
export function listedFile(contentDir: string, pluralName: string, documentId: string): string {
  return join(collectionDirOf(contentDir, pluralName), documentId + DOCUMENT_SUFFIX);
}
