import { EXIT } from './exit-codes.js';

/** Printing for the CLI: plain text for people, JSON for scripts, colour only on a TTY. */
const useColor = () => process.stdout.isTTY === true && !process.env.NO_COLOR;
export const bold = (s: string) => (useColor() ? `\x1b[1m${s}\x1b[22m` : s);
export const dim = (s: string) => (useColor() ? `\x1b[2m${s}\x1b[22m` : s);
export const red = (s: string) => (process.stderr.isTTY && !process.env.NO_COLOR ? `\x1b[31m${s}\x1b[39m` : s);

export function printJson(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A left-aligned table; long cells are cut so a row stays on one line. */
export function printTable(headers: string[], rows: string[][], maxCell = 48) {
  const cut = (s: string) => (s.length > maxCell ? `${s.slice(0, maxCell - 1)}…` : s);
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
