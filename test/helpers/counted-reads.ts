import type { Project } from '../../src/project.js';
import { runNow } from '../../src/documents/sliced-work.js';
import { runPlan } from '../../src/query/exec.js';
import { IdList, IdSet } from '../../src/query/id-sets.js';
import { planFind } from '../../src/query/plan.js';
import { type Answer, buildIndexes, prepared } from './indexed-reads.js';

/**
 * The work an indexed list query does, counted as it runs (the indexes built first): rows tested against a
 * condition, targets tested against a relation's inner condition, lookups in a set of rows, sets of rows built,
 * id lists sorted outright or copied, values read from a column, the pauses it makes, and the most rows it
 * gathers between two pauses.
 */
export interface Work {
  answer: Answer | undefined;
  tests: number;
  links: number;
  lookups: number;
  sets: number;
  sorts: number;
  copies: number;
  values: number;
  pauses: number;
  longestRun: number;
}

/** Swaps `obj[key]` for a counting wrapper while `body` runs. */
function spied<T>(obj: object, key: string, count: () => void, body: () => T): T {
  const own = Object.getOwnPropertyDescriptor(obj, key);
  const inner = (obj as Record<string, unknown>)[key] as (...args: unknown[]) => unknown;
  Object.defineProperty(obj, key, {
    configurable: true,
    writable: true,
    value(this: unknown, ...args: unknown[]) {
      count();
      return inner.apply(this, args);
    },
  });
  try {
    return body();
  } finally {
    if (own) Object.defineProperty(obj, key, own);
    else delete (obj as Record<string, unknown>)[key];
  }
}

/**
 * A list query answered from the indexes as the server plans it, with its work counted; `column` names a field
 * whose column reads are counted.
 */
export function counted(
  project: Project,
  type: string,
  query: Record<string, unknown>,
  column?: string,
): Work | undefined {
  const { ct, query: q, context } = prepared(project, type, query);
  const rows = context.index.rowSet(ct.uid, { status: q.status, locale: q.locale });
  const plan = q.plannable ? planFind(context, ct, rows, q.filters, q.sortKeys) : undefined;
  if (!plan) return undefined;
  buildIndexes(context, plan);
  const work: Work = {
    answer: undefined,
    tests: 0,
    links: 0,
    lookups: 0,
    sets: 0,
    sorts: 0,
    copies: 0,
    values: 0,
    pauses: 0,
    longestRun: 0,
  };
  for (const part of plan.scalars) {
    const test = part.test;
    part.test = (id) => (work.tests++, test(id));
  }
  for (const part of plan.links) {
    const test = part.test;
    part.test = (id) => (work.links++, test(id));
  }
  let run = 0;
  const p = q.pagination!;
  const limit = p.mode === 'page' ? p.pageSize : p.limit;
  const cols = column ? context.index.fields(ct.uid).column(column) : undefined;
  const spies: Array<[object, string, () => void]> = [
    [IdSet.prototype, 'has', () => work.lookups++],
    [IdSet, 'of', () => work.sets++],
    [Int32Array.prototype, 'sort', () => work.sorts++],
    [Int32Array, 'from', () => work.copies++],
    [IdList.prototype, 'push', () => (work.longestRun = Math.max(work.longestRun, ++run))],
    ...(cols ? [[cols, 'value', () => work.values++] as [object, string, () => void]] : []),
  ];
  const go = (): Answer | undefined => {
    const gen = runPlan(context, plan, p.start, limit);
    return runNow(() => {
      for (;;) {
        const r = gen.next();
        if (r.done) return r.value && { total: r.value.total, ids: [...r.value.ids] };
        work.pauses++;
        run = 0;
      }
    });
  };
  work.answer = spies.reduceRight<() => Answer | undefined>(
    (body, [obj, key, count]) =>
      () =>
        spied(obj, key, count, body),
    go,
  )();
  return work;
}
