import { invalidKey, validationError } from '../errors.js';
import { parseDateTime } from '../documents/values.js';
import { LOGICAL, OPERATORS, isOperator, type Scalar } from './operators.js';
import type { Field, Scope } from './scope.js';
import { checkDepth } from './bounds.js';

export type Predicate = (row: unknown) => boolean;
/**
 * Inside the compiler conditions are SQL's three-valued ones: `null` is "unknown", what a comparison
 * with a NULL column gives. NOT keeps it unknown, AND/OR combine it as SQL does, and only true matches,
 * so `filters[$not][title][$eq]=x` leaves out documents without a title, as Strapi's database does.
 */
type Tri = boolean | null;
type Condition = (row: unknown) => Tri;

const and3 = (parts: Condition[]): Condition => {
  if (parts.length === 1) return parts[0];
  return (row) => {
    let unknown = false;
    for (const p of parts) {
      const v = p(row);
      if (v === false) return false;
      if (v === null) unknown = true;
    }
    return unknown ? null : true;
  };
};
const or3 =
  (parts: Condition[]): Condition =>
  (row) => {
    let unknown = false;
    for (const p of parts) {
      const v = p(row);
      if (v === true) return true;
      if (v === null) unknown = true;
    }
    return unknown ? null : false;
  };
const not3 =
  (inner: Condition): Condition =>
  (row) => {
    const v = inner(row);
    return v === null ? null : !v;
  };
/** "Some related row matches": true if one does, unknown if none does but one might. */
const some3 = (rows: unknown[], inner: Condition): Tri => {
  let unknown = false;
  for (const r of rows) {
    const v = inner(r);
    if (v === true) return true;
    if (v === null) unknown = true;
  }
  return unknown ? null : false;
};

const EMPTY_ROW = Object.freeze({});
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0']);

/**
 * Compiles a `filters` object once per request into a predicate over rows, so matching a row never walks
 * the filter object again. Unknown keys and operators are errors, never a silent match-all.
 */
export function compileFilters(scope: Scope, filters: unknown): Predicate {
  if (filters === undefined || filters === null || filters === '') return () => true;
  if (!isObject(filters) && !Array.isArray(filters))
    throw validationError('The filters parameter must be an object or an array');
  const condition = compileGroup(scope, filters, []);
  return (row) => condition(row) === true;
}

function compileGroup(scope: Scope, node: unknown, path: string[]): Condition {
  if (Array.isArray(node)) {
    return and3(node.filter((x) => !isEmpty(x)).map((x) => compileGroup(scope, x, path)));
  }
  if (!isObject(node)) throw validationError(`Invalid filter at ${path.join('.') || 'filters'}: expected an object`);
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (isEmpty(value) && key !== '$not') continue;
    if (LOGICAL.has(key)) {
      parts.push(compileLogical(scope, key, value, path));
      continue;
    }
    const field = scope.field(key, [...path, key], 'filters');
    if (field.kind === 'nested') checkDepth(scope.limits, [...path, key], 'filters');
    parts.push(compileField(field, value, [...path, key]));
  }
  return and3(parts);
}

function compileLogical(scope: Scope, op: string, value: unknown, path: string[]): Condition {
  const where = `filters${path.map((p) => `[${p}]`).join('')}[${op}]`;
  if (op === '$not') return not3(compileGroup(scope, value, path));
  if (!Array.isArray(value)) throw validationError(`Invalid ${where}: ${op} expects an array of filters`);
  const parts = value.filter((x) => !isEmpty(x)).map((x) => compileGroup(scope, x, path));
  if (op === '$or') return parts.length ? or3(parts) : () => true;
  return and3(parts);
}

function compileField(field: Field, value: unknown, path: string[]): Condition {
  if (field.kind === 'nested') {
    // A document with nothing related is tested against one all-null row, as a SQL left join gives.
    const joined = (row: unknown) => {
      const rows = field.get(row);
      return rows.length ? rows : [field.empty ?? EMPTY_ROW];
    };
    // A bare value or a direct operator on a relation/media/component targets the related row's id.
    if (!isObject(value) || Object.keys(value).every((k) => isOperator(k))) {
      const idPred = compileScalar(
        { kind: 'scalar', type: field.idType, get: (r) => (r as { id?: unknown }).id ?? null },
        value,
        path,
      );
      const nullOnly = isObject(value) && ('$null' in value || '$notNull' in value);
      if (nullOnly) {
        // `$null` on a relation: whether any related row exists.
        const flag = castFlag((value as Record<string, unknown>).$null ?? (value as Record<string, unknown>).$notNull);
        const wantNull = '$null' in (value as object) ? flag : !flag;
        return (row) => (field.get(row).length === 0) === wantNull;
      }
      return (row) => some3(joined(row), idPred);
    }
    const inner = compileGroup(field.scope, value, path);
    return (row) => some3(joined(row), inner);
  }
  return compileScalar(field, value, path);
}

