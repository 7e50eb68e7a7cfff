import { parentPort, workerData } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { CHUNK_BYTES, type ReaderState, readBlock } from './read-block.js';

/**
 * Runs on a reader thread (see parallel-read.ts): once given its blocks of one collection's files,
 * reads them in order, posting each block's result as soon as it is ready, so the main thread indexes
 * while the reads go on. Nothing is transferred (a detached buffer slows every later typed-array
 * access on this thread): the texts are in shared buffers, and the numbers are few enough to copy.
 */

/**
 * What a reader is started with; its blocks come later, in one message (see `ReadJob`). `spareBytes`:
 * how much text buffer to make while waiting for them.
 */
export interface ReaderSetup { dir: string; ct: ContentType; spareBytes: number }
export interface ReadJob { blocks: Array<{ block: number; ids: string }> }

const { dir, ct, spareBytes } = workerData as ReaderSetup;
const spare: Buffer[] = [];
const state: ReaderState = { table: new Map<string, number>(), scratch: { buf: Buffer.allocUnsafe(256 * 1024) }, spare };
let waiting = true;

// The thread is started before the folder is listed and has nothing to do until then: it makes the
// buffers the texts will go in, and writes to every page of them, so the kernel's page faults (a
// tenth of the reads' time) are paid now rather than during the reads. One buffer a turn of the event
// loop, so the files are taken up as soon as they come.
const PAGE = 4096;
const prepare = () => {
  if (!waiting || spare.length * CHUNK_BYTES >= spareBytes) return;
  const chunk = Buffer.from(new SharedArrayBuffer(CHUNK_BYTES));
  for (let at = 0; at < CHUNK_BYTES; at += PAGE) chunk[at] = 0;
  spare.push(chunk);
  setImmediate(prepare);
};
prepare();

parentPort!.once('message', ({ blocks }: ReadJob) => {
  waiting = false;
  for (const { block, ids } of blocks) parentPort!.postMessage(readBlock(dir, ct, block, ids.split('\n'), state));
  // Done: let the thread end (buffers left unused go with it).
  spare.length = 0;
  parentPort!.close();
});
