// Preloaded by bench/gc-block.mjs only (`node --import …`, with an IPC channel): what the server's main thread
// did in its longest stretches between two ticks of a 1 ms timer, split by `/proc/self/task/<pid>/schedstat`
// into its own CPU time, its time waiting for a core (run queue) and the rest, time neither running nor
// runnable (waiting on a lock: the garbage collector's helper threads, or a synchronous read). On the message
// 'probe' it answers the longest of each since the last 'reset', the main thread's CPU time and the RSS.
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  const path = `/proc/self/task/${process.pid}/schedstat`;
  /** The main thread's time on a core and in the run queue, in ms. */
  const sched = () => {
    const [run, queued] = readFileSync(path, 'utf8').split(' ');
    return [Number(run) / 1e6, Number(queued) / 1e6];
  };
  const fresh = () => ({ wall: 0, ownCpu: 0, runQueue: 0, blocked: 0 });
  let max = fresh();
  let at = performance.now();
  let [ran, queued] = sched();
  setInterval(() => {
    const now = performance.now();
    const [r, q] = sched();
    const wall = now - at;
    max = {
      wall: Math.max(max.wall, wall),
      ownCpu: Math.max(max.ownCpu, r - ran),
      runQueue: Math.max(max.runQueue, q - queued),
      blocked: Math.max(max.blocked, wall - (r - ran) - (q - queued)),
    };
    at = now;
    ran = r;
    queued = q;
  }, 1).unref();
  process.on('message', (m) => {
    if (m === 'reset') {
      max = fresh();
      process.send({ reset: true });
    } else if (m === 'probe') {
      process.send({ ...max, mainCpuMs: sched()[0], rssMb: process.memoryUsage.rss() / 1048576 });
    }
  });
  process.channel?.unref();
}
