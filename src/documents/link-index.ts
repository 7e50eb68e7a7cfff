import { linkDocumentId } from './file-format.js';
import type { Column } from './column.js';
import { ROWS_PER_PAUSE, type Work } from './sliced-work.js';

/** The documentIds a relation value names (a documentId, a list of them, or null). */
function targetsOf(value: unknown): string[] {
  if (typeof value === 'string') return [linkDocumentId(value)];
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const x of value) if (typeof x === 'string') out.push(linkDocumentId(x));
  return out;
}

/**
 * The ids pointing at one target, ascending, in a typed array grown by doubling: outside the garbage-collected
 * heap, where a million links as `Set` entries were a heap the collector marked and copied again and again.
 */
class IdRun {
  ids = new Int32Array(4);
  size = 0;
  /** Whether a reader holds a view of `ids`: a change other than an append then works on a copy. */
  lent = false;

  /** Where `id` is, or where it would go (the first place holding a greater id). */
  private place(id: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(id: number) {
    // Builds go in id order: most ids come after the last one.
    const at = this.size && this.ids[this.size - 1] >= id ? this.place(id) : this.size;
    if (at < this.size && this.ids[at] === id) return;
    if (this.size === this.ids.length) this.copy(this.size * 2);
    else if (at < this.size && this.lent) this.copy(this.ids.length);
    this.ids.copyWithin(at + 1, at, this.size);
    this.ids[at] = id;
    this.size++;
  }

  delete(id: number) {
    const at = this.place(id);
    if (at === this.size || this.ids[at] !== id) return;
    if (this.lent) this.copy(this.ids.length);
    this.ids.copyWithin(at, at + 1, this.size);
    this.size--;
  }

  /** The ids so far, for a reader: they stay as they are while the run changes. */
  view(): Int32Array {
    this.lent = true;
    return this.ids.subarray(0, this.size);
  }

  private copy(capacity: number) {
    const next = new Int32Array(capacity);
    next.set(this.ids.subarray(0, this.size));
    this.ids = next;
    this.lent = false;
  }
}

/**
 * The versions of a type whose owning relation points at each target documentId: where a filter through the
 * relation (`filters[author][name][$eq]=…`) starts, from its few matching targets, instead of reading every row.
 */
export class LinkIndex {
  /** A target's ids: the only one as a number (most targets of a one-to-one relation have one), else a run. */
  private byTarget = new Map<string, IdRun | number>();

  *build(column: Column, ids: Int32Array, done: () => void): Work {
    for (let i = 0; i < ids.length; i += ROWS_PER_PAUSE) {
      this.addMany(column, ids, i, Math.min(ids.length, i + ROWS_PER_PAUSE));
      yield;
    }
    done();
  }

  private addMany(column: Column, ids: Int32Array, from: number, to: number) {
    for (let i = from; i < to; i++) this.add(ids[i], column.value(ids[i]));
  }

  add(id: number, value: unknown) {
    for (const target of targetsOf(value)) {
      const held = this.byTarget.get(target);
      if (held === undefined) this.byTarget.set(target, id);
      else if (typeof held !== 'number') held.add(id);
      else if (held !== id) {
        const run = new IdRun();
        run.add(held);
        run.add(id);
        this.byTarget.set(target, run);
      }
    }
  }

  remove(id: number, value: unknown) {
    for (const target of targetsOf(value)) {
      const held = this.byTarget.get(target);
      if (held === id) this.byTarget.delete(target);
      else if (held !== undefined && typeof held !== 'number') {
        held.delete(id);
        if (!held.size) this.byTarget.delete(target);
      }
    }
  }

  /** The ids of the versions pointing at `target`, ascending, as they are now (later changes leave them be). */
  from(target: string): Int32Array {
    const held = this.byTarget.get(target);
    if (held === undefined) return EMPTY;
    return typeof held === 'number' ? Int32Array.of(held) : held.view();
  }
}

const EMPTY = new Int32Array(0);
