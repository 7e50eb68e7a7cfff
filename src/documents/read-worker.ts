import { parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import type { ContentType } from '../schema/types.js';
import { TextArena, readWithStamp } from '../store/snapshot.js';
import { parseDocumentText } from '../store/store.js';
import { decodeDocument } from './codec.js';
import { summarize } from './lazy.js';

/**
 * Runs on a worker thread (see parallel-read.ts): reads, checks and summarises a range of one collection's
 * files, and hands back their bytes (transferred, not copied), stamps and summaries. Decoded values are
 * dropped here; the main thread decodes each document again when it is first read.
 */
export interface ReadJob { dir: string; ids: string; ct: ContentType }
export interface ReadResult {
  /** Per readable file: index in the job, mtime, size, inode, chunk, offset, length, summary length, summary. */
  meta: Float64Array;
  problems: Array<[number, string]>;
  table: string[];
  chunks: ArrayBuffer[];
}

const { dir, ids, ct } = workerData as ReadJob;
const list = ids.split('\n');
const arena = new TextArena();
const scratch = { buf: Buffer.allocUnsafe(256 * 1024) };
const table = new Map<string, number>();
const meta: number[] = [];
const problems: Array<[number, string]> = [];
for (let i = 0; i < list.length; i++) {
  const documentId = list[i];
  try {
    const { text, kept, stamp } = readWithStamp(join(dir, `${documentId}.json`), scratch, arena);
    const summary = summarize(decodeDocument(ct, documentId, parseDocumentText(text, documentId)), table);
    meta.push(i, stamp.mtimeMs, stamp.size, stamp.ino, arena.chunks.length - 1, kept.offset, kept.length, summary.length, ...summary);
  } catch (err) {
    // A file removed since the folder was listed is simply not there.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push([i, (err as Error).message]);
  }
}
const chunks = arena.chunks.map((c) => c.buffer as ArrayBuffer);
const result: ReadResult = { meta: new Float64Array(meta), problems, table: [...table.keys()], chunks };
parentPort!.postMessage(result, [result.meta.buffer as ArrayBuffer, ...chunks]);
