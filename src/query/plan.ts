import type { IndexNeeds, RowSet } from '../documents/doc-index.js';
import { linksNameLocale } from '../documents/file-format.js';
import type { ContentType } from '../schema/types.js';
import { isOwningSide, isRelation } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { NotPlannable, type ScalarField, columnScope, scalarField } from './column-scope.js';
import { compileFilters } from './filters.js';
import { isOperator } from './operators.js';
import type { SortKey } from './sort.js';

/** One condition of the top-level AND of a filter, over the type's own scalar fields (`{ [key]: value }`). */
export interface ScalarPart {
  node: Record<string, unknown>;
  /** The condition over the columns (see column-scope.ts), compiled once. */
  test: (id: number) => boolean;
  /** The field of a part on one field (not `$or`, `$not`). */
  field?: ScalarField;
  value: unknown;
}

/** A top-level condition through an owning relation, answered from the targets that match (`filters[author][name]`). */
export interface LinkPart {
  /** The relation, as a column of the source type (the documentIds it points at). */
  relation: ScalarField;
  target: ContentType;
  targetRows: RowSet;
  inner: unknown;
  /** The target's scalar fields the inner condition reads. */
  fields: Map<string, ScalarField>;
  /** The inner condition over the target's columns. */
  test: (id: number) => boolean;
}

export interface SortPart {
  field: ScalarField;
  desc: boolean;
}

