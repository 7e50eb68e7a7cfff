import type { SchemaRegistry } from '../../schema/registry.js';
import type { Attribute, ContentType } from '../../schema/types.js';
import { DOCUMENT_ID, DRAFT, LOCALES, PUBLISHED, versionKeys } from '../../documents/file-format.js';
import { mergeList } from './lists.js';
import { Conflict, earlier, isObject, later, mergeObject, mergeWhole, same, type ObjectRule } from './three-way.js';

/**
 * The merge of one document file (see file-format.ts): per locale, per version (draft, published) and per
 * field. Fields merge by their kind in the schema: relations and media lists and repeatable components and
 * dynamic zones as ordered lists, a single component field by field, anything else as a whole value. A
 * version's own keys follow their own rules: `updatedAt` takes the later value, `createdAt` the earlier,
 * `publishedAt` the later when both sides published, and `id` the side that gave a new one (both: the higher;
 * clashes with other files are the index's, as after any merge). Without its type's schema (a type only the
 * other branch has), every attribute merges as a whole value.
 */
export interface MergeContext {
  ct?: ContentType;
  schemas?: SchemaRegistry;
}

type Merge = (base: unknown, ours: unknown, theirs: unknown) => unknown;

/** Merges three document bodies into one; conflicts are left in it as `Conflict` values. */
export function mergeDocument(
  ctx: MergeContext,
  base: Record<string, unknown> | undefined,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
): Record<string, unknown> {
  const version = versionMerge(ctx);
  const slot = objects({ key: (k, b, o, t) => (k === DRAFT || k === PUBLISHED ? version : mergeWhole)(b, o, t) });
  const locales = (b: unknown, o: unknown, t: unknown) =>
    isObject(o) && isObject(t) ? sortKeys(mergeObject(asObject(b), o, t, { key: (_k, ...v) => slot(...v) })) : null;
  return mergeObject(base, ours, theirs, {
    order: [DOCUMENT_ID, LOCALES, DRAFT, PUBLISHED],
    key: (k, b, o, t) => {
      if (k === LOCALES) return locales(b, o, t) ?? mergeWhole(b, o, t);
      if (k === DRAFT || k === PUBLISHED) return version(b, o, t);
      return mergeWhole(b, o, t);
    },
  });
}

/** A merge of objects by `rule` (anything else, or a base that was no object, merges as a whole value). */
function objects(rule: ObjectRule): Merge {
  return (b, o, t) =>
    isObject(o) && isObject(t) && (b === undefined || isObject(b))
      ? mergeObject(b as Record<string, unknown> | undefined, o, t, rule)
      : mergeWhole(b, o, t);
}

const asObject = (v: unknown) => (isObject(v) ? v : undefined);

/** Locales are written sorted by code, as the store writes them. */
function sortKeys(o: Record<string, unknown>) {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

/** The merge of one version: its own keys by their rules, its attributes by their kinds. */
function versionMerge(ctx: MergeContext): Merge {
  const attributes = ctx.ct?.attributes ?? {};
  return objects({
    order: ctx.ct ? versionKeys(ctx.ct) : undefined,
    key: (k, b, o, t) => {
      if (k === 'id') return ids(b, o, t);
      if (k === 'updatedAt') return later(o, t);
      if (k === 'createdAt') return changedBoth(b, o, t) ? earlier(o, t) : mergeWhole(b, o, t);
      if (k === 'publishedAt') return changedBoth(b, o, t) ? later(o, t) : mergeWhole(b, o, t);
      return fieldMerge(ctx.schemas, Object.hasOwn(attributes, k) ? attributes[k] : undefined)(b, o, t);
    },
  });
}

const changedBoth = (b: unknown, o: unknown, t: unknown) => !same(b, o) && !same(b, t) && !same(o, t);

/** A version's id: the side that gave a new one; when both did (each published it), the higher. */
function ids(b: unknown, o: unknown, t: unknown): unknown {
  if (!changedBoth(b, o, t)) return mergeWhole(b, o, t);
  return typeof o === 'number' && typeof t === 'number' ? Math.max(o, t) : o;
}

/** How a stored attribute's value merges, by the attribute's kind. */
function fieldMerge(schemas: SchemaRegistry | undefined, attr: Attribute | undefined): Merge {
  if (!attr) return mergeWhole;
  // A link to one document (or one media file) is a string, merged whole by `lists`.
  if (attr.type === 'relation' || attr.type === 'media') return lists(mergeWhole, false);
  if (attr.type === 'component') {
    const item = componentMerge(schemas, attr.component);
    return attr.repeatable ? lists(item, true) : item;
  }
  if (attr.type === 'dynamiczone')
    return lists((b, o, t) => {
      const uid = isObject(o) ? o.__component : undefined;
      const alike = isObject(b) && isObject(t) && b.__component === uid && t.__component === uid;
      return alike && typeof uid === 'string' ? componentMerge(schemas, uid)(b, o, t) : mergeWhole(b, o, t);
    }, true);
  return mergeWhole;
}

/** Lists merged as ordered lists (a value that is not a list on every side merges whole). */
function lists(item: Merge, pairs: boolean): Merge {
  return (b, o, t) => {
    // One side's change (or both sides' same one) is taken as it is.
    if (same(o, t) || same(b, o) || same(b, t)) return mergeWhole(b, o, t);
    return Array.isArray(o) && Array.isArray(t) && (Array.isArray(b) || b === undefined || b === null)
      ? mergeList(Array.isArray(b) ? b : [], o, t, { merge: item, pairs })
      : new Conflict(o, t);
  };
}

/** One component value merged field by field, by the kinds of the component's attributes. */
function componentMerge(schemas: SchemaRegistry | undefined, uid: string): Merge {
  const comp = schemas?.components.get(uid);
  if (!comp) return mergeWhole;
  return objects({
    key: (k, b, o, t) =>
      fieldMerge(schemas, Object.hasOwn(comp.attributes, k) ? comp.attributes[k] : undefined)(b, o, t),
  });
}

/** The conflicts left in a merged tree, with the path of each (`locales.en.draft.title`). */
export function conflictsOf(tree: unknown, path: string[] = []): Array<{ path: string; conflict: Conflict }> {
  if (tree instanceof Conflict) return [{ path: path.join('.'), conflict: tree }];
  if (Array.isArray(tree)) return tree.flatMap((x, i) => conflictsOf(x, [...path, String(i)]));
  if (isObject(tree)) return Object.entries(tree).flatMap(([k, v]) => conflictsOf(v, [...path, k]));
  return [];
}
