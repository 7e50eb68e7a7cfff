/**
 * Characters a terminal obeys rather than shows, or that start a new line: C0 and C1 controls (ESC starts the
 * sequences that clear the screen, set the window title, hide a link's address or write the clipboard), DEL, the
 * Unicode line and paragraph separators, and the bidirectional overrides that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escaped = (c: string) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text that others wrote (titles, commit authors and messages, what a client sent) made safe to print on a
 * terminal or in a log: one line, every control character shown as an escape (`\n`, `\u001b`) rather than obeyed.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}
