import type { Version } from '../documents/model.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import { NO_LOCALE } from '../documents/model.js';
import { pickVersion } from '../documents/doc-index.js';
import { type ReadContext, inHolderLocale, mediaFiles, relatedVersions, targetsByIds } from './context.js';
import type { PopulateNode, PopulateTree } from './populate.js';
import { valueBytes } from './bounds.js';
import { fileObject } from '../documents/media.js';

export interface Selection {
  fields?: string[];
  populate: PopulateTree;
}

const visible = (a: Attribute) => !a.private && a.type !== 'password';

const scalarsOf = new WeakMap<Record<string, Attribute>, string[]>();

/** The names of the scalar attributes an answer shows (not private, not passwords), in schema order. */
function shownScalars(attrs: Record<string, Attribute>): string[] {
  let names = scalarsOf.get(attrs);
  if (!names) {
    names = Object.entries(attrs)
      .filter(([, a]) => isScalar(a) && visible(a))
      .map(([n]) => n);
    scalarsOf.set(attrs, names);
  }
  return names;
}
const isZone = (a: Attribute | undefined) => a?.type === 'dynamiczone';

/** Key order of a populated entry: relations/media/components in schema order, then localizations, then zones. */
function populateOrder(tree: PopulateTree, attrs: Record<string, Attribute>): string[] {
  const names = [...tree.keys()];
  const rank = (n: string) => (n === 'localizations' ? 1 : isZone(attrs[n]) ? 2 : 0);
  const schemaOrder = Object.keys(attrs);
  return names.sort((a, b) => rank(a) - rank(b) || schemaOrder.indexOf(a) - schemaOrder.indexOf(b));
}

/** A document version in Strapi v5's flat response shape. */
export function shapeDocument(ctx: ReadContext, ct: ContentType, v: Version, sel: Selection): Record<string, unknown> {
  const out: Record<string, unknown> = { id: v.id, documentId: v.documentId };
  const want = sel.fields ? new Set(sel.fields) : undefined;
  // id, documentId, timestamps and locale with their keys, then each scalar with its key.
  let bytes = 160;
  const data = v.data;
  for (const name of shownScalars(ct.attributes)) {
    if (want && !want.has(name)) continue;
    const value = data[name] ?? null;
    out[name] = value;
    bytes += name.length + 4 + valueBytes(value);
  }
  ctx.budget?.rows(1);
  ctx.budget?.bytes(bytes);
  if (!want || want.has('createdAt')) out.createdAt = v.createdAt;
  if (!want || want.has('updatedAt')) out.updatedAt = v.updatedAt;
  if (!want || want.has('publishedAt'))
    out.publishedAt = ctx.status === 'draft' && ct.draftAndPublish ? null : v.publishedAt;
  if (ct.localized && (!want || want.has('locale'))) out.locale = v.locale;
  for (const name of populateOrder(sel.populate, ct.attributes)) {
    const node = sel.populate.get(name)!;
    if (name === 'localizations') {
      out.localizations = localizations(ctx, ct, v, node);
      continue;
    }
    out[name] = populateAttribute(ctx, ct.attributes[name], v.data[name], node, { ct, version: v, name });
  }
  return out;
}

function localizations(ctx: ReadContext, ct: ContentType, v: Version, node: PopulateNode) {
  const doc = ctx.index.get(ct.uid, v.documentId);
  const rows: Version[] = [];
  if (doc)
    for (const [code, slot] of doc.slots) {
      if (code === (v.locale ?? NO_LOCALE)) continue;
      const other = pickVersion(ct, slot, ctx.status);
      if (other) rows.push(other);
    }
  rows.sort((a, b) => a.id - b.id);
  return finishList(ctx, rows, node, (r) => shapeDocument(ctx, ct, r as Version, node));
}

function finishList(ctx: ReadContext, rows: unknown[], node: PopulateNode, shape: (r: unknown) => unknown) {
  let list = node.filter ? rows.filter(node.filter) : rows;
  if (node.sort) list = node.sort(list);
  if (node.count) return { count: list.length };
  void ctx;
  return list.map(shape);
}

