// A load client for distinct URLs: keep-alive HTTP/1.1 connections over plain sockets, each sending its next
// GET as soon as the answer to the last one is read. It sends what autocannon sends for the same list of paths,
// and reads each answer's status line, headers and Content-Length bytes of body, without building objects per
// header: autocannon spent several times the CPU per answer of 10 to 20 KB, on a machine whose two cores the
// server shares with it.
import { connect } from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Asks every path of `paths` once, in order, over `connections` sockets to `origin` (http://host:port).
 * Resolves with the count asked, each answer's latency (ms) and the first failure (a status other than 200,
 * an answer without Content-Length, a closed socket), if any.
 */
export function askEach(origin, paths, connections) {
  const { hostname, port } = new URL(origin);
  const host = `${hostname}:${port}`;
  let next = 0;
  let done = 0;
  let open = 0;
  const latencies = new Float64Array(paths.length);
  return new Promise((resolve, reject) => {
    let failed;
    const fail = (err) => {
      if (failed) return;
      failed = err;
      reject(err);
    };
    const finish = () => {
      if (--open === 0 && !failed) resolve({ asked: done, latencies });
    };
    for (let c = 0; c < Math.min(connections, paths.length); c++) {
      open++;
      const socket = connect({ host: hostname, port: Number(port), noDelay: true });
      let buffered = null;
      let need = -1; // body bytes still to read of the current answer; -1 while reading its head
      let started = 0n;
      let index = -1;
      let waiting = false; // a request sent, its answer not read in full yet
      const send = () => {
        if (failed || next >= paths.length) {
          socket.end();
          return;
        }
        waiting = true;
        index = next++;
        started = process.hrtime.bigint();
        socket.write(`GET ${paths[index]} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      };
      socket.on('connect', send);
      socket.on('error', fail);
      socket.on('close', () => {
        if (waiting) fail(new Error(`connection closed before the answer to ${paths[index]} was read`));
        finish();
      });
      socket.on('data', (chunk) => {
        let data = buffered ? Buffer.concat([buffered, chunk]) : chunk;
        buffered = null;
        while (data.length) {
          if (need < 0) {
            const end = data.indexOf(CRLF2);
            if (end < 0) {
              buffered = data;
              return;
            }
            const head = data.toString('latin1', 0, end);
            const status = head.slice(9, 12);
            if (status !== '200') return fail(new Error(`${paths[index]}: HTTP ${status}`));
            const m = /\r\ncontent-length: *(\d+)/i.exec(head);
            if (!m) return fail(new Error(`${paths[index]}: an answer without Content-Length`));
            need = Number(m[1]);
            data = data.subarray(end + 4);
          }
          const take = Math.min(need, data.length);
          need -= take;
          data = data.subarray(take);
          if (need > 0) return;
          need = -1;
          waiting = false;
          latencies[index] = Number(process.hrtime.bigint() - started) / 1e6;
          done++;
          if (data.length) return fail(new Error(`${paths[index]}: bytes after the answer`));
          send();
        }
      });
    }
  });
}
