import { parentPort, workerData } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { type Keep, type ReaderState, type TextRing, readBlock } from './read-block.js';

/**
 * Runs on a reader thread (see parallel-read.ts): once given the blocks of one collection's files,
 * claims the next unclaimed block, reads it and posts its result, until none is left, so the main
 * thread indexes while the reads go on and no thread waits while another has blocks still to read.
 */

/** `worker`: this thread's number, which it writes beside each block it claims. */
export interface ReaderSetup {
  /** The project's content folder: the store's code says where `ct`'s files are in it. */
  contentDir: string;
  ct: ContentType;
  worker: number;
}
/**
 * Shared by all the threads and the main thread: `ids`, every block's documentIds (ASCII) joined by
 * newlines, block b's from `starts[b]` to `starts[b + 1]` (Int32s); `next`, one Int32, the next block to
 * claim; `claimedBy`, per block, the number of the thread that claimed it (-1: none yet). `keep`: keep
 * the files' texts (see read-block.ts).
 */
export interface ReadJob {
  ids: SharedArrayBuffer;
  starts: SharedArrayBuffer;
  next: SharedArrayBuffer;
  claimedBy: SharedArrayBuffer;
  keep: Keep;
  /** One Int32: blocks from this one on wait to be claimed until it moves (texts read ahead, see prefetch.ts). */
  limit?: SharedArrayBuffer;
  /** Where texts alone are read into (see read-block.ts). */
  ring?: TextRing;
}

const { contentDir, ct, worker } = workerData as ReaderSetup;
const state: ReaderState = { table: new Map<string, number>(), scratch: { buf: Buffer.allocUnsafe(256 * 1024) } };

parentPort!.once('message', ({ ids, starts, next, claimedBy, keep, limit, ring }: ReadJob) => {
  state.ring = ring;
  const text = Buffer.from(ids);
  const at = new Int32Array(starts);
  const counter = new Int32Array(next);
  const owners = new Int32Array(claimedBy);
  const ahead = limit && new Int32Array(limit);
  for (let b = Atomics.add(counter, 0, 1); b < owners.length; b = Atomics.add(counter, 0, 1)) {
    if (ahead) for (let l = Atomics.load(ahead, 0); b >= l; l = Atomics.load(ahead, 0)) Atomics.wait(ahead, 0, l, 1000);
    Atomics.store(owners, b, worker);
    // A block past the last one written is claimable only once the reads are stopped: it holds no ids.
    const ids = at[b + 1] > at[b] ? text.toString('latin1', at[b], at[b + 1]).split('\n') : [];
    const read = readBlock(contentDir, ct, b, ids, state, keep);
    // Texts alone are moved, not shared: this thread then holds none of them (see Keep).
    parentPort!.postMessage(read, keep === 'texts' && !ring ? (read.chunks as ArrayBuffer[]) : []);
  }
  // Done: let the thread end.
  parentPort!.close();
});
