import { parentPort, workerData } from 'node:worker_threads';
import { stampRange } from './stamp-range.js';

/** Runs on a worker thread (see stampFiles in snapshot.ts): the stamps of a range of one folder's files. */
const { contentDir, pluralName, ids } = workerData as { contentDir: string; pluralName: string; ids: string };
const out = stampRange(contentDir, pluralName, ids.split('\n'));
parentPort!.postMessage(out, [out.buffer as ArrayBuffer]);
