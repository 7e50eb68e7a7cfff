import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type Project } from '../src/project.js';
import { type ColumnPart, columnParts, foldedOperator, isRange, planFind } from '../src/query/plan.js';
import { makeProject } from './helpers/project.js';
import { prepared } from './helpers/indexed-reads.js';

/**
 * What the parse of a list query compiles over the indexes' columns (src/query/plan.ts `columnParts`), and that
 * the plan takes those parts as they are: a filter on the type's own fields is compiled once, at parse, and not
 * again by the plan; a filter through a relation, or one refused, gets no parts (the compile over versions
 * answers or words it).
 */
const PARTS: Array<[query: string, parts: string[] | undefined]> = [
  ['filters[views][$gt]=3', ['views']],
  ['filters[views][$gt]=3&filters[title][$eq]=x', ['views', 'title']],
  ['filters[title][$containsi]=a', ['title']],
  ['filters[$or][0][views]=1&filters[$or][1][title]=x', ['$or']],
  ['filters[$not][views][$gt]=5', ['$not']],
  ['filters[$and][0][views][$gte]=1&filters[$and][1][featured]=true', ['views', 'featured']],
  ['filters[author][name][$eq]=Ada', undefined],
  ['filters[author][id][$null]=true', undefined],
  ['filters[views][$gt]=1&filters[author][name]=Ada', undefined],
  ['filters[$or][0][views]=1&filters[$or][1][author][name]=Ada', undefined],
  ['filters=', []],
  ['filters', []],
];
const REFUSED = [
  'filters[views][$gt]=abc',
  'filters[nope]=1',
  'filters[views][$foo]=1',
  'filters=x',
  'filters[author][name]=x&filters[author][$eq]=1',
];

/** The parts by field, or by operator for a `$or`/`$not`/… part (which names no field). */
const named = (parts: ColumnPart[] | undefined) => parts?.map((p) => p.field?.spec.key ?? Object.keys(p.node)[0]);

describe('the filter parts compiled at parse', () => {
  let made: ReturnType<typeof makeProject>;
  let project: Project;

  beforeAll(async () => {
    made = makeProject();
    project = await openProject(made.dir);
    const ada = (await project.documents.create('authors', { name: 'Ada' })).documentId;
    for (let i = 0; i < 6; i++) {
      const data = { title: ['Beta', 'echo', 'Alpha'][i % 3] + i, views: i, featured: i % 2 === 0 };
      await project.documents.create('articles', { ...data, author: i % 2 ? ada : null });
    }
  });
  afterAll(() => made.cleanup());

  it.each(PARTS)('%s: compiled over the columns as %j', (text, parts) => {
    expect(named(prepared(project, 'articles', text).query.columnParts)).toEqual(parts);
  });

  it('a query with no filter at all has no parts to compile', () => {
    const { ct, query, context } = prepared(project, 'articles', 'sort=views:asc');
    expect(query.columnParts).toBeUndefined();
    for (const none of [undefined, null, '']) expect(columnParts(context, ct, none)).toEqual([]);
  });

  it.each(REFUSED)('%s is refused at parse, with a 400', (text) => {
    expect(() => prepared(project, 'articles', text)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('the plan takes the parts compiled at parse, and compiles none of its own', () => {
    const { ct, query, context } = prepared(project, 'articles', 'filters[views][$gt]=3&filters[title][$eq]=x');
    const parts = query.columnParts!;
    const rows = context.index.rowSet(ct.uid, { status: query.status, locale: query.locale });
    // The parts alone say what to test: the plan does not read the filter again.
    const plan = planFind(context, ct, rows, undefined, [], parts)!;
    expect(plan.scalars).toHaveLength(2);
    plan.scalars.forEach((s, i) => expect(s).toBe(parts[i]));
    // A range of the sorted order of views, the title's column: from the parts' fields.
    expect(plan.needs.get(ct.uid)!.orders!.map((o) => o.field.key)).toEqual(['views', 'title']);
  });

  it("a relation's condition mixing fields and operators is read through the inverse links", () => {
    const text = 'filters[author][name]=x&filters[author][$not][name]=y';
    const { ct, query, context } = prepared(project, 'articles', text);
    const rows = context.index.rowSet(ct.uid, { status: query.status, locale: query.locale });
    const plan = planFind(context, ct, rows, query.filters, []);
    expect(plan?.links.map((l) => l.relation.spec.key)).toEqual(['author']);
  });

  it('a plan made from the filter itself refuses what the compile refuses', () => {
    const { ct, query, context } = prepared(project, 'articles', 'sort=views:asc');
    const rows = context.index.rowSet(ct.uid, { status: query.status, locale: query.locale });
    const plan = (filters: unknown) => () => planFind(context, ct, rows, filters, []);
    expect(plan({ views: { $gt: 'abc' } })).toThrow(expect.objectContaining({ status: 400 }));
    expect(plan({ views: { $foo: '1' } })).toThrow(expect.objectContaining({ status: 400 }));
  });
});

/**
 * Which conditions a plan reads from a range of a sorted order (isRange) or from the folded texts: operands come
 * as text from a query string and as numbers and booleans from a caller in the process.
 */
const RANGES: Array<[condition: unknown, range: boolean]> = [
  ['a', true],
  [3, true],
  [true, true],
  [{ $gt: 3 }, true],
  [{ $eq: false }, true],
  [{ $lte: 'b' }, true],
  [{ $between: [1, 4] }, true],
  [{ $between: ['a', 'c'] }, true],
  [{ $between: [1] }, false],
  [{ $between: [1, 2, 3] }, false],
  [{ $between: 'ab' }, false],
  [{ $between: [1, { a: 1 }] }, false],
  [{ $between: [{ a: 1 }, 1] }, false],
  [{ $gt: { a: 1 } }, false],
  [{ $in: [1, 2] }, false],
  [{ $gt: 1, $ne: 2 }, false],
  [null, false],
];

describe('a condition read as a range', () => {
  it.each(RANGES)('%j: %s', (condition, range) => {
    expect(isRange(condition)).toBe(range);
  });

  it.each([
    [{ $containsi: 'a' }, '$containsi'],
    [{ $startsWithi: 3 }, '$startsWithi'],
    [{ $endsWithi: true }, '$endsWithi'],
    [{ $containsi: ['a'] }, undefined],
    [{ $contains: 'a' }, undefined],
    [{ $containsi: 'a', $eq: 'b' }, undefined],
  ])('%j reads the folded texts with %s', (condition, op) => {
    expect(foldedOperator(condition)).toBe(op);
  });
});
