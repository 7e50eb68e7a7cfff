import qs from 'qs';
import type { Project } from '../../src/project.js';
import { Job, type Pause, runNow } from '../../src/documents/sliced-work.js';
import { runPlan } from '../../src/query/exec.js';
import { IdSet } from '../../src/query/id-sets.js';
import { findPage } from '../../src/query/find.js';
import { parseQueryString } from '../../src/query/parse-qs.js';
import { type FindPlan, planFind } from '../../src/query/plan.js';
import { parseReadQuery } from '../../src/query/read.js';
import { Reader } from '../../src/query/reader.js';

/** A list query's rows (version ids, in order, of the page) and how many match in all. */
export interface Answer {
  total: number;
  ids: number[];
}

function toEnd<T>(work: Generator<Pause, T>): T {
  return runNow(() => {
    for (;;) {
      const r = work.next();
      if (r.done) return r.value;
    }
  });
}

/** What a read of the project needs before its query is parsed: the index, and a caller allowed every type. */
export function readBase(project: Project) {
  return {
    schemas: project.schemas,
    index: project.documents.index,
    config: project.config,
    media: project.documents.media,
    canFind: () => true,
  };
}

/** A list query parsed as the content API parses it, with a read context over the project's index. */
export function prepared(project: Project, type: string, query: string | Record<string, unknown>) {
  const ct = project.schemas.find(type)!;
  const text = typeof query === 'string' ? query : qs.stringify(query);
  return { ct, ...parseReadQuery(readBase(project), ct, parseQueryString(text), 'find') };
}

/**
 * A list query answered by reading every row (the planner left out): what a plain reading of the documents says.
 */
export function scanned(project: Project, type: string, query: string | Record<string, unknown>): Answer {
  const { ct, query: q, context } = prepared(project, type, query);
  q.plannable = false;
  const found = toEnd(findPage(context, ct, q));
  return { total: found.meta.total, ids: found.page.map((v) => v.id) };
}

/** How the planner answers a list query from the indexes (undefined: it leaves it to a scan). */
export function planOf(project: Project, type: string, query: string | Record<string, unknown>) {
  return planned(project, type, query).plan;
}

function planned(project: Project, type: string, query: string | Record<string, unknown>) {
  const { ct, query: q, context } = prepared(project, type, query);
  const rows = context.index.rowSet(ct.uid, { status: q.status, locale: q.locale });
  return { q, context, plan: q.plannable ? planFind(context, ct, rows, q.filters, q.sortKeys) : undefined };
}

/**
 * The same query answered from the query indexes only, as the server plans and runs it (the indexes built
 * first); undefined when the planner leaves it to a scan, or the indexes cannot answer it.
 */
export function fromIndexes(
  project: Project,
  type: string,
  query: string | Record<string, unknown>,
): Answer | undefined {
  return explained(project, type, query)?.answer;
}

/**
 * A query answered from the indexes, with how many rows (versions) it tested one by one against a condition of the
 * filter or a set of rows found from an index (rather than reading them off a range of a sorted order or a set).
 */
export function explained(
  project: Project,
  type: string,
  query: string | Record<string, unknown>,
): { answer: Answer | undefined; tested: number } | undefined {
  const { q, context, plan } = planned(project, type, query);
  if (!plan) return undefined;
  const tested = new Set<number>();
  for (const part of plan.scalars) {
    const test = part.test;
    part.test = (id) => (tested.add(id), test(id));
  }
  // A row is also tested when it is looked up in a set of rows found from an index (texts, links).
  const has = Object.getOwnPropertyDescriptor(IdSet.prototype, 'has')!;
  Object.defineProperty(IdSet.prototype, 'has', {
    ...has,
    value(this: IdSet, id: number) {
      tested.add(id);
      return (has.value as (id: number) => boolean).call(this, id);
    },
  });
  try {
    return { answer: answerOf(q, context, plan), tested: tested.size };
  } finally {
    Object.defineProperty(IdSet.prototype, 'has', has);
  }
}

function answerOf(
  q: ReturnType<typeof prepared>['query'],
  context: ReturnType<typeof prepared>['context'],
  plan: FindPlan,
) {
  const p = q.pagination!;
  buildIndexes(context, plan);
  const page = toEnd(runPlan(context, plan, p.start, p.mode === 'page' ? p.pageSize : p.limit));
  return page && { total: page.total, ids: [...page.ids] };
}

/** A list query as the server answers it (from the indexes when they can, else by a scan). */
export async function served(project: Project, type: string, query: Record<string, unknown>): Promise<Answer> {
  const ct = project.schemas.find(type)!;
  const read = new Reader(project).prepare(ct, parseQueryString(qs.stringify(query)), 'find');
  const body = (await read.findLater()) as { data: Array<{ id: number }>; meta: { pagination: { total: number } } };
  return { total: body.meta.pagination.total, ids: body.data.map((d) => d.id) };
}

/** Builds the indexes a plan asks for, at once, as the server's jobs build them a slice at a time. */
export function buildIndexes(context: ReturnType<typeof prepared>['context'], plan: FindPlan) {
  for (;;) {
    let job: Job | undefined;
    for (const [uid, needs] of plan.needs) job ??= context.index.fields(uid).need(needs);
    if (!job) break;
    while (!job.step(1000));
    if (job.failed !== undefined) throw job.failed;
  }
}
