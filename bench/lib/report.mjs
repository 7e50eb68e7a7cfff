// Verdicts and tables: each figure printed next to its target, and the misses counted for the summary line.
let missed = 0;
export const missedCount = () => missed;

/** 'PASS (< 5 ms)' or 'FAIL (< 5 ms)'; `ok` false counts a miss. */
export function verdict(ok, target) {
  if (!ok) missed++;
  return `${ok ? 'PASS' : 'FAIL'} (${target})`;
}

export const atMost = (value, max, unit) => verdict(value < max, `< ${max.toLocaleString('en')} ${unit}`);
export const atLeast = (share, min) => verdict(share >= min, `>= ${Math.round(min * 100)}%`);

export function table(head, rows) {
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

export const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
export const mb = (x) => `${Number.isFinite(x) ? x.toFixed(0) : '?'} MB`;
