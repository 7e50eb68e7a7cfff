import type { Column } from '../documents/column.js';
import type { FieldSpec } from '../documents/doc-index.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { type Field, type Scope, documentScope } from './scope.js';

/** A filter or sort the indexes cannot answer: the query reads every row instead. */
export class NotPlannable extends Error {}

/** A top-level scalar field of a document type, as the indexes hold it: its spec and its kind (for operands). */
export interface ScalarField {
  spec: FieldSpec;
  type: string;
}

/** Per content-type object (a schema change makes new ones), the fields asked so far by name (null: no scalar). */
const known = new WeakMap<ContentType, Map<string, ScalarField | null>>();

/**
 * The scalar field `name` of `ct`, read exactly as a filter reads it (the document scope's own getter), or
 * undefined when `name` is not a scalar field (a relation, a component, media). A scalar's getter reads the
 * version alone (no caller, status or locale), so each is made once per type and name; names of no attribute
 * are not kept, so a client cannot grow the map.
 */
export function scalarField(ctx: ReadContext, ct: ContentType, name: string): ScalarField | undefined {
  let fields = known.get(ct);
  const kept = fields?.get(name);
  if (kept !== undefined) return kept ?? undefined;
  const field = makeScalarField(ctx, ct, name);
  if (field || Object.hasOwn(ct.attributes, name)) {
    if (!fields) known.set(ct, (fields = new Map()));
    fields.set(name, field ?? null);
  }
  return field;
}

/** How many names of `ct` are kept (what a client's queries can make it hold: its attributes at most). */
export function keptFieldCount(ct: ContentType): number {
  return known.get(ct)?.size ?? 0;
}

function makeScalarField(ctx: ReadContext, ct: ContentType, name: string): ScalarField | undefined {
  let field: Field;
  try {
    // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent, they only word the error caught below.
    field = documentScope(ctx, ct).field(name, [name], 'filters');
  } catch {
    return undefined;
  }
  if (field.kind !== 'scalar') return undefined;
  const get = field.get;
  return { spec: { key: name, extract: (v) => get(v) }, type: field.type };
}

/**
 * A scope whose rows are version ids, each field read from its column (`columnOf`, once built): filters
 * compiled over it (see filters.ts) test a row from the columns alone, with the very same operators and
 * three-valued logic as over versions. Id -1 stands for the row a left join gives when nothing is related
 * (every value null). Fields other than top-level scalars throw NotPlannable; `seen` records each field named.
 */
export function columnScope(
  ctx: ReadContext,
  ct: ContentType,
  columnOf: (key: string) => Column | undefined,
  seen?: Map<string, ScalarField>,
): Scope {
  return {
    field(key) {
      const f = scalarField(ctx, ct, key);
      if (!f) throw new NotPlannable(key);
      // Stryker disable next-line OptionalChaining: equivalent, every caller passes `seen` (plan.ts).
      seen?.set(key, f);
      let column: Column | undefined;
      return {
        // Stryker disable next-line StringLiteral: equivalent, filters tell only 'nested' fields apart.
        kind: 'scalar',
        type: f.type,
        get: (id) => {
          // A filter compiled once may outlive the column it first read (see parts-memo.ts): a dropped one is stale.
          // Stryker disable next-line ConditionalExpression: equivalent, a lookup for every row finds the same column.
          if (column === undefined || column.dropped) column = columnOf(key);
          // A column is missing only at planning, when the planner tests the row of nulls (-1).
          // Stryker disable next-line LogicalOperator: equivalent, the row of nulls is the only one tested then.
          return (id as number) < 0 || !column ? null : column.value(id as number);
        },
      };
    },
  };
}