interface Owner {
  ct?: ContentType;
  /** The type of the document a component is in (links inside it name a locale by its rule). */
  top?: ContentType;
  /** The locale of the document version a component is in: links inside it resolve in that locale. */
  locale?: string | null;
  version?: Version;
  name: string;
}

type Holder = { top: ContentType | undefined; locale: string | null };

/** The type and locale of the document version a component of `owner` is in. */
const holderOf = (owner: Owner): Holder => ({
  top: owner.ct ?? owner.top,
  locale: owner.version ? owner.version.locale : (owner.locale ?? null),
});

function populateAttribute(
  ctx: ReadContext,
  attr: Attribute,
  value: unknown,
  node: PopulateNode,
  owner: Owner,
): unknown {
  switch (attr.type) {
    case 'relation': {
      const target = ctx.schemas.contentTypes.get(attr.target);
      if (!target) return null;
      const rows =
        owner.ct && owner.version
          ? relatedVersions(ctx, owner.ct, owner.version, owner.name, attr)
          : targetsByIds(ctx, target, value, owner.locale ?? null, owner.top);
      const many = ['oneToMany', 'manyToMany'].includes(attr.relation);
      const result = finishList(ctx, rows, node, (r) => shapeDocument(ctx, target, r as Version, node));
      if (many || node.count) return result;
      return (result as unknown[])[0] ?? null;
    }
    case 'media': {
      const files = mediaFiles(ctx, value);
      const result = finishList(ctx, files, node, (f) => {
        const file = fileObject(f as Record<string, unknown>, node.fields);
        ctx.budget?.bytes(valueBytes(f));
        return file;
      });
      if (attr.multiple || node.count) return result;
      return (result as unknown[])[0] ?? null;
    }
    case 'component': {
      const comp = ctx.schemas.components.get(attr.component);
      if (!comp) return null;
      const holder = holderOf(owner);
      if (attr.repeatable) {
        let items = Array.isArray(value) ? value : [];
        // Populate filters and sorts on the items resolve their relations in the holding version's locale.
        if ((node.filter || node.sort) && holder.top?.localized)
          items = items.map((i) => inHolderLocale(i, holder.locale));
        return finishList(ctx, items, node, (i) =>
          shapeComponent(ctx, comp.attributes, i as Record<string, unknown>, node, holder),
        );
      }
      return value ? shapeComponent(ctx, comp.attributes, value as Record<string, unknown>, node, holder) : null;
    }
    case 'dynamiczone': {
      const items = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
      if (node.count) return { count: items.length };
      const holder = holderOf(owner);
      const out: unknown[] = [];
      for (const item of items) {
        const uid = item.__component as string;
        const comp = ctx.schemas.components.get(uid);
        if (!comp) continue;
        let sub: PopulateNode | undefined = { populate: new Map() };
        if (node.on) sub = node.on.get(uid);
        if (!sub) continue;
        out.push({ ...shapeComponent(ctx, comp.attributes, item, sub, holder), __component: uid });
      }
      return out;
    }
    default:
      return value;
  }
}

/** A component value: scalars in schema order (no id: Folio hands out none), nested values when populated. */
function shapeComponent(
  ctx: ReadContext,
  attrs: Record<string, Attribute>,
  value: Record<string, unknown>,
  node: PopulateNode,
  holder: Holder,
) {
  const out: Record<string, unknown> = {};
  const want = node.fields ? new Set(node.fields) : undefined;
  let bytes = 2;
  for (const name of shownScalars(attrs)) {
    if (want && !want.has(name)) continue;
    const v = value[name] ?? null;
    out[name] = v;
    bytes += name.length + 4 + valueBytes(v);
  }
  ctx.budget?.rows(1);
  ctx.budget?.bytes(bytes);
  for (const name of populateOrder(node.populate, attrs)) {
    out[name] = populateAttribute(ctx, attrs[name], value[name], node.populate.get(name)!, { name, ...holder });
  }
  return out;
}
