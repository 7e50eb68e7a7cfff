import type { Version } from './model.js';

/** What a column's values are: orders and ranges are kept only over values of one kind (and nulls). */
export type ValueKind = 'empty' | 'number' | 'string' | 'boolean' | 'mixed';

const NUMBER = 0;
const STRING = 1;
const BOOLEAN = 2;
const OTHER = 3;

function kindOf(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? NUMBER : OTHER;
    case 'string':
      return STRING;
    case 'boolean':
      return BOOLEAN;
    default:
      return OTHER;
  }
}

/**
 * Compares two values of one kind as a sort does (see query/sort.ts `compareValues`): null first, numbers by
 * value, booleans false first, text by code unit.
 */
export function compareKindValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number') return (a as number) - (b as number);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}

/**
 * One field's value for every version of a type, by id: what filters and sorts read instead of each version's
 * values. `extract` reads the value from a version, as a filter on the field reads it (null for none). Ids
 * beyond `near` (a few, far past the others after an id clash) are kept in a Map.
 */
export class Column {
  private near: unknown[] = [];
  private far = new Map<number, unknown>();
  private counts = [0, 0, 0, 0];
  /** Set when the type's indexes drop it (see FieldIndexes): no change reaches it any more, so nothing may read it. */
  dropped = false;

  constructor(
    readonly extract: (v: Version) => unknown,
    private readonly nearLimit: number,
  ) {}

  get kind(): ValueKind {
    const [n, s, b, o] = this.counts;
    if (o) return 'mixed';
    const kinds = (n ? 1 : 0) + (s ? 1 : 0) + (b ? 1 : 0);
    if (kinds > 1) return 'mixed';
    return n ? 'number' : s ? 'string' : b ? 'boolean' : 'empty';
  }

  /** The value of version `id` (null when none). */
  value(id: number): unknown {
    const v = id < this.nearLimit ? this.near[id] : this.far.get(id);
    return v === undefined ? null : v;
  }

  /** Records the value of version `id` now (`v` undefined: the id holds no version any more). */
  set(id: number, v: Version | undefined) {
    const old = this.value(id);
    if (old !== null) this.counts[kindOf(old)]--;
    let value = v ? this.extract(v) : null;
    if (value === undefined) value = null;
    if (value !== null) this.counts[kindOf(value)]++;
    if (id < this.nearLimit) {
      while (this.near.length < id) this.near.push(null);
      this.near[id] = value;
    } else if (value === null) this.far.delete(id);
    else this.far.set(id, value);
  }

  /** Records the values of the versions `ids[from, to)` holds in `table` (a plain loop: kept out of generators). */
  setMany(ids: Int32Array, from: number, to: number, table: { get(id: number): Version | undefined }) {
    for (let i = from; i < to; i++) this.set(ids[i], table.get(ids[i]));
  }
}
