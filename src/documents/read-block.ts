import { join } from 'node:path';
import type { ContentType } from '../schema/types.js';
import { TextArena, readWithStamp } from '../store/snapshot.js';
import { parseDocumentText } from '../store/store.js';
import { summarizeBody } from './codec.js';

/**
 * Reads, checks and summarises one block of a collection's files (on a reader thread, see
 * parallel-read.ts, or on this one when threads fail). Nothing is decoded into values: the index needs
 * only each version's id, locale and status, and the texts are kept for decoding on first use.
 */

/** A block's result, in a form that crosses threads cheaply (numbers in one array, texts in a few buffers). */
export interface ReadBlock {
  /** The block's number, in documentId order. */
  block: number;
  /**
   * Per readable file, in order: its index in the block, mtime, size, inode, chunk, offset, length,
   * summary length, summary (see `summarizeBody`).
   */
  meta: Float64Array;
  problems: Array<[number, string]>;
  /** The locale codes the summaries' positions refer to (the reader's table so far). */
  table: string[];
  chunks: ArrayBuffer[];
}

/** Where meta's fields are, after a file's start. */
export const META = { index: 0, mtimeMs: 1, size: 2, ino: 3, chunk: 4, offset: 5, length: 6, count: 7, summary: 8 } as const;

/** Each block's texts go in buffers of this size (a block of 2,000 files of 1.5 KB fills three). */
const CHUNK_BYTES = 1024 * 1024;

/** Reads the files `ids` (documentIds) of one folder. `table` numbers locales and is shared across a reader's blocks. */
export function readBlock(dir: string, ct: ContentType, block: number, ids: string[], table: Map<string, number>, scratch: { buf: Buffer }): ReadBlock {
  const arena = new TextArena(CHUNK_BYTES);
  const meta: number[] = [];
  const problems: Array<[number, string]> = [];
  for (let i = 0; i < ids.length; i++) {
    const documentId = ids[i];
    try {
      const { text, kept, stamp } = readWithStamp(join(dir, `${documentId}.json`), scratch, arena);
      const head = meta.length;
      meta.push(i, stamp.mtimeMs, stamp.size, stamp.ino, arena.chunks.length - 1, kept.offset, kept.length, 0);
      try {
        meta[head + META.count] = summarizeBody(ct, parseDocumentText(text, documentId), table, meta);
      } catch (err) {
        meta.length = head;
        throw err;
      }
    } catch (err) {
      // A file removed since the folder was listed is simply not there.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push([i, (err as Error).message]);
    }
  }
  return { block, meta: new Float64Array(meta), problems, table: [...table.keys()], chunks: arena.chunks.map((c) => c.buffer as ArrayBuffer) };
}
