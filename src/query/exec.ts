import type { Column } from '../documents/column.js';
import type { FieldIndexes } from '../documents/field-indexes.js';
import type { SortedOrder } from '../documents/sorted-order.js';
import type { ReadContext } from './context.js';
import { castOperand } from './filters.js';
import { type FindPlan, type LinkPart, type ScalarPart, foldedOperator, isRange } from './plan.js';
import { IdList, IdSet } from './id-sets.js';
import { TextIndex, type TextMatch } from '../documents/text-index.js';
import { type Pause, ROWS_PER_PAUSE } from '../documents/sliced-work.js';
import { sortIds } from '../documents/sort-ids.js';
import { type SortColumn, sortedPage } from './walk.js';

/** A page of a list query answered from the indexes: the ids on the page, and how many rows match in all. */
export interface IndexedPage {
  total: number;
  ids: Int32Array | number[];
}

/** Rows a scan reads between pauses. */
const STEP = 2048;

type Test = (id: number) => boolean;

/** A range of a sorted order: the rows of a condition on one field, by binary search. */
interface Segment {
  part: ScalarPart;
  order: SortedOrder;
  from: number;
  to: number;
}

/** The positions of a range condition's rows in `order`; undefined when its operands are not of the column's kind. */
function segmentOf(part: ScalarPart, order: SortedOrder): Segment | undefined {
  const kind = order.column.kind;
  const ops: Array<[string, unknown]> =
    typeof part.value === 'object' ? Object.entries(part.value as object) : [['$eq', part.value]];
  let from = order.nullEnd();
  let to = order.length;
  for (const [op, raw] of ops) {
    const operands = (op === '$between' ? (raw as unknown[]) : [raw]).map((x) =>
      // The filter's compile cast these operands with this type already and refused those that fail: this cast
      // never throws, and its context is never shown.
      // Stryker disable next-line StringLiteral: equivalent, see above.
      castOperand(part.field!.type, x, 'filters'),
    );
    // A range's operands are plain values (plan.ts isRange) cast with one type: all of one kind.
    // Stryker disable next-line MethodExpression: equivalent, `every` answers as `some`.
    if (kind !== 'empty' && operands.some((x) => typeof x !== kind)) return undefined;
    const [x, y] = operands;
    if (op === '$eq') {
      from = Math.max(from, order.from(x, false));
      to = Math.min(to, order.from(x, true));
    } else if (op === '$gt') from = Math.max(from, order.from(x, true));
    else if (op === '$gte') from = Math.max(from, order.from(x, false));
    else if (op === '$lt') to = Math.min(to, order.from(x, false));
    else if (op === '$lte') to = Math.min(to, order.from(x, true));
    else {
      from = Math.max(from, order.from(x, false));
      to = Math.min(to, order.from(y, true));
    }
  }
  return { part, order, from, to: Math.max(from, to) };
}

const TEXT_MATCH: Record<string, TextMatch> = {
  $containsi: 'contains',
  $startsWithi: 'startsWith',
  // The text index (text-index.ts) takes any match other than 'contains' and 'startsWith' for endsWith.
  // Stryker disable next-line StringLiteral: equivalent, see above.
  $endsWithi: 'endsWith',
};

/** The rows (in id order) of a case-insensitive text match, from the field's folded texts; undefined if none. */
function* textRows(plan: FindPlan, indexes: FieldIndexes, part: ScalarPart): Generator<Pause, IdSet | undefined> {
  const op = part.field && foldedOperator(part.value);
  const text = op && indexes.text(part.field!.spec.key, plan.rows);
  if (!op || !text) return undefined;
  const needle = String((part.value as Record<string, unknown>)[op]).toLowerCase();
  if (!TextIndex.searchable(needle)) return undefined;
  const out = new IdList();
  yield* text.search(needle, TEXT_MATCH[op], out);
  return IdSet.of(out.done());
}

