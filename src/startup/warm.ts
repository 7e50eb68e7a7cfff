import type { DocumentIndex } from '../documents/doc-index.js';
import { type LazySource, lazySourceOf } from './lazy.js';

/** How long the warm-up waits while busy before it goes on anyway (a steady load must not hold it back for ever). */
const YIELD_AT_MOST_MS = 100;

/**
 * Decodes every document still waiting to be (from the snapshot, or read on a thread at a first start),
 * a slice at a time, so a fresh server answers requests meanwhile and heavy queries find everything
 * decoded soon after start. `busy`: whether requests are being answered (or just were); the slices
 * wait while it says so, at most YIELD_AT_MOST_MS at a time.
 */
export async function warmDocuments(
  index: DocumentIndex,
  uids: string[],
  sliceMs = 8,
  busy?: () => boolean,
): Promise<number> {
  const pending: LazySource[] = [];
  await yieldTo(busy);
  // Documents indexed by their summaries are made first, a slice at a time too (see DocumentIndex.addSummary).
  for (const uid of uids) {
    let left = index.has(uid) ? index.waiting(uid) : 0;
    while (left > 0) {
      await yieldTo(busy);
      const until = performance.now() + sliceMs;
      do left = index.makeWaiting(uid, 256);
      while (left > 0 && performance.now() < until);
      await new Promise((r) => setImmediate(r));
    }
  }
  for (const uid of uids)
    if (index.has(uid))
      for (const doc of index.documents(uid)) {
        const src = lazySourceOf(doc);
        if (src && !src.loaded) pending.push(src);
      }
  let at = 0;
  while (at < pending.length) {
    await yieldTo(busy);
    const until = performance.now() + sliceMs;
    while (at < pending.length && performance.now() < until) {
      for (let k = 0; k < 64 && at < pending.length; k++) pending[at++].load();
    }
    await new Promise((r) => setImmediate(r));
  }
  return pending.length;
}

async function yieldTo(busy: (() => boolean) | undefined) {
  for (let waited = 0; busy?.() && waited < YIELD_AT_MOST_MS; waited += 2) await new Promise((r) => setTimeout(r, 2));
}
