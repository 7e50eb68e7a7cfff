import { parentPort, workerData } from 'node:worker_threads';
import { stampRange } from './stamp-range.js';

/** Runs on a worker thread (see stampFiles in snapshot.ts): the stamps of a range of one folder's files. */
const { dir, ids, suffix } = workerData as { dir: string; ids: string; suffix: string };
const out = stampRange(dir, ids.split('\n'), suffix);
parentPort!.postMessage(out, [out.buffer as ArrayBuffer]);
