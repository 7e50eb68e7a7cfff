import { Conflict, isObject, same } from './three-way.js';

/**
 * Ordered lists merged item by item: relations and media lists (items are documentIds, an item is itself)
 * and repeatable components and dynamic zones (items are objects without ids, matched to the base's by
 * value and place). Each side is read as changes of the base: items kept (maybe edited), removed, added
 * after an item, and a new order. Both sides' changes apply when they touch different items; an item
 * edited on one side and removed on the other, or two different new orders, make the whole list a conflict.
 */

/** How one side changed the base list. */
interface SideChanges {
  /** For each base item, the side's item it became (its index), or -1: removed. */
  kept: number[];
  /** The base items in the side's order (those it kept). */
  order: number[];
  /** Items the side added, each after a base item (its index; -1: at the start), in the side's order. */
  added: Array<{ after: number; value: unknown }>;
}

/** Merges one item kept on both sides (undefined rule: items are compared whole). */
export type ItemMerge = (base: unknown, ours: unknown, theirs: unknown) => unknown;

/**
 * Merges three versions of an ordered list. `pairs` says whether an item that is not in the base may be an
 * edit of a base item at the same place (component items: yes; links: no, a link is its own identity).
 */
export function mergeList(
  base: unknown[],
  ours: unknown[],
  theirs: unknown[],
  opts: { merge: ItemMerge; pairs: boolean },
): unknown[] | Conflict {
  const o = changesOf(base, ours, opts.pairs);
  const t = changesOf(base, theirs, opts.pairs);
  const values: unknown[] = [];
  const alive: boolean[] = [];
  for (let b = 0; b < base.length; b++) {
    const oi = o.kept[b];
    const ti = t.kept[b];
    if (oi < 0 && ti < 0) alive.push(false);
    else if (oi < 0 || ti < 0) {
      // Removed on one side: the other side must have left it as it was.
      const other = oi < 0 ? theirs[ti] : ours[oi];
      if (!same(other, base[b])) return new Conflict(ours, theirs);
      alive.push(false);
    } else {
      const merged = same(ours[oi], theirs[ti]) ? ours[oi] : opts.merge(base[b], ours[oi], theirs[ti]);
      if (merged instanceof Conflict) return new Conflict(ours, theirs);
      values[b] = merged;
      alive.push(true);
    }
  }
  const order = mergedOrder(base.length, o.order, t.order, alive);
  if (!order) return new Conflict(ours, theirs);
  const out: unknown[] = [];
  // Both sides adding the same link, or the same item at the same place, add it once.
  const place = (after: number) => {
    const mine = o.added.filter((a) => anchor(a.after, o.order, alive) === after).map((a) => a.value);
    const also = opts.pairs ? mine : o.added.map((a) => a.value);
    out.push(...mine);
    for (const a of t.added)
      if (anchor(a.after, t.order, alive) === after && !also.some((x) => same(x, a.value))) out.push(a.value);
  };
  place(-1);
  for (const b of order) {
    out.push(values[b]);
    place(b);
  }
  return out;
}

/** The item an addition goes after once removals apply: the nearest kept base item before it on its side. */
function anchor(after: number, sideOrder: number[], alive: boolean[]): number {
  let at = sideOrder.indexOf(after);
  while (at >= 0 && !alive[sideOrder[at]]) at--;
  return at < 0 ? -1 : sideOrder[at];
}

/**
 * The order of the base items that stay: the order a side changed (if only one did, or both alike); undefined
 * when both sides reordered them differently.
 */
function mergedOrder(length: number, ours: number[], theirs: number[], alive: boolean[]): number[] | undefined {
  const baseOrder = [...Array(length).keys()].filter((b) => alive[b]);
  const o = ours.filter((b) => alive[b]);
  const t = theirs.filter((b) => alive[b]);
  if (same(o, baseOrder) || same(o, t)) return t;
  if (same(t, baseOrder)) return o;
  return undefined;
}

/** How `side` changed `base`: which base item each of its items is, and what it added. */
function changesOf(base: unknown[], side: unknown[], pairs: boolean): SideChanges {
  const baseOf = new Array<number>(side.length).fill(-1);
  const taken = new Array<boolean>(base.length).fill(false);
  const match = (s: number, b: number) => {
    baseOf[s] = b;
    taken[b] = true;
  };
  // An item unchanged at its place, then an unchanged item anywhere (a move).
  for (let s = 0; s < side.length && s < base.length; s++) if (same(side[s], base[s])) match(s, s);
  for (let s = 0; s < side.length; s++) {
    if (baseOf[s] >= 0) continue;
    const b = base.findIndex((x, i) => !taken[i] && same(x, side[s]));
    if (b >= 0) match(s, b);
  }
  if (pairs) pairEdits(base, side, baseOf, taken, match);
  const kept = new Array<number>(base.length).fill(-1);
  const order: number[] = [];
  const added: SideChanges['added'] = [];
  let last = -1;
  side.forEach((value, s) => {
    const b = baseOf[s];
    if (b < 0) added.push({ after: last, value });
    else {
      kept[b] = s;
      order.push(b);
      last = b;
    }
  });
  return { kept, order, added };
}

/**
 * Reads a new item standing where a base item was (between the same unchanged neighbours, of the same
 * component) as an edit of that item, so that the other side's changes to the item's fields still apply.
 */
function pairEdits(
  base: unknown[],
  side: unknown[],
  baseOf: number[],
  taken: boolean[],
  match: (s: number, b: number) => void,
) {
  // The matched items that keep the base's order on this side bound the gaps items are paired within.
  let prevBase = -1;
  let gap: number[] = [];
  const close = (end: number) => {
    const free: number[] = [];
    for (let b = prevBase + 1; b < end; b++) if (!taken[b]) free.push(b);
    for (const s of gap) {
      const at = free.findIndex((b) => componentOf(base[b]) === componentOf(side[s]));
      if (at < 0) continue;
      match(s, free[at]);
      free.splice(0, at + 1);
    }
    gap = [];
  };
  side.forEach((_item, s) => {
    const b = baseOf[s];
    if (b < 0) gap.push(s);
    else if (b > prevBase) {
      close(b);
      prevBase = b;
    }
  });
  close(base.length);
}

/** The component an item of a dynamic zone is (items of a repeatable component have none: all alike). */
const componentOf = (item: unknown) => (isObject(item) ? String(item.__component ?? '') : undefined);