/** How the indexes answer a list query: the row set, its conditions, its sort, and what must be built first. */
export interface FindPlan {
  ct: ContentType;
  rows: RowSet;
  scalars: ScalarPart[];
  links: LinkPart[];
  sort: SortPart[];
  /** Per type uid, what its indexes must hold. */
  needs: Map<string, IndexNeeds>;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// Stryker disable next-line all: equivalent, no query string gives an empty object or list (qs never makes one).
const isEmpty = (v: unknown) => (isObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);

/** The conditions of the filter's top-level AND, as the filter compiler reads them (arrays and `$and` are AND). */
function topLevel(node: unknown, out: Array<[string, unknown]>) {
  if (Array.isArray(node)) {
    // Stryker disable next-line all: equivalent, see isEmpty.
    for (const x of node) if (!isEmpty(x)) topLevel(x, out);
    return;
  }
  // Stryker disable next-line StringLiteral: equivalent, a NotPlannable's message is never read (caught below).
  if (!isObject(node)) throw new NotPlannable('filters');
  for (const [key, value] of Object.entries(node)) {
    // Stryker disable next-line all: equivalent, see isEmpty.
    if (isEmpty(value) && key !== '$not') continue;
    if (key === '$and' && Array.isArray(value)) topLevel(value, out);
    else out.push([key, value]);
  }
}

/** The operators a condition on one field may use to be read as a range of a sorted order (see exec.ts). */
// Stryker disable next-line StringLiteral: equivalent for `$between`, which isRange reads before this set.
export const RANGE_OPERATORS = new Set(['$eq', '$gt', '$gte', '$lt', '$lte', '$between']);
/** The case-insensitive text operators read from the case-folded column. */
export const FOLDED_OPERATORS = new Set(['$containsi', '$startsWithi', '$endsWithi']);

const isPlainOperand = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Whether a condition on one field is a range of values (`$gt`, `$between`, a bare value…). */
export function isRange(value: unknown): boolean {
  if (isPlainOperand(value)) return true;
  if (!isObject(value)) return false;
  const ops = Object.entries(value);
  return (
    // Stryker disable next-line all: equivalent, see isEmpty.
    ops.length > 0 &&
    ops.every(([op, x]) =>
      op === '$between'
        ? Array.isArray(x) && x.length === 2 && x.every(isPlainOperand)
        : RANGE_OPERATORS.has(op) && isPlainOperand(x),
    )
  );
}

/** Whether a condition on one field is a single case-insensitive text match (`$containsi`, …). */
export function foldedOperator(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const ops = Object.keys(value);
  return ops.length === 1 && FOLDED_OPERATORS.has(ops[0]) && isPlainOperand(value[ops[0]]) ? ops[0] : undefined;
}

/** A type's columns, as a compiled condition reads them (once built, see FieldIndexes.need). */
const columnsOf = (ctx: ReadContext, ct: ContentType) => (key: string) => ctx.index.fields(ct.uid).column(key);

function needsOf(plan: FindPlan, uid: string): IndexNeeds {
  let n = plan.needs.get(uid);
  if (!n) plan.needs.set(uid, (n = { columns: [], orders: [], texts: [], links: [] }));
  return n;
}

/**
 * Plans a list query over the indexes, or answers undefined when they cannot answer it (the query then reads
 * every row, as before): filters on the type's scalar fields, combined any way, and conditions through an owning
 * relation at the top level; sorts on scalar fields.
 */
export function planFind(
  ctx: ReadContext,
  ct: ContentType,
  rows: RowSet,
  filters: unknown,
  sort: readonly SortKey[],
  compiled?: ColumnPart[],
): FindPlan | undefined {
  const plan: FindPlan = { ct, rows, scalars: [], links: [], sort: [], needs: new Map() };
  try {
    if (compiled) for (const part of compiled) addScalar(plan, part);
    else {
      const parts: Array<[string, unknown]> = [];
      if (filters !== undefined && filters !== null && filters !== '') topLevel(filters, parts);
      for (const [key, value] of parts) {
        // Stryker disable next-line MethodExpression: equivalent, no scalar field is named `…$`.
        const field = key.startsWith('$') ? undefined : scalarField(ctx, ct, key);
        if (field || key.startsWith('$')) addScalar(plan, columnPart(ctx, ct, key, value, field));
        else plan.links.push(linkPart(ctx, ct, rows, key, value, plan));
      }
    }
    for (const key of sort) {
      // Stryker disable next-line ConditionalExpression: equivalent, the parse refuses a path through a scalar field.
      const field = key.path.length === 1 ? scalarField(ctx, ct, key.path[0]) : undefined;
      if (!field) return undefined;
      const needs = needsOf(plan, ct.uid);
      needs.columns!.push(field.spec);
      if (!plan.sort.length) needs.orders!.push({ field: field.spec, rows });
      plan.sort.push({ field, desc: key.desc });
    }
  } catch (err) {
    if (err instanceof NotPlannable) return undefined;
    throw err;
  }
  return plan;
}

/** A top-level condition compiled over the columns, with the fields it reads (what the indexes must hold). */
export interface ColumnPart extends ScalarPart {
  reads: ScalarField[];
}

/**
 * The top-level conditions of `filters` compiled over the columns, when every one is on the type's own scalar
 * fields (else undefined: a relation's condition, or a filter the indexes cannot answer or that is refused, which
 * the compile over versions then words). They check the filter as that compile would, so a list query needs no
 * other until a row is read without the indexes; `planFind` takes them as they are.
 */
export function columnParts(ctx: ReadContext, ct: ContentType, filters: unknown): ColumnPart[] | undefined {
  try {
    const parts: Array<[string, unknown]> = [];
    if (filters !== undefined && filters !== null && filters !== '') topLevel(filters, parts);
    const out: ColumnPart[] = [];
    for (const [key, value] of parts) {
      // Stryker disable next-line MethodExpression: equivalent, no scalar field is named `…$`.
      const field = key.startsWith('$') ? undefined : scalarField(ctx, ct, key);
      // The compile over the columns refuses such a key too (columnScope's lookup), before it reads its condition.
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see the line above.
      if (!field && !key.startsWith('$')) return undefined;
      out.push(columnPart(ctx, ct, key, value, field));
    }
    // Stryker disable BlockStatement: equivalent, the catch's block emptied falls through to the same undefined.
    return out;
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

function columnPart(
  ctx: ReadContext,
  ct: ContentType,
  key: string,
  value: unknown,
  field: ScalarField | undefined,
): ColumnPart {
  const seen = new Map<string, ScalarField>();
  // Compiled over the columns, read once built; this also finds the fields it reads, and refuses what the
  // indexes cannot answer.
  const node = { [key]: value };
  const test = compileFilters(columnScope(ctx, ct, columnsOf(ctx, ct), seen), node) as (id: number) => boolean;
  return { node, test, field, value, reads: [...seen.values()] };
}

function addScalar(plan: FindPlan, part: ColumnPart) {
  const { field, value } = part;
  const needs = needsOf(plan, plan.ct.uid);
  for (const f of part.reads) needs.columns!.push(f.spec);
  if (field && isRange(value)) needs.orders!.push({ field: field.spec, rows: plan.rows });
  if (field && foldedOperator(value)) needs.texts!.push({ field: field.spec, rows: plan.rows });
  plan.scalars.push(part);
}

function linkPart(
  ctx: ReadContext,
  ct: ContentType,
  rows: RowSet,
  key: string,
  inner: unknown,
  plan: FindPlan,
): LinkPart {
  const attr = Object.prototype.hasOwnProperty.call(ct.attributes, key) ? ct.attributes[key] : undefined;
  // Stryker disable next-line MethodExpression: equivalent, a morph relation names no target type (refused below).
  if (!attr || !isRelation(attr) || !isOwningSide(attr) || attr.relation.startsWith('morph'))
    throw new NotPlannable(key);
  const target = ctx.schemas.contentTypes.get(attr.target);
  // A bare value or operators on the relation itself compare the related ids; links that name a locale, or
  // a read of every locale of a localized type, resolve their targets row by row.
  // Value operators beside fields make no link part either way: the parse refuses them, and so does columnScope.
  // Stryker disable next-line MethodExpression: equivalent, see the line above.
  if (!target || !isObject(inner) || Object.keys(inner).every(isOperator) || linksNameLocale(ct, target))
    throw new NotPlannable(key);
  if (target.localized && typeof rows.locale !== 'string') throw new NotPlannable(key);
  const locale = target.localized ? rows.locale! : null;
  const targetRows = ctx.index.rowSet(target.uid, { status: ctx.status, locale });
  const fields = new Map<string, ScalarField>();
  const scope = columnScope(ctx, target, columnsOf(ctx, target), fields);
  const test = compileFilters(scope, inner) as (id: number) => boolean;
  // A source with nothing related is tested against a row of nulls: when that matches, sources without links
  // match too, which the links alone cannot find.
  if (test(-1)) throw new NotPlannable(key);
  const relation: ScalarField = {
    spec: { key, extract: (v) => v.data[key] ?? null },
    // Stryker disable next-line StringLiteral: equivalent, only scalar fields' types are read (to cast operands).
    type: 'relation',
  };
  needsOf(plan, ct.uid).links!.push(relation.spec);
  const targetNeeds = needsOf(plan, target.uid);
  for (const f of fields.values()) targetNeeds.columns!.push(f.spec);
  return { relation, target, targetRows, inner, fields, test };
}
