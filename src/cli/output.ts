import { EXIT } from './exit-codes.js';
import { printable } from '../printable.js';

/** Printing for the CLI: plain text for people, JSON for scripts, colour only on a TTY. */
const useColor = () => process.stdout.isTTY === true && !process.env.NO_COLOR;
export const bold = (s: string) => (useColor() ? `\x1b[1m${s}\x1b[22m` : s);
export const dim = (s: string) => (useColor() ? `\x1b[2m${s}\x1b[22m` : s);
export const red = (s: string) => (process.stderr.isTTY && !process.env.NO_COLOR ? `\x1b[31m${s}\x1b[39m` : s);

/** What JSON.stringify leaves as is, though a terminal obeys it (C1 controls) or breaks a line on it. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printJson(value: unknown) {
  // Still the same JSON: the characters are written as escapes.
  const text = JSON.stringify(value, null, 2).replace(RAW_IN_JSON, (c) => printable(c));
  process.stdout.write(`${text}\n`);
}

/**
 * A left-aligned table; long cells are cut so a row stays on one line. Cells hold text others wrote (titles,
 * commit authors and messages): their control characters are shown escaped, never sent to the terminal.
 */
export function printTable(headers: string[], rows: string[][], maxCell = 48) {
  const cut = (raw: string) => {
    const s = printable(raw);
    return s.length > maxCell ? `${s.slice(0, maxCell - 1)}…` : s;
  };
  const cells = rows.map((r) => r.map((c) => cut(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${bold(line(headers))}\n`);
  for (const r of cells) process.stdout.write(`${line(r)}\n`);
}

/** What a command prints when it is done: `json` with --json, else `text` unless --quiet. */
export function printResult(opts: { json?: boolean; quiet?: boolean }, json: unknown, text: string | (() => string)) {
  if (opts.json) return printJson(json);
  if (!opts.quiet) process.stdout.write(typeof text === 'string' ? text : text());
}

/** A failure the CLI reports as is: its message for people, `{"error":{name,message,details}}` with --json. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly errorName: string;
  readonly details: Record<string, unknown>;
  constructor(
    message: string,
    options: number | { exitCode?: number; name?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    const o = typeof options === 'number' ? { exitCode: options } : options;
    this.exitCode = o.exitCode ?? EXIT.error;
    this.errorName = o.name ?? 'Error';
    this.details = o.details ?? {};
  }
}
