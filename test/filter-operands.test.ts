import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/project.js';
import { articleTitles } from './helpers/titles.js';

/**
 * The operands each filter operator takes, as a client sees them in the list it gets back: a missing operand
 * (`filters[title][$lt]`, read as null), a list holding one, text operators on a number field (matched as text,
 * never cast), case-folded operands, and a stored text that reads "null". Each row is asked as written, as the one
 * branch of an `$or`, and beside an `$or` branch that matches nothing, so the indexes and the scan both answer.
 */
describe('filter operands', () => {
  let s: TestServer;
  const docs = [
    { title: 'null', views: 3, description: 'Null Island' },
    { title: 'Alpha', views: 10, description: 'Science' },
    { title: 'zeta', views: null, description: null },
  ];
  beforeAll(async () => {
    s = await startTestServer();
    for (const d of docs) {
      const res = await s.api('/api/articles', { method: 'POST', body: { data: d } });
      expect(res.status, JSON.stringify(res.body?.error)).toBe(201);
    }
  });
  afterAll(async () => {
    await s.stop();
  });

  const titles = articleTitles(() => s);

  const rows: Array<[qs: string, titles: string[]]> = [
    // An order against a missing operand is unknown, as `< NULL` is in SQL: nothing matches.
    ['filters[title][$lt]', []],
    ['filters[title][$lte]', []],
    ['filters[title][$gt]', []],
    ['filters[title][$gte]', []],
    // A missing operand of $ne/$nei means "is not null": the text "null" is a value like any other.
    ['filters[title][$ne]', ['null', 'Alpha', 'zeta']],
    ['filters[title][$nei]', ['null', 'Alpha', 'zeta']],
    ['filters[title][$eq]=null', ['null']],
    ['filters[title][$in][0]=zeta&filters[title][$in][1]', ['zeta']],
    ['filters[title][$in][0]=Alpha&filters[title][$in][1]=zeta', ['Alpha', 'zeta']],
    // A list given to $eq/$eqi is an OR of its items; a missing item matches the missing values.
    ['filters[views][$eq][0]=3&filters[views][$eq][1]', ['null', 'zeta']],
    ['filters[description][$eqi][0]=SCIENCE&filters[description][$eqi][1]', ['Alpha', 'zeta']],
    // Text operators read a number as its digits and never cast their operand to the field's kind.
    ['filters[views][$notContains]=x', ['null', 'Alpha']],
    ['filters[views][$containsi]=x', []],
    ['filters[views][$notContainsi]=x', ['null', 'Alpha']],
    ['filters[views][$startsWith]=x', []],
    ['filters[views][$startsWithi]=x', []],
    ['filters[views][$endsWith]=x', []],
    ['filters[views][$endsWithi]=x', []],
    ['filters[views][$startsWith]=1', ['Alpha']],
    // Case-insensitive operators fold the operand too.
    ['filters[description][$startsWithi]=NULL', ['null']],
    ['filters[description][$endsWithi]=ISLAND', ['null']],
    ['filters[description][$containsi]=IEN', ['Alpha']],
  ];
  const insideOr = (qs: string) => qs.replaceAll('filters[', 'filters[$or][0][');
  const besideNothing = (qs: string) => `${insideOr(qs)}&filters[$or][1][views][$lt]=-1000`;

  it.each(rows.flatMap(([qs, expected]) => [qs, insideOr(qs), besideNothing(qs)].map((q) => [q, expected] as const)))(
    '%s',
    async (qs, expected) => {
      expect(await titles(qs)).toEqual(expected);
    },
  );
});