function compileScalar(field: Extract<Field, { kind: 'scalar' }>, value: unknown, path: string[]): Condition {
  if (!isObject(value)) {
    // Implicit operator: a bare value is $eq, a bare array is $in.
    return compileOperator(field, Array.isArray(value) ? '$in' : '$eq', value, path);
  }
  const parts: Condition[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$not') {
      // SQL's NOT of a comparison with NULL stays NULL: only tests about nullness flip for a null value.
      parts.push(not3(compileScalar(field, operand, path)));
      continue;
    }
    if (op === '$and' || op === '$or') {
      if (!Array.isArray(operand))
        throw validationError(`Invalid filters[${path.join('][')}][${op}]: ${op} expects an array`);
      const subs = operand.map((x) => compileScalar(field, x, path));
      parts.push(op === '$or' ? or3(subs) : and3(subs));
      continue;
    }
    if (!isOperator(op)) throw invalidKey(op, { path: path.join('.'), source: 'query', param: 'filters' });
    parts.push(compileOperator(field, op, operand, path));
  }
  return and3(parts);
}

/** IS NULL / IS NOT NULL tests are never unknown; every other comparison with a NULL column is. */
const ABOUT_NULL = new Set(['$eq', '$eqi', '$ne', '$nei']);

function compileOperator(
  field: Extract<Field, { kind: 'scalar' }>,
  op: string,
  operand: unknown,
  path: string[],
): Condition {
  const test = compileTest(field, op, operand, path);
  const def = OPERATORS[op];
  // A list given to a one-value operator is an OR of operators, each already three-valued.
  if (
    def.operand === 'flag' ||
    (ABOUT_NULL.has(op) && operand === null) ||
    (def.operand === 'value' && Array.isArray(operand))
  )
    return test;
  const get = field.get as (row: unknown) => Scalar;
  return (row) => (get(row) === null ? null : test(row));
}

function compileTest(
  field: Extract<Field, { kind: 'scalar' }>,
  op: string,
  operand: unknown,
  path: string[],
): Condition {
  const def = OPERATORS[op];
  const where = `filters[${path.join('][')}][${op}]`;
  const get = field.get as (row: unknown) => Scalar;
  if (def.operand === 'flag') {
    const flag = castFlag(operand);
    return (row) => def.test(get(row), flag);
  }
  if (def.operand === 'list' || def.operand === 'pair') {
    if (isObject(operand)) throw validationError(`Invalid ${where}: expected an array of at most 100 values`);
    const list = Array.isArray(operand) ? operand : [operand];
    if (def.operand === 'list' && list.length === 0)
      throw validationError(`Invalid ${where}: expected at least one value`);
    if (def.operand === 'pair' && list.length !== 2)
      throw validationError(`Invalid ${where}: expected exactly two values`);
    const cast = list.map((v) => castOperand(field.type, v, where));
    return (row) => def.test(get(row), cast);
  }
  if (Array.isArray(operand)) {
    // A list given to a single-value operator means OR over its items.
    return or3(operand.map((v) => compileOperator(field, op, v, path)));
  }
  if (isObject(operand)) throw validationError(`Invalid ${where}: expected a value`);
  if (def.text) {
    if (operand === null) throw validationError(`Invalid ${where}: expected a text value`);
    const text = def.caseInsensitive ? String(operand).toLowerCase() : String(operand);
    return (row) => def.test(get(row), text);
  }
  const cast = operand === null ? null : castOperand(field.type, operand, where);
  const final = def.caseInsensitive && typeof cast === 'string' ? cast.toLowerCase() : cast;
  return (row) => def.test(get(row), final);
}

/**
 * The value of `$null` / `$notNull`, cast as Strapi casts it: 'false', 'f' and '0' are false; anything else is
 * JavaScript's truthiness (`true`, `t`, `1`, `maybe` are true, an empty value false).
 */
const castFlag = (v: unknown): boolean => v !== 'false' && v !== 'f' && v !== '0' && Boolean(v);

/** Casts a query-string operand to the attribute's kind, so comparison is by number, date or boolean. */
export function castOperand(type: string, v: unknown, where: string): Scalar {
  if (v === null) return null;
  if (typeof v === 'object') throw validationError(`Invalid ${where}: expected a value`);
  switch (type) {
    case 'integer':
    case 'float':
    case 'decimal':
    case 'biginteger':
    case 'timestamp': {
      if (type === 'timestamp' && typeof v === 'string' && !/^-?\d+(\.\d+)?$/.test(v)) {
        const d = parseDateTime(v);
        if (d) return d.getTime();
      }
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) throw validationError(`Invalid ${where}: ${JSON.stringify(v)} is not a number`);
      return n;
    }
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      const s = String(v).toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      throw validationError(`Invalid ${where}: ${JSON.stringify(v)} is not a boolean`);
    }
    case 'datetime': {
      const d = parseDateTime(v);
      if (!d) throw validationError(`Invalid ${where}: ${JSON.stringify(v)} is not a date`);
      return d.toISOString();
    }
    case 'date': {
      const m = /^\d{4}-\d{2}-\d{2}/.exec(String(v));
      if (!m) throw validationError(`Invalid ${where}: ${JSON.stringify(v)} is not a date (yyyy-MM-dd)`);
      return m[0];
    }
    default:
      return String(v);
  }
}

function isEmpty(v: unknown) {
  return (isObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);
}
