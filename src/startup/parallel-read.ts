import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import { listedFile } from '../store/document-file.js';
import { BufferText } from './text-arena.js';
import type { LoadProblem } from '../store/store.js';
import { type Keep, META, type ReadBlock, readBlock } from './read-block.js';
import type { ReadJob, ReaderSetup } from './read-worker.js';

/**
 * Reading 100,000 small files is mostly system calls, and checking them is mostly JSON parsing; both split
 * well over threads. A first start (no snapshot yet, as in CI from a fresh clone) reads a large collection
 * on reader threads, in blocks each thread claims as it finishes one, and indexes each block as it arrives,
 * in documentId order, while the readers go on with the next ones.
 */
const WORKER = new URL('./read-worker.js', import.meta.url);

/**
 * By default (`server.readThreadsFrom`), from this many files a collection is read on threads: below it
 * the threads' start-up costs more than they save.
 */
export const PARALLEL_READ_FROM = 20000;

/** One reader per core, two at least (they overlap with the indexing here) and four at most (the disk is shared). */
const READERS = Math.min(4, Math.max(2, availableParallelism()));

/** Files per block: small enough that indexing follows the reads closely, large enough that messages are few. */
export const BLOCK_FILES = 1000;

/**
 * Bytes of a block's texts in the ring that texts read ahead go to (see `read`): room for 1,000 files of 4 KB;
 * a text past it is left for its document to read itself.
 */
const RING_SLOT = 4 * 1024 * 1024;

/** Reader threads for this many files: no more than they have blocks to claim. */
export const readersFor = (files: number, threads = READERS) =>
  Math.max(1, Math.min(threads, Math.ceil(files / BLOCK_FILES)));

/** Whether the compiled worker is there (it is not when running the TypeScript sources directly). */
export const parallelReadAvailable = () => WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

/**
 * One block of files read on a thread: `ids` are the block's documentIds, `meta` is laid out as `META`
 * says, and `chunks` hold the texts when they were kept (see read-block.ts).
 */
export interface ThreadBlock {
  ids: string[];
  meta: Float64Array;
  /** Where each file read starts in `meta` (files that failed or were gone have none). */
  starts: number[];
  /** Locale codes for the summaries' positions. */
  table: string[];
  chunks: BufferText[];
  problems: LoadProblem[];
}

/**
 * The documentIds of the files to read, in order: an array, or a view over documents (see prefetch.ts), so a
 * million of them need not be copied into an array first.
 */
export interface IdList {
  readonly length: number;
  at(i: number): string | undefined;
}

/** Reader threads for one collection, started before its files are listed (see `startReaders`). */
export interface Readers {
  /**
   * Reads the given files (sorted documentIds), yielding blocks in documentId order as they come in,
   * with their texts if `keep`. Once only. With `ahead`, the threads read at most that many blocks past the
   * last one taken; texts alone (`keep` 'texts') then go to a ring of `ahead + 2` slots: a block's texts are
   * overwritten once the block after next is taken.
   */
  read(ids: IdList, keep?: Keep, ahead?: number): AsyncGenerator<ThreadBlock>;
  /** Stops threads that will not be given files after all. */
  close(): void;
}

/**
 * Starts `threads` reader threads for one collection's folder. A thread takes CPU and time to start, so
 * the loader starts them while it lists the folder, and hands them the files once listed. Each thread
 * claims the next block as it finishes one, so the threads finish together even when they get unequal
 * shares of the cores.
 * Blocks a failed thread claimed and did not deliver, or that no thread is left to claim, are read here.
 */
