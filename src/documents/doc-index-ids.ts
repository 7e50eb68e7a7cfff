import { readableSummary } from './summary.js';
import type { IdTable } from './id-table.js';
import { type DocumentRecord, NO_LOCALE, type Status, type Version } from './model.js';
import type { TypeIndex } from './doc-index-type.js';

/**
 * Ids given to versions renumbered in memory: far past the ids Folio hands out, so they never meet, and
 * below 2^31, for clients that keep ids in 32 bits.
 */
export const RENUMBERED_FROM = 1_000_000_000;
const RENUMBERED_SPAN = 1_000_000_000;

/**
 * The id a version renumbered after a clash gets: a hash of its documentId, locale and status, so it
 * depends on that version alone, and stays the same whatever else changes (unless two such hashes meet,
 * when the next free id is taken).
 */
export function renumberedId(v: { documentId: string; locale: string | null; status: Status }): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5;
  const key = `${v.documentId}\0${v.locale ?? ''}\0${v.status}`;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return RENUMBERED_FROM + (h % RENUMBERED_SPAN);
}

/** Of two versions whose files give them the same id, the one that keeps it: by documentId, locale, then status. */
function comesFirst(a: Version, b: Version): boolean {
  if (a.documentId !== b.documentId) return a.documentId < b.documentId;
  const la = a.locale ?? '';
  const lb = b.locale ?? '';
  if (la !== lb) return la < lb;
  return a.status === 'draft' && b.status !== 'draft';
}

/** Whether `v` is one of `doc`'s versions now. */
function isVersionOf(doc: DocumentRecord, v: Version): boolean {
  const slot = doc.slots.get(v.locale ?? NO_LOCALE);
  return !!slot && (slot.draft === v || slot.published === v);
}

/**
 * Gives `v` the id its file gives it, unless a version that comes first (see `comesFirst`) has that id
 * in its file too: then `v` gets an id of its own (see `renumberedId`), and a version that held the id
 * but comes later gives it up. So which version has which id depends only on the files, never on the
 * order they were read or changed in: every process, and every start, numbers them alike.
 */
export function placeId(t: TypeIndex, v: Version, doc: DocumentRecord, loaded: boolean) {
  const id = v.id;
  if (id > 0 && Number.isSafeInteger(id)) {
    // At start most ids are free: claiming one is the whole cost.
    if (loaded && t.ids.claim(id, v)) {
      if (id >= t.nextId) t.nextId = id + 1;
      return;
    }
    const holder = t.ids.get(id);
    // A version of `doc` that `doc` no longer has is being replaced: its id is `v`'s.
    const replaced = !loaded && holder?.documentId === doc.documentId && !isVersionOf(doc, holder);
    const yields = holder && holder !== v && !replaced && (t.renumbered.has(id) || comesFirst(v, holder));
    if (!holder || holder === v || replaced || yields) {
      const fileIdOfHolder = yields ? releaseId(t, holder) : undefined;
      t.ids.set(id, v);
      if (id >= t.nextId) t.nextId = id + 1;
      if (yields) renumber(t, holder, fileIdOfHolder!);
      return;
    }
  }
  renumber(t, v, id);
}

/** Gives `v` an id of its own, recording the one its file gives it (`fileId`, 0 or less for none). */
function renumber(t: TypeIndex, v: Version, fileId: number) {
  let id = renumberedId(v);
  while (!t.ids.free(id)) id = id + 1 < RENUMBERED_FROM + RENUMBERED_SPAN ? id + 1 : RENUMBERED_FROM;
  v.id = id;
  t.ids.set(id, v);
  t.renumbered.set(id, fileId);
  if (fileId > 0) {
    let set = t.waitingFor.get(fileId);
    if (!set) t.waitingFor.set(fileId, (set = new Set()));
    set.add(v);
  }
}

/**
 * Takes `v` (which holds its id) out of the id table; answers the id its file gives it. When that id
 * is freed, the version that comes first among those renumbered for it gets it back.
 */
export function releaseId(t: TypeIndex, v: Version): number {
  const id = v.id;
  t.ids.delete(id);
  const fileId = t.renumbered.get(id);
  if (fileId !== undefined) {
    t.renumbered.delete(id);
    const set = t.waitingFor.get(fileId);
    set?.delete(v);
    if (set && !set.size) t.waitingFor.delete(fileId);
    return fileId;
  }
  const set = t.waitingFor.get(id);
  if (set) {
    let first: Version | undefined;
    for (const w of set) if (!first || comesFirst(w, first)) first = w;
    set.delete(first!);
    if (!set.size) t.waitingFor.delete(id);
    t.ids.delete(first!.id);
    t.renumbered.delete(first!.id);
    first!.id = id;
    t.ids.set(id, first!);
  }
  return id;
}

/**
 * Whether a summary's versions can wait for their document to be made: it is readable, and each version
 * has an id of its own (not 0, not held by another version, nor twice in the document) in the id
 * table's array.
 */
export function canWait(ids: IdTable, summary: ArrayLike<number>, from: number, to: number, table: string[]): boolean {
  if (!readableSummary(summary, from, to, table)) return false;
  for (let a = from; a < to; a++) {
    if ((a - from) % 3 === 0) continue;
    const id = summary[a];
    if (id < 0) continue;
    if (!Number.isInteger(id) || id === 0 || !ids.canWait(id) || !ids.free(id)) return false;
    for (let b = from + 1; b < a; b++) if ((b - from) % 3 !== 0 && summary[b] === id) return false;
  }
  return true;
}
