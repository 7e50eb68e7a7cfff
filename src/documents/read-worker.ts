import { parentPort, workerData } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { type ReaderState, readBlock } from './read-block.js';

/**
 * Runs on a reader thread (see parallel-read.ts): once given the blocks of one collection's files,
 * claims the next unclaimed block, reads it and posts its result, until none is left, so the main
 * thread indexes while the reads go on and no thread waits while another has blocks still to read.
 */

/** `worker`: this thread's number, which it writes beside each block it claims. */
export interface ReaderSetup { dir: string; ct: ContentType; worker: number }
/**
 * `blocks`: every block's documentIds, joined by newlines. `next`: one Int32, the next block to claim;
 * `claimedBy`: per block, the number of the thread that claimed it (-1: none yet); both shared by all
 * the threads and the main thread. `keep`: keep the files' texts (see read-block.ts).
 */
export interface ReadJob { blocks: string[]; next: SharedArrayBuffer; claimedBy: SharedArrayBuffer; keep: boolean }

const { dir, ct, worker } = workerData as ReaderSetup;
const state: ReaderState = { table: new Map<string, number>(), scratch: { buf: Buffer.allocUnsafe(256 * 1024) } };

parentPort!.once('message', ({ blocks, next, claimedBy, keep }: ReadJob) => {
  const counter = new Int32Array(next);
  const owners = new Int32Array(claimedBy);
  for (let b = Atomics.add(counter, 0, 1); b < blocks.length; b = Atomics.add(counter, 0, 1)) {
    Atomics.store(owners, b, worker);
    parentPort!.postMessage(readBlock(dir, ct, b, blocks[b].split('\n'), state, keep));
  }
  // Done: let the thread end.
  parentPort!.close();
});
