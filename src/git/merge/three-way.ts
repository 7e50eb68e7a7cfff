/**
 * Three-way merging of JSON values, the unit the document merge is made of. A value one side left as the
 * base had takes the other side's; two sides that agree give their value; two different changes give a
 * `Conflict`, left in the merged tree where the value goes (conflict-text.ts writes it out with markers).
 * `undefined` stands for a value that is absent (a key not in the object).
 */

/** Two different changes of one value: what each side holds (undefined: that side removed it). */
export class Conflict {
  constructor(
    readonly ours: unknown,
    readonly theirs: unknown,
  ) {}
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Conflict);

/** Deep equality of JSON values; the order of an object's keys does not count, an array's order does. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    return a.length === list.length && a.every((x, i) => same(x, list[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && same(x[k], y[k]));
}

/** A value taken as a whole: one side's change, both sides' same change, or a conflict. */
export function mergeWhole(base: unknown, ours: unknown, theirs: unknown): unknown {
  if (same(ours, theirs)) return ours;
  if (same(base, ours)) return theirs;
  if (same(base, theirs)) return ours;
  return new Conflict(ours, theirs);
}

/** How the keys of an object merge: a merge for each key, and the order keys are written in. */
export interface ObjectRule {
  /** Merges one key's three values (undefined: absent on that side). */
  key(name: string, base: unknown, ours: unknown, theirs: unknown): unknown;
  /** Keys in the order they are written; keys it does not list follow in the order the sides have them. */
  order?: readonly string[];
}

/**
 * Merges two objects key by key: a key removed on one side and unchanged on the other is removed; removed on
 * one and changed on the other is a conflict of that key. Keys are written in the rule's order, then in the
 * order of ours, with keys only theirs has after the key they follow there.
 */
export function mergeObject(
  base: Record<string, unknown> | undefined,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
  rule: ObjectRule,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keyOrder(ours, theirs, rule.order)) {
    const b = base?.[k];
    const o = ours[k];
    const t = theirs[k];
    let merged: unknown;
    if (o === undefined || t === undefined) {
      // Removed (or never there) on a side: kept only when the other side changed it.
      if (o === undefined && t === undefined) continue;
      const present = o === undefined ? t : o;
      if (b === undefined) merged = present;
      else if (same(b, present)) continue;
      else merged = new Conflict(o, t);
    } else merged = rule.key(k, b, o, t);
    out[k] = merged;
  }
  return out;
}

/**
 * The keys of both sides, in the order they are written (see `mergeObject`). Linear in the number of keys: a
 * side with tens of thousands of keys of its own (a hand edit, another tool) merges as fast as a small one.
 */
function keyOrder(ours: Record<string, unknown>, theirs: Record<string, unknown>, order?: readonly string[]) {
  const known = new Set<string>();
  const keys: string[] = [];
  const add = (k: string) => {
    if (known.has(k)) return;
    known.add(k);
    keys.push(k);
  };
  for (const k of order ?? []) if (Object.hasOwn(ours, k) || Object.hasOwn(theirs, k)) add(k);
  for (const k of Object.keys(ours)) add(k);
  // A run of keys only theirs has goes after the key before the run on their side (or first).
  const runs = new Map<string | undefined, string[]>();
  let before: string | undefined;
  for (const k of Object.keys(theirs)) {
    if (known.has(k)) before = k;
    else {
      const run = runs.get(before) ?? [];
      if (!run.length) runs.set(before, run);
      run.push(k);
    }
  }
  if (!runs.size) return keys;
  const out: string[] = [];
  for (const k of [undefined, ...keys]) {
    if (k !== undefined) out.push(k);
    for (const x of runs.get(k) ?? []) out.push(x);
  }
  return out;
}

/**
 * A text equal for two values exactly when `same` finds them equal (objects' keys sorted), to find equal
 * values through a Map instead of comparing each with each.
 */
export function valueKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(valueKey).join(',')}]`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${valueKey(o[k])}`).join(',')}}`;
}

/** The later of two ISO timestamps (either may be missing or null). */
export function later(a: unknown, b: unknown): unknown {
  if (typeof a !== 'string') return b ?? a;
  if (typeof b !== 'string') return a;
  return a >= b ? a : b;
}

/** The earlier of two ISO timestamps. */
export function earlier(a: unknown, b: unknown): unknown {
  if (typeof a !== 'string') return b ?? a;
  if (typeof b !== 'string') return a;
  return a <= b ? a : b;
}
