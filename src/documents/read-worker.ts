import { parentPort, workerData } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { type ReaderState, readBlock } from './read-block.js';

/**
 * Runs on a reader thread (see parallel-read.ts): once given its blocks of one collection's files,
 * reads them in order, posting each block's result as soon as it is ready, so the main thread indexes
 * while the reads go on.
 */

export interface ReaderSetup { dir: string; ct: ContentType }
/** `keep`: keep the files' texts (see read-block.ts). */
export interface ReadJob { blocks: Array<{ block: number; ids: string }>; keep: boolean }

const { dir, ct } = workerData as ReaderSetup;
const state: ReaderState = { table: new Map<string, number>(), scratch: { buf: Buffer.allocUnsafe(256 * 1024) } };

parentPort!.once('message', ({ blocks, keep }: ReadJob) => {
  for (const { block, ids } of blocks) parentPort!.postMessage(readBlock(dir, ct, block, ids.split('\n'), state, keep));
  // Done: let the thread end.
  parentPort!.close();
});
