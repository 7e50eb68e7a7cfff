import type { Column } from './column.js';
import type { IdTable } from './id-table.js';
import type { Version } from './model.js';
import type { Work } from './sliced-work.js';

/** Ids per chunk (`1 << SHIFT`): a change rebuilds the chunk of its id only. */
const SHIFT = 12;
const CHUNK = 1 << SHIFT;
/** Between two rows' texts; a text holding it makes its chunk searched row by row. */
const SEPARATOR = '\u0000';

/** The case-folded texts of a run of ids, one string, each row's text at `starts[k]`, up to `starts[k + 1] - 1`. */
interface Chunk {
  ids: Int32Array;
  text: string;
  starts: Int32Array;
  /** Whether a text holds the separator (then each row is searched on its own). */
  plain: boolean;
  dirty: boolean;
}

export type TextMatch = 'contains' | 'startsWith' | 'endsWith';

/**
 * One field's values case-folded (as the `i` operators compare them: `String(value).toLowerCase()`) over a row
 * set, joined into one string per few thousand ids: a `$containsi` search is then one native `indexOf` pass over
 * a long string rather than a call per row, and a hit is mapped back to its row by its position.
 */
export class TextIndex {
  private chunks = new Map<number, Chunk>();
  // Stryker disable next-line ArrayDeclaration: equivalent, build sets the order before a search reads it.
  private order: number[] = [];

  constructor(
    private readonly column: Column,
    private readonly isMember: (v: Version) => boolean,
    private readonly table: IdTable,
  ) {}

  /** Builds the chunks of the row set `rowIds` (in id order). */
  *build(rowIds: Int32Array): Work {
    let from = 0;
    while (from < rowIds.length) {
      const c = rowIds[from] >> SHIFT;
      let to = from;
      while (to < rowIds.length && rowIds[to] >> SHIFT === c) to++;
      this.chunks.set(c, this.chunkOf(rowIds.subarray(from, to)));
      from = to;
      yield;
    }
    this.order = [...this.chunks.keys()].sort((a, b) => a - b);
  }

  private chunkOf(ids: Int32Array): Chunk {
    const parts: string[] = [];
    const starts = new Int32Array(ids.length + 1);
    let at = 0;
    // Stryker disable next-line BooleanLiteral: equivalent, see search (a chunk read row by row answers alike).
    let plain = true;
    for (let k = 0; k < ids.length; k++) {
      const value = this.column.value(ids[k]);
      const text = value === null ? '' : String(value).toLowerCase();
      // Stryker disable next-line all: equivalent, see search.
      if (plain && text.includes(SEPARATOR)) plain = false;
      starts[k] = at;
      parts.push(text);
      at += text.length + 1;
    }
    starts[ids.length] = at;
    // Stryker disable next-line BooleanLiteral: equivalent, a chunk made again from the rows as they are is the same.
    return { ids: Int32Array.from(ids), text: parts.join(SEPARATOR), starts, plain, dirty: false };
  }

  /** Notes that version `id` changed: its chunk is made again before the next search. */
  changed(id: number) {
    const c = id >> SHIFT;
    const chunk = this.chunks.get(c);
    if (chunk) chunk.dirty = true;
    else {
      // Stryker disable next-line StringLiteral: equivalent, a dirty chunk's text is made again before it is read.
      this.chunks.set(c, { ids: new Int32Array(0), text: '', starts: new Int32Array(1), plain: true, dirty: true });
      this.order = [...this.chunks.keys()].sort((a, b) => a - b);
    }
  }

  /** The chunk's rows as they are now. */
  private rebuild(c: number): Chunk {
    // Stryker disable next-line ArrayDeclaration: equivalent, a string read as an id is 0, which holds no version
    // (its text is empty, and no needle is).
    const ids: number[] = [];
    const first = c * CHUNK;
    for (let id = Math.max(1, first); id < first + CHUNK; id++) {
      const v = this.table.get(id);
      if (v && this.isMember(v)) ids.push(id);
    }
    const chunk = this.chunkOf(Int32Array.from(ids));
    this.chunks.set(c, chunk);
    return chunk;
  }

  /**
   * The ids (in id order) whose folded text contains `needle` (or starts or ends with it), a chunk at a time;
   * `needle` is already folded and neither empty nor holding the separator (see `searchable`). Row by row or in
   * one pass, a chunk answers alike: no hit of such a needle spans two rows, and a hit is mapped to its row by the
   * rows' starts, whatever a text holds.
   */
  *search(needle: string, match: TextMatch, out: { push(id: number): void }): Work {
    for (const c of this.order) {
      let chunk = this.chunks.get(c)!;
      if (chunk.dirty) chunk = this.rebuild(c);
      // Stryker disable next-line ConditionalExpression: equivalent, see above.
      if (chunk.plain) searchChunk(chunk, needle, match, out);
      // Stryker disable next-line EqualityOperator: equivalent, past the last row the text read is empty.
      else for (let k = 0; k < chunk.ids.length; k++) if (rowMatches(chunk, k, needle, match)) out.push(chunk.ids[k]);
      yield;
    }
  }

  /** Whether `needle` can be searched in the joined texts (else each row is tested on its own). */
  static searchable(needle: string): boolean {
    return needle.length > 0 && !needle.includes(SEPARATOR);
  }
}

function rowMatches(chunk: Chunk, k: number, needle: string, match: TextMatch): boolean {
  const text = chunk.text.slice(chunk.starts[k], chunk.starts[k + 1] - 1);
  return match === 'contains'
    ? text.includes(needle)
    : match === 'startsWith'
      ? text.startsWith(needle)
      : text.endsWith(needle);
}

/** One `indexOf` pass over a chunk: each hit is mapped to its row, which is then passed over. */
function searchChunk(chunk: Chunk, needle: string, match: TextMatch, out: { push(id: number): void }) {
  const { text, starts, ids } = chunk;
  let pos = 0;
  let row = 0;
  for (;;) {
    const at = text.indexOf(needle, pos);
    if (at < 0) return;
    while (starts[row + 1] <= at) row++;
    const fits =
      match === 'contains' ||
      (match === 'startsWith' ? at === starts[row] : at + needle.length === starts[row + 1] - 1);
    if (fits) {
      out.push(ids[row]);
      pos = starts[++row];
    } else pos = at + 1;
  }
}
