import type { DocumentRecord } from './model.js';

/*
 * A document's summary: per slot, the locale's position in a table of codes, the draft id and the
 * published id (-1: none). Numbers only, so the index can hold a document by its summary until it is
 * made (see DocumentIndex.addSummary), and a start-up snapshot can store them without JSON.
 */

/**
 * The summary of a freshly decoded document, with the ids as its file holds them (before the index
 * renumbers clashes): per slot, the locale's position in `table`, the draft id and the published id
 * (-1: none). Numbers only, so a snapshot stores them without JSON.
 */
export function summarize(doc: DocumentRecord, table: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [code, slot] of doc.slots) {
    let at = table.get(code);
    if (at === undefined) table.set(code, (at = table.size));
    out.push(at, slot.draft ? slot.draft.id : -1, slot.published ? slot.published.id : -1);
  }
  return out;
}

/**
 * A summary whose locale positions refer to `codes`, renumbered into `table` (which gains the codes it
 * lacks). Returns `summary` itself when nothing moves, so the common case copies nothing.
 */
export function renumber(summary: number[], codes: string[], table: Map<string, number>): number[] {
  let out = summary;
  for (let k = 0; k < summary.length; k += 3) {
    const code = codes[summary[k]];
    let at = table.get(code);
    if (at === undefined) table.set(code, (at = table.size));
    if (at !== summary[k]) {
      if (out === summary) out = summary.slice();
      out[k] = at;
    }
  }
  return out;
}

/**
 * Whether `summary[from, to)` is one `lazyDocument` can make a document of: whole triples, each locale
 * in `table` and named once (a damaged snapshot's may not be).
 */
export function readableSummary(summary: ArrayLike<number>, from: number, to: number, table: string[]): boolean {
  if (to <= from || (to - from) % 3 !== 0) return false;
  for (let i = from; i < to; i += 3) {
    const code = table[summary[i]];
    if (code === undefined) return false;
    for (let j = from; j < i; j += 3) if (table[summary[j]] === code) return false;
  }
  return true;
}
