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
 * The versions of a type whose owning relation points at each target documentId: where a filter through the
 * relation (`filters[author][name][$eq]=…`) starts, from its few matching targets, instead of reading every row.
 */
export class LinkIndex {
  private byTarget = new Map<string, Set<number>>();

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
      let set = this.byTarget.get(target);
      if (!set) this.byTarget.set(target, (set = new Set()));
      set.add(id);
    }
  }

  remove(id: number, value: unknown) {
    for (const target of targetsOf(value)) this.byTarget.get(target)?.delete(id);
  }

  /** The ids of the versions pointing at `target`. */
  from(target: string): ReadonlySet<number> {
    return this.byTarget.get(target) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<number> = new Set();
