import type { ContentType } from '../schema/types.js';
import { TextArena, readKept } from './text-arena.js';
import { documentPaths, readDocumentBytes } from '../store/document-file.js';
import { parseDocumentText } from '../store/document-text.js';
import { NOT_A_DOCUMENT_ID } from '../store/document-id.js';
import { summarizeBody } from '../documents/file-format.js';
import { type ScanPlan, scanDocument, scanPlan } from './scan-document.js';

/**
 * Reads, checks and summarises one block of a collection's files (on a reader thread, see
 * parallel-read.ts, or on this one when threads fail). Nothing is decoded into values: the index needs
 * only each version's id, locale and status. Files are checked straight from their bytes
 * (scan-document.ts); only those it is unsure of are parsed. No stamps are taken here: the snapshot
 * takes them when it is built, after the first answer.
 *
 * Texts are kept only when asked (`keep`: a command that will decode every document now). A server
 * keeps none: each file is read into the same buffer, and decoded from the file again on first use or
 * in the background (see LazySource), so the path to its first answer writes no fresh memory per text.
 */

/** A block's result, in a form that crosses threads cheaply (numbers in one array, texts in a few buffers). */
export interface ReadBlock {
  /** The block's number, in documentId order. */
  block: number;
  /**
   * Per readable file, in order: its index in the block, chunk (-1: not kept), offset, length, summary
   * length, summary (see `summarizeBody`).
   */
  meta: Float64Array;
  problems: Array<[number, string]>;
  /** The locale codes the summaries' positions refer to (the reader's table so far). */
  table: string[];
  /** The texts kept, shared rather than transferred (see TextArena), but for `keep` 'texts'. */
  chunks: Array<SharedArrayBuffer | ArrayBuffer>;
}

/** Where meta's fields are, after a file's start. */
export const META = { index: 0, chunk: 1, offset: 2, length: 3, count: 4, summary: 5 } as const;

/** Each block's kept texts go in buffers of this size (a block of 1,000 files of 1.5 KB fills two). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * What one reader keeps across its blocks: the locale table, the buffer files are read into, the type's
 * scan plan and its files' paths.
 */
export interface ReaderState {
  table: Map<string, number>;
  scratch: { buf: Buffer };
  plan?: ScanPlan;
  paths?: (documentId: string) => string | undefined;
  /** Where texts alone are read into, block b in slot `b % slots` (see parallel-read.ts `read`). */
  ring?: TextRing;
}

/** One shared buffer in `slots` slots of `slotBytes`, reused block after block. */
export interface TextRing {
  buffer: SharedArrayBuffer;
  slots: number;
  slotBytes: number;
}

/**
 * What a reader keeps of the files it reads: nothing but their summaries (`false`), their texts as well
 * (`true`), or their texts alone, unchecked and without summaries (`'texts'`: documents indexed already,
 * read ahead of their decoding, which checks them), in a ring of slots reused block after block (see
 * ReaderState), else in buffers moved to the main thread rather than shared, so the reader holds none.
 */
export type Keep = boolean | 'texts';

/** Reads the files `ids` (documentIds) of `ct`'s collection under `contentDir`, keeping what `keep` says. */
export function readBlock(
  contentDir: string,
  ct: ContentType,
  block: number,
  ids: string[],
  state: ReaderState,
  keep: Keep = false,
): ReadBlock {
  const { table, scratch } = state;
  const plan = (state.plan ??= scanPlan(ct));
  const textsOnly = keep === 'texts';
  // Texts alone go to the block's slot of the ring when there is one: no memory is allocated per block.
  const ring = textsOnly ? state.ring : undefined;
  const base = ring ? (block % ring.slots) * ring.slotBytes : 0;
  const arena = !keep
    ? undefined
    : ring
      ? new TextArena(0, true, Buffer.from(ring.buffer, base, ring.slotBytes))
      : new TextArena(CHUNK_BYTES, !textsOnly);
  const meta: number[] = [];
  const problems: Array<[number, string]> = [];
  const pathOf = (state.paths ??= documentPaths(contentDir, ct.pluralName));
  for (let i = 0; i < ids.length; i++) {
    const documentId = ids[i];
    const path = pathOf(documentId);
    if (path === undefined) {
      problems.push([i, NOT_A_DOCUMENT_ID]);
      continue;
    }
    const head = meta.length;
    try {
      let bytes: Buffer;
      let offset = 0;
      let length: number;
      if (arena) {
        ({ chunk: bytes, offset, length } = readKept(path, scratch, arena, contentDir));
        meta.push(i, arena.chunks.length - 1, base + offset, length, 0);
        if (textsOnly) continue;
      } else {
        length = readDocumentBytes(path, scratch, contentDir);
        bytes = scratch.buf;
        meta.push(i, -1, 0, length, 0);
      }
      let count = scanDocument(plan, bytes, offset, offset + length, documentId, table, meta);
      if (count < 0)
        count = summarizeBody(
          ct,
          parseDocumentText(bytes.toString('utf8', offset, offset + length), documentId),
          table,
          meta,
        );
      meta[head + META.count] = count;
    } catch (err) {
      meta.length = head;
      // A file removed since the folder was listed is simply not there.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push([i, (err as Error).message]);
    }
  }
  return {
    block,
    meta: new Float64Array(meta),
    problems,
    table: [...table.keys()],
    chunks: ring ? [ring.buffer] : (arena?.chunks ?? []).map((c) => c.buffer as SharedArrayBuffer | ArrayBuffer),
  };
}
