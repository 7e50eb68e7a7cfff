import { describe, expect, it } from 'vitest';
import { ROWS_PER_PAUSE } from '../src/documents/sliced-work.js';
import { DRAFTS_EN, TITLE, VIEWS, finish, indexesOver, slices, version } from './helpers/field-index-host.js';

/**
 * How much work keeping a type's query indexes current costs, and when it is done (see FieldIndexes): a short log
 * of changes is applied when a query asks, so the query waits for no job; a longer one by a job a slice at a time,
 * so other requests get turns meanwhile; one too long to be worth applying drops the indexes, built again when next
 * asked. Counted in versions read and in slices (a slice ends at each pause the work makes), never in time.
 */

const titles = (id: number) => ({ title: `t${String(id).padStart(5, '0')}`, views: id % 7 });

/** Indexes over `count` drafts with the title column and its order built, and the log of changes empty. */
function built(count: number) {
  const made = indexesOver(count, titles);
  finish(made.fields.need({ columns: [TITLE], orders: [{ field: TITLE, rows: DRAFTS_EN }] }));
  return made;
}

/** Logs `n` changes of version 1 (its title set again and again, the last one `last`). */
function logChanges(made: ReturnType<typeof built>, n: number, last = 'edited') {
  for (let k = 0; k < n; k++) made.ids.set(1, version(1, { title: k === n - 1 ? last : `edit${k}`, views: 1 }));
}

describe('keeping query indexes current', () => {
  it('builds a column reading each row once, a slice of rows between pauses', () => {
    // A whole number of slices: a loop that ran once more would make one more pause.
    const count = 4 * ROWS_PER_PAUSE;
    const { ids, fields } = indexesOver(count, titles);
    const job = fields.need({ columns: [TITLE] })!;
    expect(fields.column('title')).toBeUndefined();
    const run = slices(job, ids);
    expect(ids.reads).toBe(count);
    expect(run.mostReads).toBeLessThanOrEqual(ROWS_PER_PAUSE);
    expect(run.count).toBe(count / ROWS_PER_PAUSE + 1);
    expect(fields.column('title')!.value(count)).toBe(titles(count).title);
  });

  it.each([1, 2048])('applies a log of %i changes when a query asks: no job, each change read once', (n) => {
    const made = built(10);
    const order = made.fields.order('title', DRAFTS_EN);
    logChanges(made, n, 't00005z');
    const reads = made.ids.reads;
    expect(made.fields.need({ columns: [TITLE], orders: [{ field: TITLE, rows: DRAFTS_EN }] })).toBeUndefined();
    expect(made.ids.reads - reads).toBe(n);
    expect(made.log()).toBe(0);
    expect(made.fields.column('title')!.value(1)).toBe('t00005z');
    // The order built before is kept current, not built again.
    expect(made.fields.order('title', DRAFTS_EN)).toBe(order);
    expect([...order!.ids.subarray(0, 6)]).toEqual([2, 3, 4, 5, 1, 6]);
  });

  it('leaves a longer log to a job that applies it a slice at a time, every change read once', () => {
    const made = built(10);
    const n = 2049;
    logChanges(made, n);
    const reads = made.ids.reads;
    const job = made.fields.need({ columns: [TITLE] })!;
    expect(job).toBeDefined();
    // Nothing applied yet: the query waits for the job, which lets other work in between its slices.
    expect(made.log()).toBe(n);
    const run = slices(job, made.ids);
    expect(made.ids.reads - reads).toBe(n);
    expect(run.count).toBeGreaterThan(2);
    expect(run.count).toBeLessThanOrEqual(Math.ceil(n / 512) + 1);
    expect(run.mostReads).toBeLessThanOrEqual(512);
    expect(made.log()).toBe(0);
    expect(made.fields.column('title')!.value(1)).toBe('edited');
    expect(made.fields.need({ columns: [TITLE] })).toBeUndefined();
  });

  it('leaves changes made while a job runs to that job, even when a query asks meanwhile', () => {
    const made = built(1000);
    const job = made.fields.need({ columns: [VIEWS] })!;
    expect(job.step(0)).toBe(false);
    logChanges(made, 1, 'moved');
    expect(made.fields.need({ columns: [VIEWS] })).toBe(job);
    expect(made.log()).toBe(1);
    finish(job);
    expect(made.log()).toBe(0);
    expect(made.fields.column('title')!.value(1)).toBe('moved');
    expect(made.fields.column('views')!.value(1000)).toBe(1000 % 7);
  });

  // Whether a log is long enough to drop the indexes: over 4,096 changes and over an eighth of the rows held.
  const DROPS: Array<[string, number, number, boolean]> = [
    ['4,096 changes of 10 rows', 10, 4096, false],
    ['4,097 changes of 10 rows', 10, 4097, true],
    ['5,000 changes of 40,000 rows', 40_000, 5000, false],
    ['5,001 changes of 40,000 rows', 40_000, 5001, true],
  ];

  it.each(DROPS)('after each change, a type nobody queries: %s dropped: %s', (_, rows, n, dropped) => {
    const made = built(rows);
    logChanges(made, n);
    made.fields.changed();
    expect(made.fields.column('title') === undefined).toBe(dropped);
    expect(made.log()).toBe(dropped ? 0 : n);
    // Either way the next query answers from the rows as they are.
    finish(made.fields.need({ columns: [TITLE] }));
    expect(made.fields.column('title')!.value(1)).toBe('edited');
  });

  it.each(DROPS)('when a query asks: %s dropped and built again: %s', (_, rows, n, dropped) => {
    const made = built(rows);
    logChanges(made, n);
    const job = made.fields.need({ columns: [TITLE] })!;
    // Dropped, the column is being built again; kept, it stays readable while the job applies the log.
    expect(made.fields.column('title') === undefined).toBe(dropped);
    expect(made.log()).toBe(dropped ? 0 : n);
    finish(job);
    expect(made.fields.column('title')!.value(1)).toBe('edited');
  });

  it('drops nothing after one change, nor while a job that will apply the log runs', () => {
    const made = built(10);
    logChanges(made, 1);
    made.fields.changed();
    expect(made.fields.column('title')).toBeDefined();
    expect(made.log()).toBe(1);
    const job = made.fields.need({ columns: [VIEWS] })!;
    expect(job.step(0)).toBe(false);
    logChanges(made, 5000, 'last');
    made.fields.changed();
    expect(made.fields.column('title')).toBeDefined();
    finish(job);
    expect(made.log()).toBe(0);
    expect(made.fields.column('title')!.value(1)).toBe('last');
  });
});
