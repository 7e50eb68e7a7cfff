import { invalidKey, validationError } from '../errors.js';
import type { Scope } from './scope.js';
import type { ContentType } from '../schema/types.js';
import { checkDepth } from './bounds.js';
import { sortIds } from '../documents/sort-ids.js';
import type { Pause } from '../documents/sliced-work.js';

export interface SortKey {
  path: string[];
  desc: boolean;
}
type Getter = (row: unknown) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Sort texts read so far (`title:asc`): the short ones, at most a few hundred, so no client grows the map. */
const texts = new Map<string, readonly SortKey[]>();
const MAX_TEXT = 64;
const MAX_TEXTS = 256;

/**
 * Reads every `sort` form Strapi takes: `a`, `a:desc`, `a,b:desc`, arrays, dotted paths and objects. A short
 * text is read once and its keys shared by the reads that give it: frozen.
 */
export function parseSort(raw: unknown): readonly SortKey[] {
  if (typeof raw !== 'string' || raw.length > MAX_TEXT) return readSort(raw);
  let keys = texts.get(raw);
  if (!keys) {
    keys = Object.freeze(
      readSort(raw).map((k) => Object.freeze({ path: Object.freeze(k.path) as string[], desc: k.desc })),
    );
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(raw, keys);
  }
  return keys;
}

function readSort(raw: unknown): SortKey[] {
  const keys: SortKey[] = [];
  const fromString = (s: string) => {
    for (const part of s.split(',')) {
      const t = part.trim();
      if (!t) continue;
      const [field, order, ...rest] = t.split(':');
      if (rest.length || (order !== undefined && !/^(asc|desc)$/i.test(order))) {
        throw validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
      }
      keys.push({ path: field.split('.'), desc: order?.toLowerCase() === 'desc' });
    }
  };
  const fromObject = (o: Record<string, unknown>, prefix: string[]) => {
    for (const [k, v] of Object.entries(o)) {
      if (isObject(v)) fromObject(v, [...prefix, k]);
      else if (typeof v === 'string') {
        if (!/^(asc|desc)$/i.test(v))
          throw validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
        keys.push({ path: [...prefix, k], desc: v.toLowerCase() === 'desc' });
      } else throw validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    }
  };
  const visit = (v: unknown) => {
    if (v === undefined || v === null || v === '') return;
    if (typeof v === 'string') fromString(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (isObject(v)) fromObject(v, []);
    else throw validationError('Invalid sort parameter');
  };
  visit(raw);
  return keys;
}

/** A sort key resolved against a scope: how to read a row's value, and the direction. */
export interface SortGetter {
  get: Getter;
  desc: boolean;
}

/** Resolves sort keys against a scope (400s for unknown keys and paths too deep). */
export function sortGetters(scope: Scope, keys: readonly SortKey[], param = 'sort'): SortGetter[] {
  return keys.map(({ path, desc }) => ({ get: resolvePath(scope, path, param), desc }));
}

/**
 * Getters of the keys `parseSort` shares (see `texts`) on a type's own fields, per type: a getter of a field of
 * the document itself reads the row alone (no caller, status or locale), so the reads of a type that sort alike
 * share them. Keys through a relation or component are resolved for each read (they check the caller's access).
 */
const sharedGetters = new WeakMap<readonly SortKey[], WeakMap<ContentType, SortGetter[]>>();

/** `sortGetters` over a document scope of `ct`, shared by the reads that give the same short sort text. */
export function documentSortGetters(scope: Scope, ct: ContentType, keys: readonly SortKey[]): SortGetter[] {
  if (!Object.isFrozen(keys)) return sortGetters(scope, keys);
  let byType = sharedGetters.get(keys);
  const kept = byType?.get(ct);
  if (kept) return kept;
  const getters = sortGetters(scope, keys);
  // A path of one key resolved is a field of the document (a relation or component named alone is refused).
  if (keys.every((k) => k.path.length === 1)) {
    if (!byType) sharedGetters.set(keys, (byType = new WeakMap()));
    byType.set(ct, getters);
  }
  return getters;
}

interface Decorated<T> {
  row: T;
  i: number;
  values: unknown[];
}

const compareDecorated =
  (getters: SortGetter[]) =>
  <T>(a: Decorated<T>, b: Decorated<T>): number => {
    for (let k = 0; k < getters.length; k++) {
      const c = compareValues(a.values[k], b.values[k]);
      if (c !== 0) return getters[k].desc ? -c : c;
    }
    return a.i - b.i;
  };

/**
 * Builds a comparator from sort keys over a scope. Nulls come first ascending and last descending;
 * text compares by code unit; ties keep the incoming (id) order because Array.prototype.sort is stable.
 */
export function compileSort(
  scope: Scope,
  keys: readonly SortKey[],
  param = 'sort',
): (<T>(rows: T[]) => T[]) | undefined {
  if (!keys.length) return undefined;
  const getters = sortGetters(scope, keys, param);
  const compare = compareDecorated(getters);
  // Decorate-sort-undecorate: each row's sort values are read once, not once per comparison.
  return <T>(rows: T[]): T[] => {
    const decorated = rows.map((row, i) => ({ row, i, values: getters.map((g) => g.get(row)) }));
    decorated.sort(compare);
    return decorated.map((d) => d.row);
  };
}

/** What `compileSort` does, pausing every few hundred rows (see sliced-work.ts): for a scan of many rows. */
export function* sortSliced<T>(getters: SortGetter[], rows: T[]): Generator<Pause, T[]> {
  const decorated: Array<Decorated<T>> = [];
  for (let i = 0; i < rows.length; i++) {
    decorated.push({ row: rows[i], i, values: getters.map((g) => g.get(rows[i])) });
    if ((i & 255) === 255) yield;
  }
  const compare = compareDecorated(getters);
  const order = Int32Array.from(decorated, (_, i) => i);
  yield* sortIds(order, (a, b) => compare(decorated[a], decorated[b]));
  return Array.from(order, (i) => decorated[i].row);
}

function resolvePath(scope: Scope, path: string[], param: string): Getter {
  let s = scope;
  const steps: Array<(row: unknown) => unknown> = [];
  for (let i = 0; i < path.length; i++) {
    const f = s.field(path[i], path.slice(0, i + 1), param);
    if (f.kind === 'scalar') {
      if (i !== path.length - 1) throw invalidKey(path[i + 1], { path: path.join('.'), source: 'query', param });
      steps.push(f.get);
      break;
    }
    if (i === path.length - 1) throw invalidKey(path[i], { path: path.join('.'), source: 'query', param });
    checkDepth(s.limits, path.slice(0, i + 1), param);
    // Sorting through a relation or component uses its first related row.
    steps.push((row) => f.get(row)[0]);
    s = f.scope;
  }
  return (row) => {
    let v: unknown = row;
    for (const step of steps) {
      if (v === undefined || v === null) return null;
      v = step(v);
    }
    return v ?? null;
  };
}

export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