/** The source rows (ids) matching a condition through a relation: those pointing at a matching target. */
function* linkedRows(ctx: ReadContext, plan: FindPlan, part: LinkPart): Generator<Pause, IdSet | undefined> {
  const links = ctx.index.fields(plan.ct.uid).linksOf(part.relation.spec.key);
  if (!links) return undefined;
  const test = part.test;
  const found = new IdList();
  const targetIds = ctx.index.rowIds(part.target.uid, part.targetRows);
  const matching = new IdList();
  for (let i = 0; i < targetIds.length; i += STEP) {
    keep(targetIds, i, Math.min(targetIds.length, i + STEP), [test], matching);
    yield;
  }
  for (const targetId of matching.done()) {
    const v = ctx.index.byId(part.target.uid, targetId);
    if (!v) continue;
    // A target may be pointed at by a large share of the rows: its rows are gathered a few hundred at a time.
    let n = 0;
    for (const id of links.from(v.documentId)) {
      found.push(id);
      // Stryker disable next-line UpdateOperator: equivalent, counted down (-256 % 256 is -0): the same pauses.
      if (++n % ROWS_PER_PAUSE === 0) yield;
    }
    yield;
  }
  // In id order, each once (a row may point at several matching targets).
  const sorted = found.done();
  yield* sortIds(sorted, (a, b) => a - b);
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i];
  return IdSet.of(sorted.subarray(0, n));
}

/**
 * Answers a planned list query from the indexes (built and current, see FieldIndexes.need): the rows that
 * match, counted, and the page asked for, sorted. Undefined when an index it relies on could not be built (a
 * field whose values are of several kinds): the query then reads every row.
 */
export function* runPlan(
  ctx: ReadContext,
  plan: FindPlan,
  start: number,
  limit: number,
): Generator<Pause, IndexedPage | undefined> {
  const uid = plan.ct.uid;
  const indexes = ctx.index.fields(uid);
  const rowIds = ctx.index.rowIds(uid, plan.rows);
  // Where the matching rows are looked for: every row, a set found from an index (the rows linked to
  // matching targets, those whose text matches), or a range of a sorted order; the smallest.
  const sets: Array<{ part?: ScalarPart; rows: IdSet }> = [];
  for (const part of plan.links) {
    const rows = yield* linkedRows(ctx, plan, part);
    if (!rows) return undefined;
    sets.push({ rows });
  }
  for (const part of plan.scalars) {
    // Only a text match may be found from the text index (no work made for the others).
    // Stryker disable next-line ConditionalExpression: equivalent, textRows answers undefined for the others too.
    if (!foldedOperator(part.value)) continue;
    const rows = yield* textRows(plan, indexes, part);
    if (rows) sets.push({ part, rows });
  }
  let best: Segment | undefined;
  for (const part of plan.scalars) {
    if (!part.field || !isRange(part.value)) continue;
    const order = indexes.order(part.field.spec.key, plan.rows);
    const seg = order && segmentOf(part, order);
    if (seg && (!best || seg.to - seg.from < best.to - best.from)) best = seg;
  }
  let smallest = sets[0];
  for (const set of sets) if (set.rows.size < smallest.rows.size) smallest = set;
  let source: ArrayLike<number> = rowIds;
  let sourceSorted = true;
  if (smallest && (!best || smallest.rows.size <= best.to - best.from)) {
    source = smallest.rows.ids;
    best = undefined;
  } else if (best) {
    source = best.order.ids.subarray(best.from, best.to);
    sourceSorted = false;
  }
  const tests: Test[] = [];
  // A condition the range or a set the rows come from answers is not tested again.
  const answered = (part: ScalarPart) => part === best?.part || sets.some((x) => x.part === part);
  for (const part of plan.scalars) if (!answered(part)) tests.push(part.test);
  for (const set of sets) if (set !== smallest || best) tests.push((id) => set.rows.has(id));
  // Linked rows may be of another status or locale than the read's.
  if (smallest && !best && !smallest.part) tests.push(ctx.index.inRowSet(uid, plan.rows));
  let matches: Int32Array;
  if (!tests.length) matches = source instanceof Int32Array ? source : Int32Array.from(source);
  else {
    const out = new IdList();
    for (let i = 0; i < source.length; i += STEP) {
      keep(source, i, Math.min(source.length, i + STEP), tests, out);
      yield;
    }
    matches = out.done();
  }
  const total = matches.length;
  if (!plan.sort.length) {
    if (!sourceSorted) matches = sortedById(matches, rowIds, start + limit);
    return { total, ids: matches.slice(start, start + limit) };
  }
  const keys: SortColumn[] = [];
  for (const s of plan.sort) {
    const column: Column | undefined = indexes.column(s.field.spec.key);
    if (!column) return undefined;
    keys.push({ column, desc: s.desc });
  }
  const order = indexes.order(plan.sort[0].field.spec.key, plan.rows);
  if (!order) return undefined;
  if (matches === rowIds || matches.length === rowIds.length) {
    return { total, ids: yield* sortedPage(order, keys, undefined, start, limit, rowIds.length) };
  }
  // Sorted by the field of the range the rows came from: the page is read off that range of its order alone.
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, the walk below answers the same
  // page, testing each row of the order against the range (cost only; indexed-answers pins the page).
  if (!tests.length && best?.order === order) {
    return { total, ids: yield* sortedPage(order, keys, undefined, start, limit, rowIds.length, best) };
  }
  // Whether a row matches, for the walk: from the range or set the rows came from when nothing else was
  // tested (no set of ids to build), else from the rows found.
  let member: Test | undefined;
  if (!tests.length && best) member = inSegment(best);
  else if (!tests.length && smallest) member = (id) => smallest.rows.has(id);
  const page = { matches, member };
  return { total, ids: yield* sortedPage(order, keys, page, start, limit, rowIds.length) };
}

