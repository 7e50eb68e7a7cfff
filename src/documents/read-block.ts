import { join } from 'node:path';
import type { ContentType } from '../schema/types.js';
import { TextArena, readKept } from '../store/snapshot.js';
import { parseDocumentText } from '../store/store.js';
import { summarizeBody } from './codec.js';
import { type ScanPlan, scanDocument, scanPlan } from './scan-document.js';

/**
 * Reads, checks and summarises one block of a collection's files (on a reader thread, see
 * parallel-read.ts, or on this one when threads fail). Nothing is decoded into values: the index needs
 * only each version's id, locale and status, and the texts are kept for decoding on first use. Files
 * are checked straight from their bytes (scan-document.ts); only those it is unsure of are parsed.
 * No stamps are taken here: the snapshot takes them when it is built, after the first answer.
 */

/** A block's result, in a form that crosses threads cheaply (numbers in one array, texts in a few buffers). */
export interface ReadBlock {
  /** The block's number, in documentId order. */
  block: number;
  /** Per readable file, in order: its index in the block, chunk, offset, length, summary length, summary (see `summarizeBody`). */
  meta: Float64Array;
  problems: Array<[number, string]>;
  /** The locale codes the summaries' positions refer to (the reader's table so far). */
  table: string[];
  /** The texts, shared rather than transferred (see TextArena). */
  chunks: SharedArrayBuffer[];
}

/** Where meta's fields are, after a file's start. */
export const META = { index: 0, chunk: 1, offset: 2, length: 3, count: 4, summary: 5 } as const;

/** Each block's texts go in buffers of this size (a block of 2,000 files of 1.5 KB fills three). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * What one reader keeps across its blocks: the locale table, a buffer for long files, the type's scan
 * plan, and text buffers of CHUNK_BYTES made ahead of the reads (see read-worker.ts).
 */
export interface ReaderState { table: Map<string, number>; scratch: { buf: Buffer }; plan?: ScanPlan; spare?: Buffer[] }

/** Reads the files `ids` (documentIds) of one folder. */
export function readBlock(dir: string, ct: ContentType, block: number, ids: string[], state: ReaderState): ReadBlock {
  const { table, scratch } = state;
  const plan = (state.plan ??= scanPlan(ct));
  const arena = new TextArena(CHUNK_BYTES, true, state.spare);
  const meta: number[] = [];
  const problems: Array<[number, string]> = [];
  // Ids are plain alphanumerics (SAFE_ID), so the folder's prefix is joined once, not per file.
  const prefix = join(dir, '_').slice(0, -1);
  for (let i = 0; i < ids.length; i++) {
    const documentId = ids[i];
    const head = meta.length;
    try {
      const { chunk, offset, length } = readKept(`${prefix}${documentId}.json`, scratch, arena);
      meta.push(i, arena.chunks.length - 1, offset, length, 0);
      let count = scanDocument(plan, chunk, offset, offset + length, documentId, table, meta);
      if (count < 0) count = summarizeBody(ct, parseDocumentText(chunk.toString('utf8', offset, offset + length), documentId), table, meta);
      meta[head + META.count] = count;
    } catch (err) {
      meta.length = head;
      // A file removed since the folder was listed is simply not there.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push([i, (err as Error).message]);
    }
  }
  return { block, meta: new Float64Array(meta), problems, table: [...table.keys()], chunks: arena.chunks.map((c) => c.buffer as SharedArrayBuffer) };
}
