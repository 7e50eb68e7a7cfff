/**
 * The filter operator table: each operator is a comparison over one stored value and one cast operand.
 * `null` stored values never match negative operators, as SQL's three-valued logic gives in Strapi.
 */
export type Scalar = string | number | boolean | null;

export interface Operator {
  /** How the operand is given: one value, a list, or a boolean-like flag. */
  operand: 'value' | 'list' | 'pair' | 'flag';
  /** Whether the operand is compared as lower-cased text. */
  caseInsensitive?: boolean;
  /** Whether the operand is text matched inside the value (never cast to the attribute's kind). */
  text?: boolean;
  test(value: Scalar, operand: unknown): boolean;
}

/** A value as lower-cased text, as SQL's LOWER(column) reads it (the operand is lower-cased once, when compiled). */
const lower = (v: Scalar) => String(v).toLowerCase();
const cmp = (a: Scalar, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a),
    y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

export const OPERATORS: Record<string, Operator> = {
  $eq: { operand: 'value', test: (v, o) => (o === null ? v === null : v !== null && cmp(v, o) === 0) },
  $eqi: {
    operand: 'value',
    caseInsensitive: true,
    test: (v, o) => (o === null ? v === null : v !== null && lower(v) === String(o)),
  },
  $ne: { operand: 'value', test: (v, o) => (o === null ? v !== null : v !== null && cmp(v, o) !== 0) },
  $nei: {
    operand: 'value',
    caseInsensitive: true,
    test: (v, o) => (o === null ? v !== null : v !== null && lower(v) !== String(o)),
  },
  $lt: { operand: 'value', test: (v, o) => v !== null && o !== null && cmp(v, o) < 0 },
  $lte: { operand: 'value', test: (v, o) => v !== null && o !== null && cmp(v, o) <= 0 },
  $gt: { operand: 'value', test: (v, o) => v !== null && o !== null && cmp(v, o) > 0 },
  $gte: { operand: 'value', test: (v, o) => v !== null && o !== null && cmp(v, o) >= 0 },
  $in: { operand: 'list', test: (v, o) => v !== null && (o as Scalar[]).some((x) => x !== null && cmp(v, x) === 0) },
  $notIn: {
    operand: 'list',
    test: (v, o) => v !== null && !(o as Scalar[]).some((x) => x !== null && cmp(v, x) === 0),
  },
  $contains: { operand: 'value', text: true, test: (v, o) => v !== null && String(v).includes(String(o)) },
  $notContains: { operand: 'value', text: true, test: (v, o) => v !== null && !String(v).includes(String(o)) },
  $containsi: {
    operand: 'value',
    text: true,
    caseInsensitive: true,
    test: (v, o) => v !== null && lower(v).includes(String(o)),
  },
  $notContainsi: {
    operand: 'value',
    text: true,
    caseInsensitive: true,
    test: (v, o) => v !== null && !lower(v).includes(String(o)),
  },
  $startsWith: { operand: 'value', text: true, test: (v, o) => v !== null && String(v).startsWith(String(o)) },
  $startsWithi: {
    operand: 'value',
    text: true,
    caseInsensitive: true,
    test: (v, o) => v !== null && lower(v).startsWith(String(o)),
  },
  $endsWith: { operand: 'value', text: true, test: (v, o) => v !== null && String(v).endsWith(String(o)) },
  $endsWithi: {
    operand: 'value',
    text: true,
    caseInsensitive: true,
    test: (v, o) => v !== null && lower(v).endsWith(String(o)),
  },
  $null: { operand: 'flag', test: (v, o) => (o ? v === null : v !== null) },
  $notNull: { operand: 'flag', test: (v, o) => (o ? v !== null : v === null) },
  $between: {
    operand: 'pair',
    test: (v, o) => v !== null && cmp(v, (o as Scalar[])[0]) >= 0 && cmp(v, (o as Scalar[])[1]) <= 0,
  },
};

export const LOGICAL = new Set(['$and', '$or', '$not']);
export const isOperator = (k: string) => Object.prototype.hasOwnProperty.call(OPERATORS, k);
