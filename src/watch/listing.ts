import type { DocumentIndex } from '../documents/doc-index.js';
import { LOOKS_PER_READ, pauser } from '../documents/pauser.js';
import { TEMP_MARK } from '../store/atomic.js';
import { SAFE_ID } from '../store/document-id.js';

/**
 * The documentIds of type `uid` whose folder listing (`names`) and index disagree: indexed without a file, then
 * files (named as a documentId) not indexed. Compared a slice at a time, with requests answered in between: the
 * folder of a large type holds as many names as it has documents.
 */
export async function listingDifferences(index: DocumentIndex, uid: string, names: string[]): Promise<string[]> {
  await index.whenMapped(uid);
  const pause = pauser();
  const onDisk = new Set<string>();
  for (const n of names) {
    const turn = pause(LOOKS_PER_READ);
    if (turn) await turn;
    if (n.endsWith('.json') && !n.startsWith(TEMP_MARK)) onDisk.add(n.slice(0, -5));
  }
  const differ: string[] = [];
  // A live iterator: a document indexed or removed while this pauses is seen as it is then.
  for (const doc of index.documents(uid)) {
    const turn = pause(LOOKS_PER_READ);
    if (turn) await turn;
    if (!onDisk.has(doc.documentId)) differ.push(doc.documentId);
  }
  for (const id of onDisk) {
    const turn = pause(LOOKS_PER_READ);
    if (turn) await turn;
    if (SAFE_ID.test(id) && !index.get(uid, id)) differ.push(id);
  }
  return differ;
}
