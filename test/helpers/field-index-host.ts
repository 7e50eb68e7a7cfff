import { FieldIndexes, type FieldSpec, type RowSet } from '../../src/documents/field-indexes.js';
import { IdTable } from '../../src/documents/id-table.js';
import type { Status, Version } from '../../src/documents/model.js';
import { type Job, type Work, runNow } from '../../src/documents/sliced-work.js';

/**
 * The query indexes of one type over a table of versions made in memory, as the document index holds them (see
 * DocumentIndex.fields), with the work they do made countable: each version they read from the table is counted,
 * and a job is run a slice at a time (`slices`), each slice ending at the next pause of the work.
 */

const TS = '2025-01-01T00:00:00.000Z';

/** An id table that counts the versions read from it. */
export class CountingIds extends IdTable {
  reads = 0;

  constructor() {
    super(() => {});
  }

  override get(id: number): Version | undefined {
    this.reads++;
    return super.get(id);
  }
}

export function version(id: number, data: Record<string, unknown>, status: Status = 'draft', locale = 'en'): Version {
  const publishedAt = status === 'published' ? TS : null;
  return { id, documentId: `doc${id}`, locale, status, createdAt: TS, updatedAt: TS, publishedAt, data };
}

export const field = (key: string): FieldSpec => ({ key, extract: (v) => v.data[key] });
export const TITLE = field('title');
export const VIEWS = field('views');
export const AUTHOR = field('author');

/** Row sets as DocumentIndex.rowSet names them. */
export const DRAFTS_EN: RowSet = { key: 'draft|en', status: 'draft', locale: 'en' };
export const ANY_STATUS_EN: RowSet = { key: '|en', status: undefined, locale: 'en' };
export const DRAFTS_ANY_LOCALE: RowSet = { key: 'draft|*', status: 'draft', locale: undefined };
export const EVERY_ROW: RowSet = { key: '|*', status: undefined, locale: undefined };

/** Versions 1..count (drafts in `en`, data from `dataOf`) held before the indexes exist, as after a load. */
export function indexesOver(count: number, dataOf: (id: number) => Record<string, unknown>) {
  const ids = new CountingIds();
  for (let id = 1; id <= count; id++) ids.set(id, version(id, dataOf(id)));
  let preparing: Job | undefined;
  const fields = new FieldIndexes({
    ids,
    rowIds: (rows) => ids.idsInOrder(Infinity, rows.status, rows.locale),
    allIds: () => ids.idsInOrder(Infinity, undefined, undefined),
    preparing: () => (preparing && !preparing.done ? preparing : undefined),
    nearLimit: ids.denseLimit,
  });
  return {
    ids,
    fields,
    log: () => ids.changes!.length,
    /** The type is being prepared by `job` (see DocumentIndex.preparing) until it is done. */
    prepareWith(job: Job) {
      preparing = job;
    },
  };
}

/** Runs `job` to its end a slice at a time; answers how many slices it took and the most rows one slice read. */
export function slices(job: Job, ids: CountingIds): { count: number; mostReads: number } {
  let count = 0;
  let mostReads = 0;
  for (let done = false; !done;) {
    const before = ids.reads;
    done = job.step(0);
    count++;
    mostReads = Math.max(mostReads, ids.reads - before);
  }
  return { count, mostReads };
}

/** Runs `need`'s job, if any, to its end. */
export function finish(job: Job | undefined) {
  job?.finishNow();
}

/** The ids a sorted order lists, in its order. */
export function ordered(order: { ids: Int32Array; length: number } | undefined): number[] | undefined {
  return order && [...order.ids.subarray(0, order.length)];
}

/** The ids whose folded text contains `needle`, from a text index. */
export function containing(
  text: { search(n: string, m: 'contains', out: { push(id: number): void }): Work },
  needle: string,
) {
  const out: number[] = [];
  runNow(() => {
    const work = text.search(needle, 'contains', out);
    while (!work.next().done);
  });
  return out;
}
