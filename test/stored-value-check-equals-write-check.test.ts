import { describe, expect, it } from 'vitest';
import { coerceScalar, scalarProblem } from '../src/documents/values.js';
import { SCALAR_TYPES, type ScalarAttribute } from '../src/schema/types.js';

/**
 * A file's values are checked with `scalarProblem`, which takes a shortcut for text and booleans; a write's with
 * `coerceScalar`. Both must find the same problem, worded the same, for every type, setting and value, so a file a
 * write would refuse is reported when it is read, and one a write accepts is not.
 */
const SHAPES: Array<Omit<ScalarAttribute, 'type'>> = [
  {},
  { minLength: 3 },
  { maxLength: 4 },
  { regex: '^[a-z]+$' },
  { enum: ['a', 'b c'] },
  { min: 2, max: 10 },
];

const VALUES: unknown[] = [
  '',
  'ab',
  'abcd',
  'abcdef',
  'ABC',
  'a',
  'b c',
  ' 12 ',
  '12',
  '1e3',
  'true',
  'false',
  'x@example.com',
  'not an email',
  '2024-02-29',
  '2023-02-30',
  '2024-05-01T10:00:00.000Z',
  '10:30:00',
  '9007199254740993',
  'é'.repeat(5),
  0,
  7,
  -1.5,
  2 ** 53,
  1e21,
  Number.NaN,
  Infinity,
  true,
  false,
  [],
  ['a'],
  {},
  { a: 1 },
];

const writeProblem = (attr: ScalarAttribute, v: unknown) => {
  const c = coerceScalar('f', attr, v);
  return c.ok ? undefined : c.message;
};

describe('a stored value is checked as a write checks it', () => {
  for (const type of SCALAR_TYPES)
    it(`${type}: the same problem for every setting and value`, () => {
      const differ: string[] = [];
      for (const shape of SHAPES)
        for (const v of VALUES) {
          const attr = { type, ...shape } as ScalarAttribute;
          const stored = scalarProblem('f', attr, v);
          const written = writeProblem(attr, v);
          if (stored !== written) differ.push(`${JSON.stringify(shape)} ${String(v)}: ${stored} vs ${written}`);
        }
      expect(differ).toEqual([]);
    });

  it('refuses a text too long and a boolean given as text, as a write does', () => {
    expect(scalarProblem('f', { type: 'string', maxLength: 4 }, 'abcdef')).toBeDefined();
    expect(scalarProblem('f', { type: 'boolean' }, 'yes')).toBe(writeProblem({ type: 'boolean' }, 'yes'));
    expect(scalarProblem('f', { type: 'string' }, 5)).toBeDefined();
  });
});
