import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 now (the server started on it next may still race another process for it). */
export const freePort = () =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
