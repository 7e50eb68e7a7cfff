import { Conflict, isObject, same, valueKey } from './three-way.js';

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
  const mine = addedAfter(o, alive);
  const yours = addedAfter(t, alive);
  // Both sides adding the same link, or the same item at the same place, add it once.
  const allMine = opts.pairs ? undefined : new Set(o.added.map((a) => valueKey(a.value)));
  const place = (after: number) => {
    const here = mine.get(after) ?? [];
    for (const value of here) out.push(value);
    const added = yours.get(after);
    if (!added) return;
    const also = allMine ?? new Set(here.map(valueKey));
    for (const value of added) if (!also.has(valueKey(value))) out.push(value);
  };
  place(-1);
  for (const b of order) {
    out.push(values[b]);
    place(b);
  }
  return out;
}

/**
 * A side's added items by the base item they go after once removals apply (the nearest base item before them
 * on that side that stays; -1: the start), each group in the side's order.
 */
function addedAfter(side: SideChanges, alive: boolean[]): Map<number, unknown[]> {
  // For each place in the side's order, the nearest item at or before it that stays.
  const staying: number[] = [];
  const at = new Map<number, number>();
  side.order.forEach((b, i) => {
    at.set(b, i);
    staying.push(alive[b] ? b : i > 0 ? staying[i - 1] : -1);
  });
  const out = new Map<number, unknown[]>();
  for (const a of side.added) {
    const i = a.after < 0 ? undefined : at.get(a.after);
    const anchor = i === undefined ? -1 : staying[i];
    const group = out.get(anchor) ?? [];
    if (!group.length) out.set(anchor, group);
    group.push(a.value);
  }
  return out;
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
  // An item unchanged at its place, then an unchanged item anywhere (a move): the first such base item left.
  for (let s = 0; s < side.length && s < base.length; s++) if (same(side[s], base[s])) match(s, s);
  const left = new Queues<string>();
  base.forEach((x, b) => {
    if (!taken[b]) left.add(valueKey(x), b);
  });
  for (let s = 0; s < side.length; s++) {
    const b = baseOf[s] < 0 ? left.take(valueKey(side[s])) : undefined;
    if (b !== undefined) match(s, b);
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
    // The free base items of the gap by component, each list in the base's order; a pairing consumes the free
    // items up to the one it takes, so each list is read forward once.
    const free = new Queues<string | undefined>();
    for (let b = prevBase + 1; b < end; b++) if (!taken[b]) free.add(componentOf(base[b]), b);
    let from = prevBase + 1;
    for (const s of gap) {
      const b = free.take(componentOf(side[s]), from);
      if (b === undefined) continue;
      match(s, b);
      from = b + 1;
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

/** Base indices by a key, each queue in the base's order and read from its front once. */
class Queues<K> {
  private queues = new Map<K, { items: number[]; next: number }>();

  add(key: K, b: number) {
    const q = this.queues.get(key);
    if (q) q.items.push(b);
    else this.queues.set(key, { items: [b], next: 0 });
  }

  /** The first index of the key's queue not taken yet that is at least `min`; it is taken. */
  take(key: K, min = 0): number | undefined {
    const q = this.queues.get(key);
    if (!q) return undefined;
    while (q.next < q.items.length && q.items[q.next] < min) q.next++;
    return q.next < q.items.length ? q.items[q.next++] : undefined;
  }
}