/**
 * Whether a row is in a segment, from its value alone: a segment holds every row of each value it
 * spans (its bounds are found by value), so a row is in it when its value lies between the first and the last.
 * Cheaper than the condition's own test, which casts and reads through the filter's closures.
 */
function inSegment({ order, from, to }: Segment): Test {
  // An empty segment has no matches: the walk answers an empty page before it asks any row (walk.ts sortedPage).
  // Stryker disable next-line ArrowFunction,BooleanLiteral,ConditionalExpression,EqualityOperator: equivalent, see
  // above (a test made over an empty segment's bounds is never asked either).
  if (from >= to) return () => false;
  const col = order.column;
  // The order's values are all of one kind (numbers, texts or booleans), which `>=` and `<=` compare as
  // compareKindValues does.
  const first = col.value(order.ids[from]) as number;
  const last = col.value(order.ids[to - 1]) as number;
  return (id) => {
    const v = col.value(id) as number | null;
    return v !== null && v >= first && v <= last;
  };
}

/** Pushes onto `out` the ids of `source[from, to)` that pass every test (a plain loop: kept out of generators). */
function keep(source: ArrayLike<number>, from: number, to: number, tests: Test[], out: IdList) {
  if (tests.length === 1) {
    const test = tests[0];
    for (let i = from; i < to; i++) if (test(source[i])) out.push(source[i]);
    return;
  }
  for (let i = from; i < to; i++) {
    const id = source[i];
    let ok = true;
    for (let k = 0; k < tests.length && ok; k++) ok = tests[k](id);
    if (ok) out.push(id);
  }
}

/** `ids` in id order, as far as the page needs: sorted outright when few, else read off the row set in order. */
function sortedById(ids: Int32Array, rowIds: Int32Array, upTo: number): Int32Array {
  if (ids.length < 4096 || ids.length * 16 < rowIds.length) return ids.slice().sort();
  const member = IdSet.of(ids);
  const out = new IdList();
  for (let i = 0; i < rowIds.length && out.length < upTo; i++) if (member.has(rowIds[i])) out.push(rowIds[i]);
  return out.done();
}
