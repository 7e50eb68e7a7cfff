import { randomBytes } from 'node:crypto';
import { serialize } from '../../store/serialize.js';
import { conflictsOf } from './document.js';
import { Conflict, isObject } from './three-way.js';

/**
 * A merged document as text: the store's serialisation when nothing conflicts; otherwise the same text with
 * git's conflict markers around each conflicting field only, labelled with its path:
 *
 *       <<<<<<< ours: locales.en.draft.title
 *       "title": "Hello",
 *       =======
 *       "title": "Bonjour",
 *       >>>>>>> theirs: locales.en.draft.title
 *
 * Keeping one side and deleting the marker lines leaves valid JSON. Where one side removed what the other
 * changed (a version, a locale), that side is empty, or holds the line before without its comma when the
 * removed key was the last of its object.
 */
export interface ConflictLabel {
  ours: string;
  theirs: string;
}

export function renderMerged(
  tree: Record<string, unknown>,
  opts: { markerSize?: number; labels?: ConflictLabel } = {},
): { text: string; conflicts: Array<{ path: string; ours: unknown; theirs: unknown }> } {
  const found = conflictsOf(tree);
  if (!found.length) return { text: serialize(tree), conflicts: [] };
  const nonce = `folio-conflict-${randomBytes(8).toString('hex')}-`;
  const byMark = new Map<string, { path: string; conflict: Conflict }>();
  found.forEach((c, i) => byMark.set(`${nonce}${i}`, c));
  let n = 0;
  const marked = replaceConflicts(tree, () => `${nonce}${n++}`);
  const size = Math.max(7, opts.markerSize ?? 7);
  const labels = opts.labels ?? { ours: 'ours', theirs: 'theirs' };
  const lines = serialize(marked).split('\n');
  const out: string[] = [];
  const line = new RegExp(`^(\\s*)("(?:[^"\\\\]|\\\\.)*": )?"(${nonce}\\d+)"(,?)$`);
  for (const text of lines) {
    const m = line.exec(text);
    const c = m && byMark.get(m[3]);
    if (!m || !c) {
      out.push(text);
      continue;
    }
    const [, indent, key = '', , comma] = m;
    const side = (v: unknown) => (v === undefined ? [] : valueLines(indent, key, v, comma));
    let ours = side(c.conflict.ours);
    let theirs = side(c.conflict.theirs);
    // The last key removed on one side: the line before loses its comma there.
    const before = out[out.length - 1];
    if (!comma && (!ours.length || !theirs.length) && before?.endsWith(',')) {
      out.pop();
      ours = ours.length ? [before, ...ours] : [before.slice(0, -1)];
      theirs = theirs.length ? [before, ...theirs] : [before.slice(0, -1)];
    }
    out.push(
      `${'<'.repeat(size)} ${labels.ours}: ${c.path}`,
      ...ours,
      '='.repeat(size),
      ...theirs,
      `${'>'.repeat(size)} ${labels.theirs}: ${c.path}`,
    );
  }
  return {
    text: out.join('\n'),
    conflicts: found.map((c) => ({ path: c.path, ours: c.conflict.ours, theirs: c.conflict.theirs })),
  };
}

/** A copy of the tree with each conflict replaced by the string `mark()` gives. */
function replaceConflicts(tree: unknown, mark: () => string): unknown {
  if (tree instanceof Conflict) return mark();
  if (Array.isArray(tree)) return tree.map((x) => replaceConflicts(x, mark));
  if (isObject(tree)) return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, replaceConflicts(v, mark)]));
  return tree;
}

/** `"key": value` (or an array item's value) written at `indent`, as the serialisation writes it. */
function valueLines(indent: string, key: string, value: unknown, comma: string): string[] {
  const lines = JSON.stringify(value, null, 2).split('\n');
  return lines.map((l, i) => `${i ? indent : `${indent}${key}`}${l}${i === lines.length - 1 ? comma : ''}`);
}

/** A conflict left in a file: where (the path its markers name, or none for git's own), its line and both sides. */
export interface MarkedConflict {
  path: string | undefined;
  line: number;
  ours: string;
  theirs: string;
}

const START = /^<{7,}(?: (.*))?$/;
const BASE = /^\|{7,}(?: .*)?$/;
const MIDDLE = /^={7,}$/;
const END = /^>{7,}(?: .*)?$/;

/** The conflicts marked in a file's text (empty when it has no conflict markers). */
export function markedConflicts(text: string): MarkedConflict[] {
  const out: MarkedConflict[] = [];
  const lines = text.split('\n');
  let open: { path: string | undefined; line: number; ours: string[]; theirs: string[] } | undefined;
  let part: 'ours' | 'base' | 'theirs' = 'ours';
  lines.forEach((l, i) => {
    const start = START.exec(l);
    if (start) {
      const label = start[1] ?? '';
      const at = label.indexOf(': ');
      open = { path: at >= 0 ? label.slice(at + 2) : undefined, line: i + 1, ours: [], theirs: [] };
      part = 'ours';
    } else if (open && BASE.test(l)) part = 'base';
    else if (open && MIDDLE.test(l)) part = 'theirs';
    else if (open && END.test(l)) {
      out.push({ path: open.path, line: open.line, ours: sideValue(open.ours), theirs: sideValue(open.theirs) });
      open = undefined;
    } else if (open && part !== 'base') open[part].push(l);
  });
  return out;
}

/** One side of a conflict, shortly: the value of its `"key": value` when it parses, else its text. */
function sideValue(lines: string[]): string {
  const text = lines.join('\n').trim();
  if (!text) return '(removed)';
  const short = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
  const body = text.replace(/,$/, '');
  for (const attempt of [`{${body}}`, body]) {
    try {
      const value = JSON.parse(attempt) as unknown;
      const entries = isObject(value) && attempt !== body ? Object.values(value) : [value];
      return short(JSON.stringify(entries[entries.length - 1]));
    } catch {
      /* not that form */
    }
  }
  return short(text.replace(/\s+/g, ' '));
}
