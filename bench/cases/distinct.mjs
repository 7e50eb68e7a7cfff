// Distinct URLs at 1,000 articles, each asked once (a site build's crawl, or many visitors each with their own
// filter): filter + sort + page, then the same with populate. Each case on a freshly started server, so no
// answer or row list is cached from the other.
import { freePort } from '../net.mjs';
import { loadDistinct, shuffled } from '../lib/load.mjs';
import { startFolio, stopAndWait, usage, waitFor } from '../lib/servers.mjs';
import { atLeast, table } from '../lib/report.mjs';

const COUNT = Number(process.env.BENCH_DISTINCT ?? 8000);
const SORTS = ['title:asc', 'title:desc', 'views:asc', 'views:desc'];
const PAGES = 4;

/** COUNT distinct filter + sort + page paths: views above 0 to 499 (at least half the articles), 4 sorts, pages 1-4. */
export function distinctPaths(count = COUNT, extra = '') {
  const paths = [];
  for (let v = 0; paths.length < count; v++)
    for (const sort of SORTS)
      for (let page = 1; page <= PAGES; page++) {
        const value = v % 500;
        const round = Math.floor(v / 500);
        // Past 8,000 paths, page sizes vary too, so every path stays distinct.
        const size = round ? `&pagination[pageSize]=${25 + round}` : '';
        paths.push(`/api/articles?filters[views][$gt]=${value}&sort=${sort}&pagination[page]=${page}${size}${extra}`);
      }
  return shuffled(paths.slice(0, count));
}

/**
 * COUNT other distinct URLs of the same shapes whose filter no measured path has (`views` below 500 to 999): the
 * warm-up before the measured run, so the server's code is compiled and its indexes built as on a server that has
 * been answering for a while, without answering any measured URL or filter value before it is measured.
 */
export function warmUpPaths(count = COUNT, extra = '') {
  return distinctPaths(count, extra).map((p) =>
    p.replace(/filters\[views\]\[\$gt\]=(\d+)/, (_, v) => `filters[views][$lt]=${500 + Number(v)}`),
  );
}

export async function distinctCases(dir, ceiling) {
  const cases = [
    ['filter + sort + page', '', 0.25],
    ['the same + populate=author,category', '&populate=author,category', 0.2],
  ];
  const rows = [];
  for (const [label, extra, target] of cases) {
    const port = await freePort();
    const server = startFolio(dir, port);
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(`${origin}/api/articles`);
    // One answer outside the list, checked for its shape.
    const check = await (await fetch(`${origin}/api/articles?filters[views][$gt]=600&sort=title:asc${extra}`)).json();
    if (!check.data?.length || (extra && !(check.data[0].author && check.data[0].category)))
      throw new Error(`${label}: unexpected answer ${JSON.stringify(check).slice(0, 300)}`);
    // The first COUNT answers of a fresh server (other filter values), shown beside the measured run: V8 compiles
    // Folio's code and the first queries build their indexes while they run.
    const warm = await measured(server, origin, warmUpPaths(COUNT, extra));
    rows.push(row(`${label}: a fresh server's first ${COUNT.toLocaleString('en')} URLs`, warm, ceiling, ''));
    const r = await measured(server, origin, distinctPaths(COUNT, extra));
    rows.push(
      row(`${label}: the next ${COUNT.toLocaleString('en')} URLs`, r, ceiling, atLeast(r.rps / ceiling.rps, target)),
    );
    await stopAndWait(server);
  }
  console.log('distinct URLs at 1,000 articles (each asked once, 10 connections, a fresh server per case):');
  console.log(table(['query', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'share of ceiling', 'target'], rows));
}

/** Each path asked once, with the server's CPU time per answer (every thread's, from /proc): steadier than req/s. */
async function measured(server, origin, paths) {
  const before = usage(server.pid).cpuMs;
  const r = await loadDistinct(origin, paths);
  return { ...r, cpuUs: ((usage(server.pid).cpuMs - before) * 1000) / paths.length };
}

function row(label, r, ceiling, verdict) {
  const share = r.rps / ceiling.rps;
  return [label, r.rps.toFixed(0), `${r.p50}`, `${r.p99}`, r.cpuUs.toFixed(0), `${(share * 100).toFixed(1)}%`, verdict];
}