export function startReaders(contentDir: string, ct: ContentType, threads = READERS): Readers {
  const arrived = new Map<number, ReadBlock>();
  const gone: boolean[] = [];
  let live = 0;
  let wake: (() => void) | undefined;
  const workers: Array<Worker | undefined> = [];
  for (let w = 0; w < threads; w++) {
    let worker: Worker;
    try {
      worker = new Worker(WORKER, { workerData: { contentDir, ct, worker: w } satisfies ReaderSetup });
    } catch {
      gone[w] = true;
      continue;
    }
    workers[w] = worker;
    live++;
    worker.on('message', (r: ReadBlock) => {
      arrived.set(r.block, r);
      wake?.();
    });
    // Node delivers every message a thread posted before 'exit', so a block missing after it never comes.
    worker.once('exit', () => {
      gone[w] = true;
      live--;
      wake?.();
    });
    worker.once('error', () => undefined);
  }
  let limit: Int32Array | undefined;
  const close = () => {
    if (limit) {
      Atomics.store(limit, 0, 0x7fffffff);
      Atomics.notify(limit, 0);
    }
    for (const worker of workers) void worker?.terminate();
  };
  const read = (ids: IdList, keep: Keep = false, ahead?: number) => {
    const count = Math.ceil(ids.length / BLOCK_FILES);
    let bytes = 0;
    for (let i = 0; i < ids.length; i++) bytes += ids.at(i)!.length + 1;
    const job: ReadJob = {
      // Every block's ids in one shared buffer, decoded by a thread only for the blocks it claims, rather
      // than a copy of them all (as strings) for each thread.
      ids: new SharedArrayBuffer(bytes),
      starts: new SharedArrayBuffer(4 * (count + 1)),
      next: new SharedArrayBuffer(4),
      claimedBy: new SharedArrayBuffer(4 * count),
      keep,
      limit: ahead === undefined ? undefined : new SharedArrayBuffer(4),
      // Texts alone, read ahead: block b in slot b % slots, free again once the blocks after it are taken.
      ring:
        keep === 'texts' && ahead !== undefined
          ? { buffer: new SharedArrayBuffer((ahead + 2) * RING_SLOT), slots: ahead + 2, slotBytes: RING_SLOT }
          : undefined,
    };
    if (job.limit) {
      limit = new Int32Array(job.limit);
      limit[0] = ahead!;
    }
    // A block's ids are written when the threads may claim it: with `ahead`, only as the blocks before it are
    // taken (a thread reads them only once `limit` has passed it), so a million ids are not gathered and
    // joined in one go on the event loop, in the middle of a query waiting for them.
    const text = Buffer.from(job.ids);
    const starts = new Int32Array(job.starts);
    const blocks: Array<string[] | undefined> = [];
    let written = 0;
    const writeUpTo = (end: number) => {
      for (; written < Math.min(end, count); written++) {
        const b = written;
        const list: string[] = [];
        for (let i = b * BLOCK_FILES; i < Math.min(ids.length, (b + 1) * BLOCK_FILES); i++) list.push(ids.at(i)!);
        blocks[b] = list;
        starts[b + 1] = starts[b] + text.write(list.join('\n'), starts[b], 'latin1');
      }
    };
    writeUpTo(ahead ?? count);
    const claimedBy = new Int32Array(job.claimedBy).fill(-1);
    for (const worker of workers) worker?.postMessage(job);
    // Whether block `b` may still come from a thread: the one that claimed it, or any, while unclaimed.
    const coming = (b: number) => {
      const w = Atomics.load(claimedBy, b);
      return w >= 0 ? !gone[w] : live > 0;
    };
    // The blocks are taken in order as the caller asks for them.
    return (async function* inOrder() {
      const state = { table: new Map<string, number>(), scratch: { buf: Buffer.allocUnsafe(256 * 1024) } };
      try {
        for (let b = 0; b < count; b++) {
          let r = arrived.get(b);
          while (!r && coming(b)) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            r = arrived.get(b);
          }
          arrived.delete(b);
          if (limit) {
            writeUpTo(b + 1 + ahead!);
            Atomics.store(limit, 0, b + 1 + ahead!);
            Atomics.notify(limit, 0);
          }
          const list = blocks[b]!;
          blocks[b] = undefined;
          r ??= readBlock(contentDir, ct, b, list, state, keep);
          yield threadBlock(r, list, (id) => listedFile(contentDir, ct.pluralName, id));
        }
      } finally {
        close();
      }
    })();
  };
  return { read, close };
}

/** Reads the given files (sorted documentIds) of one collection on reader threads started now. */
export function readInWorkers(
  contentDir: string,
  ids: string[],
  ct: ContentType,
  keep = false,
  threads = READERS,
): AsyncGenerator<ThreadBlock> {
  return startReaders(contentDir, ct, readersFor(ids.length, threads)).read(ids, keep);
}

function threadBlock(r: ReadBlock, ids: string[], fileOf: (documentId: string) => string): ThreadBlock {
  const m = r.meta;
  const starts: number[] = [];
  for (let at = 0; at < m.length; at += META.summary + m[at + META.count]) starts.push(at);
  return {
    ids,
    meta: m,
    starts,
    table: r.table,
    chunks: r.chunks.map((b) => new BufferText(Buffer.from(b))),
    problems: r.problems.map(([i, message]) => ({ file: fileOf(ids[i]), message })),
  };
}
