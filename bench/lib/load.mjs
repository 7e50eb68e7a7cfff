// Load from this process against a server in another process: one URL repeated for a while (autocannon), or a
// list of distinct URLs each asked exactly once (a socket client of the bench's own).
import autocannon from 'autocannon';
import { askEach } from './distinct-client.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;

/** One URL asked over and over by 10 connections for BENCH_DURATION seconds (default 5). */
export async function loadRepeated(url) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/**
 * Every path of `paths` asked once, in order, by 10 connections; req/s over the whole run. The requests are
 * sent by a small socket client (distinct-client.mjs), which costs this process far less CPU per answer than
 * autocannon; BENCH_CLIENT=autocannon sends the same requests with autocannon.
 */
export async function loadDistinct(origin, paths) {
  if (process.env.BENCH_CLIENT === 'autocannon') return loadDistinctAutocannon(origin, paths);
  const t0 = process.hrtime.bigint();
  const { asked, latencies } = await askEach(origin, paths, CONNECTIONS);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (asked !== paths.length) throw new Error(`asked ${asked} of ${paths.length} distinct URLs`);
  const sorted = latencies.sort();
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { rps: paths.length / seconds, p50: at(0.5), p99: at(0.99) };
}

async function loadDistinctAutocannon(origin, paths) {
  let next = 0;
  const t0 = process.hrtime.bigint();
  const r = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    pipelining: 1,
    amount: paths.length,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++] }) }],
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.non2xx || r.errors) throw new Error(`${origin}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  if (next !== paths.length || r.requests.total !== paths.length)
    throw new Error(`asked ${r.requests.total} of ${paths.length} distinct URLs (${next} built)`);
  return { rps: paths.length / seconds, p50: r.latency.p50, p99: r.latency.p99 };
}

/** The time of one GET from sending to the last byte of its answer (ms), and the parsed body. */
export async function timed(url) {
  const t0 = process.hrtime.bigint();
  const res = await fetch(url);
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A deterministic shuffle (mulberry32), so every run asks the same URLs in the same order. */
export function shuffled(xs, seed = 32) {
  const out = [...xs];
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
