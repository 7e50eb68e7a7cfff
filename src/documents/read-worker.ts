import { parentPort, workerData } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { readBlock } from './read-block.js';

/**
 * Runs on a reader thread (see parallel-read.ts): reads its blocks of one collection's files in order,
 * posting each block's result as soon as it is ready (texts transferred, not copied), so the main
 * thread indexes while the reads go on.
 */
export interface ReadJob { dir: string; ct: ContentType; blocks: Array<{ block: number; ids: string }> }

const { dir, ct, blocks } = workerData as ReadJob;
const table = new Map<string, number>();
const scratch = { buf: Buffer.allocUnsafe(256 * 1024) };
for (const { block, ids } of blocks) {
  const result = readBlock(dir, ct, block, ids.split('\n'), table, scratch);
  parentPort!.postMessage(result, [result.meta.buffer as ArrayBuffer, ...result.chunks]);
}
