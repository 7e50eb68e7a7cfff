import type { RowList } from '../documents/doc-index.js';
import type { Version } from '../documents/model.js';
import { Job, type Pause, type Work, runNow } from '../documents/sliced-work.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { runPlan } from './exec.js';
import { paginate } from './pagination.js';
import { type FindPlan, planFind } from './plan.js';
import type { ReadQuery } from './read.js';
import { cachedResult, storeResult } from './result-cache.js';
import { sortSliced } from './sort.js';

/** The rows a list query matches, counted, and its page: what `runFind` shapes. */
export interface FoundPage {
  page: Version[];
  meta: Record<string, number>;
}

/** Rows the scan of a query the indexes cannot answer reads between pauses. */
const STEP = 256;
/** Rows read through relations (counted by the read's budget) after which a scan pauses before STEP rows. */
const RELATED_PER_PAUSE = 2048;

/** Runs a job to its end from inside another one, pausing when it does. */
function* drive(job: Job | undefined): Work {
  while (job && !job.step(2)) yield job.parked;
  if (job?.failed !== undefined) throw job.failed;
}

/**
 * A list query's page, as work that pauses (see sliced-work.ts): from the indexes when they can answer it
 * (built first if need be), else by reading every row of the type, as a plain scan does.
 */
export function* findPage(ctx: ReadContext, ct: ContentType, query: ReadQuery): Generator<Pause, FoundPage> {
  const p = query.pagination!;
  const knownLocale =
    query.locale === null || query.locale === '*' || ctx.config.locales.some((l) => l.code === query.locale);
  const pick = { status: query.status, locale: query.locale };
  if (!knownLocale) return paginate([] as Version[], p);
  // A plain list reads the ids in order and makes only the page (see DocumentIndex.rows).
  if (!query.filter && !query.sortKeys.length) return paginate(ctx.index.rows(ct.uid, pick), p);
  const rowSet = ctx.index.rowSet(ct.uid, pick);
  // The filter's parts compiled at parse serve the first plan; a later run of the query compiles its own.
  const parts = query.columnParts;
  query.columnParts = undefined;
  const plan = query.plannable ? planFind(ctx, ct, rowSet, query.filters, query.sortKeys, parts) : undefined;
  if (plan) {
    const found = yield* indexedPage(ctx, plan, p.start, p.mode === 'page' ? p.pageSize : p.limit);
    if (found) {
      const rows: RowList = {
        length: found.total,
        slice: () => versionsOf(ctx, ct, found.ids),
      };
      return paginate(rows, p);
    }
  }
  return paginate(yield* scanRows(ctx, ct, query), p);
}

/** The versions of a page's ids, in order (a plain loop: `Array.from` with a mapper costs several times more). */
function versionsOf(ctx: ReadContext, ct: ContentType, ids: Int32Array | number[]): Version[] {
  const out = new Array<Version>(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = ctx.index.byId(ct.uid, ids[i])!;
  return out;
}

/** Times a query from the indexes is run again when changes overtake it; the last run does not pause. */
const TRIES = 3;

/**
 * The page of a planned query from the indexes, built and current first. A change made while it paused may
 * have removed versions it holds or moved rows of the orders it walks (another query catches them up): it is
 * then run again over the indexes caught up, the last time without pausing.
 */
function* indexedPage(ctx: ReadContext, plan: FindPlan, start: number, limit: number) {
  for (let tries = 1; ; tries++) {
    for (;;) {
      let job: Job | undefined;
      for (const [uid, needs] of plan.needs) job ??= ctx.index.fields(uid).need(needs);
      if (!job) break;
      yield* drive(job);
    }
    const generation = ctx.index.generation;
    const run = runPlan(ctx, plan, start, limit);
    if (tries === TRIES) return toEnd(run);
    const found = yield* run;
    if (ctx.index.generation === generation) return found;
  }
}

/** Runs `work` to its end on this turn of the event loop. */
function toEnd<T>(work: Generator<Pause, T>): T {
  return runNow(() => {
    for (;;) {
      const r = work.next();
      if (r.done) return r.value;
    }
  });
}

/** The rows of a query the indexes cannot answer: every row read, filtered and sorted, kept for the next page. */
function* scanRows(ctx: ReadContext, ct: ContentType, query: ReadQuery): Generator<Pause, RowList> {
  const cached = cachedResult(ctx, ct, query);
  if (cached) return cached;
  // Every row is read: the types are made and decoded first, a slice at a time.
  for (const uid of ctx.schemas.contentTypes.keys()) yield* drive(ctx.index.preparing(uid));
  const generation = ctx.index.generation;
  const ids = ctx.index.rowIds(ct.uid, ctx.index.rowSet(ct.uid, { status: query.status, locale: query.locale }));
  let list: Version[] = [];
  for (let i = 0; i < ids.length;) {
    i = rowsOf(ctx, ct, ids, i, Math.min(ids.length, i + STEP), query.filter, list);
    yield;
  }
  if (query.sortBy?.length) list = yield* sortSliced(query.sortBy, list);
  // Rows read before a change made in a pause are the old ones: such a list answers this query only.
  if (ctx.index.generation === generation) storeResult(ctx, ct, query, list);
  return list;
}

/**
 * Pushes onto `out` the versions of `ids[from, to)` that pass `filter` (all of them without one); answers where
 * it stopped: sooner when the filter read many rows through relations (an inverse relation can hold most of
 * another type), so the scan pauses after about as much work whatever the rows link to.
 */
function rowsOf(
  ctx: ReadContext,
  ct: ContentType,
  ids: Int32Array,
  from: number,
  to: number,
  filter: ReadQuery['filter'],
  out: Version[],
): number {
  const budget = ctx.budget;
  const until = budget ? budget.rowsCounted() + RELATED_PER_PAUSE : Infinity;
  for (let i = from; i < to; i++) {
    const v = ctx.index.byId(ct.uid, ids[i]);
    // Undefined: removed while the scan paused (a result read across a change is not kept, see storeResult).
    if (v && (!filter || filter(v))) out.push(v);
    if (budget && budget.rowsCounted() > until) return i + 1;
  }
  return to;
}

/** A list query's page now, on this turn of the event loop (a command, or a query quick to answer). */
export function findNow(ctx: ReadContext, ct: ContentType, query: ReadQuery): FoundPage {
  return toEnd(findPage(ctx, ct, query));
}

/**
 * A list query's page without holding the event loop: answered at once when that is quick (the page itself,
 * not a promise), else in slices (see SlicedRunner), with requests answered in between.
 */
export function findLater(ctx: ReadContext, ct: ContentType, query: ReadQuery): FoundPage | Promise<FoundPage> {
  const job = new Job(findPage(ctx, ct, query));
  if (!job.step(4)) return ctx.index.work.wait(job).then(() => job.result!);
  if (job.failed !== undefined) throw job.failed;
  return job.result!;
}
