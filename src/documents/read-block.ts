import { join } from 'node:path';
import type { ContentType } from '../schema/types.js';
import { readWhole } from '../store/snapshot.js';
import { parseDocumentText } from '../store/store.js';
import { summarizeBody } from './codec.js';
import { type ScanPlan, scanDocument, scanPlan } from './scan-document.js';

/**
 * Reads, checks and summarises one block of a collection's files (on a reader thread, see
 * parallel-read.ts, or on this one when threads fail). Nothing is decoded into values: the index needs
 * only each version's id, locale and status. Files are checked straight from their bytes
 * (scan-document.ts); only those it is unsure of are parsed. Texts are not kept: each file is read into
 * the same buffer, and decoded from the file again on first use (see LazySource). Keeping 100,000 texts
 * meant writing 150 MB of fresh memory, a page fault every 4 KB, on the first start's critical path.
 * No stamps are taken here either: the snapshot takes them when it is built, after the first answer.
 */

/** A block's result, in a form that crosses threads cheaply (numbers in one array). */
export interface ReadBlock {
  /** The block's number, in documentId order. */
  block: number;
  /** Per readable file, in order: its index in the block, summary length, summary (see `summarizeBody`). */
  meta: Float64Array;
  problems: Array<[number, string]>;
  /** The locale codes the summaries' positions refer to (the reader's table so far). */
  table: string[];
}

/** Where meta's fields are, after a file's start. */
export const META = { index: 0, count: 1, summary: 2 } as const;

/** What one reader keeps across its blocks: the locale table, the buffer files are read into, the type's scan plan. */
export interface ReaderState { table: Map<string, number>; scratch: { buf: Buffer }; plan?: ScanPlan }

/** Reads the files `ids` (documentIds) of one folder. */
export function readBlock(dir: string, ct: ContentType, block: number, ids: string[], state: ReaderState): ReadBlock {
  const { table, scratch } = state;
  const plan = (state.plan ??= scanPlan(ct));
  const meta: number[] = [];
  const problems: Array<[number, string]> = [];
  // Ids are plain alphanumerics (SAFE_ID), so the folder's prefix is joined once, not per file.
  const prefix = join(dir, '_').slice(0, -1);
  for (let i = 0; i < ids.length; i++) {
    const documentId = ids[i];
    const head = meta.length;
    try {
      const length = readWhole(`${prefix}${documentId}.json`, scratch);
      meta.push(i, 0);
      let count = scanDocument(plan, scratch.buf, 0, length, documentId, table, meta);
      if (count < 0) count = summarizeBody(ct, parseDocumentText(scratch.buf.toString('utf8', 0, length), documentId), table, meta);
      meta[head + META.count] = count;
    } catch (err) {
      meta.length = head;
      // A file removed since the folder was listed is simply not there.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push([i, (err as Error).message]);
    }
  }
  return { block, meta: new Float64Array(meta), problems, table: [...table.keys()] };
}
