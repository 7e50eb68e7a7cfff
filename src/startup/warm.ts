import type { DocumentIndex } from '../documents/doc-index.js';

/**
 * Prepares every type still waiting to be (documents indexed from the snapshot, or read on a thread at a first
 * start: made, decoded, linked), a slice at a time, so a fresh server answers requests meanwhile and heavy
 * queries find everything ready soon after start. `busy`: whether requests are being answered (or just were);
 * the slices wait while it says so, a while at a time (see SlicedRunner). Resolves with how many documents it
 * decoded.
 */
export async function warmDocuments(index: DocumentIndex, uids: string[], busy?: () => boolean): Promise<number> {
  const before = index.decodedCount;
  index.work.busy = busy;
  for (const uid of uids) {
    const job = index.has(uid) ? index.preparing(uid) : undefined;
    if (job) await index.work.background(job);
  }
  return index.decodedCount - before;
}
