import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ContentType } from '../schema/types.js';
import type { LoadProblem } from '../store/store.js';
import { BufferText, type SnapshotEntry } from '../store/snapshot.js';
import type { ReadJob, ReadResult } from './read-worker.js';
import { renumber } from './lazy.js';

/**
 * Reading 100,000 small files is mostly system calls, and checking them is mostly JSON parsing; both split
 * well over threads. A first start (no snapshot yet, as in CI from a fresh clone) reads a large collection
 * on worker threads, which return what a snapshot would hold; the documents are then indexed exactly as
 * from a snapshot.
 */
const WORKER = new URL('./read-worker.js', import.meta.url);

/** Below this many files the threads' start-up costs more than they save. */
export const PARALLEL_READ_FROM = 20000;

/** Whether the compiled worker is there (it is not when running the TypeScript sources directly). */
export const parallelReadAvailable = () => WORKER.protocol === 'file:' && existsSync(fileURLToPath(WORKER));

export interface ParallelRead {
  /** Sorted by documentId; summaries refer to `table`. */
  entries: SnapshotEntry[];
  table: string[];
  problems: LoadProblem[];
}

/** Reads the given files (sorted documentIds) of one collection on `threads` workers. Rejects if a worker fails. */
export async function readInWorkers(dir: string, ids: string[], ct: ContentType, threads = 2): Promise<ParallelRead> {
  const per = Math.ceil(ids.length / threads);
  const ranges = Array.from({ length: threads }, (_, w) => ids.slice(w * per, (w + 1) * per)).filter((r) => r.length);
  const results = await Promise.all(ranges.map((range) => run({ dir, ids: range.join('\n'), ct })));
  const entries: SnapshotEntry[] = [];
  const problems: LoadProblem[] = [];
  const table = new Map<string, number>();
  results.forEach((r, w) => {
    const range = ranges[w];
    const chunks = r.chunks.map((b) => new BufferText(Buffer.from(b)));
    const codes = r.table;
    const m = r.meta;
    let at = 0;
    while (at < m.length) {
      const n = m[at + 7];
      // Each worker numbered locales on its own: renumber into one table.
      const summary = renumber(Array.from(m.subarray(at + 8, at + 8 + n)), codes, table);
      entries.push({
        documentId: range[m[at]], mtimeMs: m[at + 1], size: m[at + 2], ino: m[at + 3],
        summary, blob: chunks[m[at + 4]], offset: m[at + 5], length: m[at + 6],
      });
      at += 8 + n;
    }
    for (const [i, message] of r.problems) problems.push({ file: join(dir, `${range[i]}.json`), message });
  });
  return { entries, table: [...table.keys()], problems };
}

function run(job: ReadJob): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job });
    worker.once('message', (r: ReadResult) => { resolve(r); void worker.terminate(); });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`reader thread exited with ${code}`)));
  });
}
