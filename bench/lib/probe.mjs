// Preloaded by the bench only (`node --import bench/lib/probe.mjs bin/folio serve …`, with an IPC channel):
// measures the server's event loop from inside its process without changing the product. On the message
// 'probe' it answers the longest event-loop block since the last 'reset' (or since start) and its RSS.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  // 1 ms resolution: a block shows as the delay of the timer it held back, to within a millisecond.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  process.on('message', (m) => {
    if (m === 'reset') {
      delay.reset();
      process.send({ reset: true });
    } else if (m === 'probe') {
      // The histogram counts from the timer's due time: max is the longest stretch the loop was held.
      process.send({ maxBlockMs: delay.max / 1e6, rssMb: process.memoryUsage.rss() / 1048576 });
    }
  });
  // The channel must not keep a server that was told to stop alive.
  process.channel?.unref();
}
