import { invalidKey, validationError } from '../errors.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { compileFilters, type Predicate } from './filters.js';
import { componentScope, documentScope, mediaScope, type Scope } from './scope.js';
import { compileSort, parseSort } from './sort.js';
import { parseFields } from './fields.js';
import { checkDepth } from './bounds.js';

/** A parsed `populate` tree: what to load under each attribute, with its own fields, filters and sort. */
export interface PopulateNode {
  fields?: string[];
  filter?: Predicate;
  sort?: <T>(rows: T[]) => T[];
  populate: PopulateTree;
  count?: boolean;
  /** Dynamic zones: per-component selection; components not listed are left out. */
  on?: Map<string, PopulateNode>;
}
export type PopulateTree = Map<string, PopulateNode>;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const MAX_ENTRIES = 100;

/** The schema a populate level applies to: a content-type, a component, or an upload file. */
export type Target =
  | { kind: 'document'; ct: ContentType }
  | { kind: 'component'; uid: string; attributes: Record<string, Attribute>; top: ContentType | undefined }
  | { kind: 'media' };

const attributesOf = (t: Target): Record<string, Attribute> =>
  t.kind === 'document' ? t.ct.attributes : t.kind === 'component' ? t.attributes : {};

const populatable = (a: Attribute) => !isScalar(a) && !a.private;

export function scopeOf(ctx: ReadContext, t: Target): Scope {
  return t.kind === 'document'
    ? documentScope(ctx, t.ct)
    : t.kind === 'component'
      ? componentScope(ctx, t.attributes, t.top)
      : mediaScope();
}

/** The type of the document a populate level is in: links in components name a locale by its rule. */
const topOf = (t: Target) => (t.kind === 'document' ? t.ct : t.kind === 'component' ? t.top : undefined);

function targetOf(ctx: ReadContext, attr: Attribute, parent: Target): Target | undefined {
  switch (attr.type) {
    case 'relation': {
      const ct = ctx.schemas.contentTypes.get(attr.target);
      return ct ? { kind: 'document', ct } : undefined;
    }
    case 'media':
      return { kind: 'media' };
    case 'component': {
      const c = ctx.schemas.components.get(attr.component);
      return c ? { kind: 'component', uid: c.uid, attributes: c.attributes, top: topOf(parent) } : undefined;
    }
    default:
      return undefined;
  }
}

const leaf = (): PopulateNode => ({ populate: new Map() });

/** `populate=*`: every relation, media, component, zone (and localizations) one level deep. */
function star(ctx: ReadContext, t: Target): PopulateTree {
  const tree: PopulateTree = new Map();
  for (const [name, a] of Object.entries(attributesOf(t))) {
    if (!populatable(a)) continue;
    if (a.type === 'relation' && !ctx.canFind(a.target)) continue;
    if (a.type === 'relation' && a.relation.startsWith('morph')) continue;
    tree.set(name, leaf());
  }
  if (t.kind === 'document' && t.ct.localized) tree.set('localizations', leaf());
  return tree;
}

/** Strapi's converter error for a populate that is neither a string, a list of strings nor an object. */
const invalidPopulate = () =>
  validationError('Invalid populate parameter. Expected a string, an array of strings, a populate object');

/** Strapi's strict boolean reading of a populate value: true, false, or undefined when it is not boolean-like. */
function booleanOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 't' || v === '1' || v === 1) return true;
  if (v === 'false' || v === 'f' || v === '0' || v === 0) return false;
  return undefined;
}

/**
 * A `populate` parameter read as Strapi's query converter reads it (checked first by populate-check.ts, as
 * Strapi's validator checks it): dot paths, lists of them, `*`, or an object per attribute. Keys that are not
 * attributes (`populate[0]`, `populate[fields]`) and values that are not true (`populate[tags]=0`) populate
 * nothing; relations the caller may not `find` are left out.
 */
export function parsePopulate(ctx: ReadContext, t: Target, raw: unknown, path: string[] = []): PopulateTree {
  if (raw === undefined || raw === null || raw === '') return new Map();
  if (typeof raw === 'string') {
    if (raw === '*') {
      checkDepth(ctx.config.read, [...path, '*']);
      return star(ctx, t);
    }
    const tree: PopulateTree = new Map();
    for (const part of raw.split(',')) addDotted(ctx, t, tree, part.trim(), path);
    return tree;
  }
  if (Array.isArray(raw)) {
    if (raw.length > MAX_ENTRIES)
      throw validationError(`Too many populate entries (${raw.length}), at most ${MAX_ENTRIES}`);
    if (!raw.every((item) => typeof item === 'string')) throw invalidPopulate();
    const tree: PopulateTree = new Map();
    for (const item of raw as string[]) for (const part of item.split(',')) addDotted(ctx, t, tree, part.trim(), path);
    return tree;
  }
  if (!isObject(raw)) throw invalidPopulate();
  const tree: PopulateTree = new Map();
  const entries = Object.entries(raw);
  if (entries.length > MAX_ENTRIES)
    throw validationError(`Too many populate entries (${entries.length}), at most ${MAX_ENTRIES}`);
  for (const [name, value] of entries) {
    const asBoolean = typeof value === 'string' || typeof value === 'boolean' ? booleanOf(value) : undefined;
    if (asBoolean === false) continue;
    const attr = ownAttribute(t, name);
    if (!attr) continue;
    checkDepth(ctx.config.read, [...path, name]);
    if (attr !== 'localizations' && attr.type === 'relation' && !ctx.canFind(attr.target)) continue;
    if (asBoolean === true) tree.set(name, leaf());
    else {
      const node = parseNode(ctx, t, name, attr, value, [...path, name]);
      if (node) tree.set(name, node);
    }
  }
  return tree;
}

/** The populatable attribute (or `localizations`) a key names on a level, if any. */
function ownAttribute(t: Target, name: string): Attribute | 'localizations' | undefined {
  if (name === 'localizations' && t.kind === 'document' && t.ct.localized) return 'localizations';
  const attrs = attributesOf(t);
  const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  return attr && populatable(attr) ? attr : undefined;
}

function addDotted(ctx: ReadContext, t: Target, tree: PopulateTree, dotted: string, path: string[]) {
  if (!dotted) return;
  const [name, ...rest] = dotted.split('.');
  const attr = lookup(ctx, t, name, path);
  if (!attr) return;
  let node = tree.get(name);
  if (!node) tree.set(name, (node = leaf()));
  if (!rest.length) return;
  if (attr !== 'localizations' && attr.type === 'dynamiczone') {
    // `blocks.file`: every component of the zone comes back; those with the attribute populate it.
    node.on ??= new Map(attr.components.map((uid) => [uid, leaf()]));
    for (const [uid, sub] of node.on) {
      const comp = ctx.schemas.components.get(uid);
      const ctarget: Target | undefined = comp && {
        kind: 'component',
        uid,
        attributes: comp.attributes,
        top: topOf(t),
      };
      if (ctarget && ownAttribute(ctarget, rest[0]))
        addDotted(ctx, ctarget, sub.populate, rest.join('.'), [...path, name]);
    }
    return;
  }
  const sub = attr === 'localizations' ? t : targetOf(ctx, attr, t);
  if (!sub) throw invalidKey(rest[0], { path: [...path, name, rest[0]].join('.'), source: 'query', param: 'populate' });
  addDotted(ctx, sub, node.populate, rest.join('.'), [...path, name]);
}

/** The attribute a populate key names, 'localizations', or undefined when it is a relation the caller may not see. */
function lookup(ctx: ReadContext, t: Target, name: string, path: string[]): Attribute | 'localizations' | undefined {
  checkDepth(ctx.config.read, [...path, name]);
  const attr = ownAttribute(t, name);
  if (!attr) throw invalidKey(name, { path: [...path, name].join('.'), source: 'query', param: 'populate' });
  if (attr !== 'localizations' && attr.type === 'relation' && !ctx.canFind(attr.target)) return undefined;
  return attr;
}

/** The model name and uid Strapi's converter names a level by in its messages (a component has no singular name). */
function modelNames(t: Target): { singular: string; uid: string } {
  if (t.kind === 'document') return { singular: t.ct.singularName, uid: t.ct.uid };
  if (t.kind === 'component') return { singular: 'undefined', uid: t.uid };
  return { singular: 'file', uid: 'plugin::upload.file' };
}

/** One attribute's populate options (an object, or a string that is not boolean-like), as Strapi converts them. */
function parseNode(
  ctx: ReadContext,
  parent: Target,
  name: string,
  attr: Attribute | 'localizations',
  value: unknown,
  path: string[],
): PopulateNode | undefined {
  const { singular, uid } = modelNames(parent);
  if (attr !== 'localizations' && attr.type === 'dynamiczone') {
    const keys = Object.keys(value as object);
    if (keys.some((k) => k !== 'populate' && k !== 'on' && k !== 'count'))
      throw validationError(
        `Invalid nested populate for ${singular}.${name} (${uid}). ` +
          `Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`,
      );
    return parseZone(ctx, parent, attr, value as Record<string, unknown>, path);
  }
  if (isObject(value) && 'on' in value && value.on !== undefined && value.on !== null)
    throw validationError(`Using fragments is not permitted to populate "${name}" in "${uid}"`);
  const target = attr === 'localizations' ? parent : targetOf(ctx, attr, parent);
  if (!target) return undefined;
  return nestedNode(ctx, target, value, path, attr !== 'localizations' && attr.type === 'relation');
}

/**
 * `convertNestedPopulate`: a string is true unless false-like, an object is read for its options. `count` is
 * kept for relations only: on media, components and zones Strapi returns the data whole.
 */
function nestedNode(
  ctx: ReadContext,
  target: Target,
  value: unknown,
  path: string[],
  counts: boolean,
): PopulateNode | undefined {
  if (typeof value === 'string' || typeof value === 'boolean')
    return (booleanOf(value) ?? Boolean(value)) ? leaf() : undefined;
  if (!isObject(value)) throw validationError("Invalid nested populate. Expected '*' or an object");
  const node = leaf();
  for (const [k, v] of Object.entries(value)) {
    if (k === 'fields') {
      node.fields = parseFields(
        target.kind === 'document' ? target.ct : target.kind === 'component' ? target.attributes : 'media',
        v,
      );
    } else if (k === 'filters') node.filter = compileFilters(scopeOf(ctx, target), v);
    else if (k === 'sort') node.sort = compileSort(scopeOf(ctx, target), parseSort(v));
    else if (k === 'populate') node.populate = parsePopulate(ctx, target, v, path);
    else if (k === 'count' && counts) node.count = booleanOf(v) === true;
  }
  return node;
}

/** A zone's options: `on` (the components listed, each with its own options), `populate: '*'`; `count` is ignored. */
function parseZone(
  ctx: ReadContext,
  parent: Target,
  zone: Extract<Attribute, { type: 'dynamiczone' }>,
  value: Record<string, unknown>,
  path: string[],
): PopulateNode {
  const node = leaf();
  const componentTarget = (uid: string): Target | undefined => {
    const comp = ctx.schemas.components.get(uid);
    return comp && { kind: 'component', uid, attributes: comp.attributes, top: topOf(parent) };
  };
  if (value.populate !== undefined && value.populate !== null && value.populate !== '*')
    throw validationError(
      "Invalid nested population query detected. When using 'populate' within polymorphic structures, " +
        "its value must be '*' to indicate all second level links. Specific field targeting is not supported " +
        'here. Consider using the fragment API for more granular population control.',
    );
  if (value.populate === '*') {
    node.on = new Map();
    for (const uid of zone.components) {
      const t = componentTarget(uid);
      if (t) node.on.set(uid, { populate: star(ctx, t) });
    }
  }
  if (isObject(value.on)) {
    // Only the components listed come back (a uid the zone does not hold lists none of its items).
    node.on = new Map();
    for (const [uid, sel] of Object.entries(value.on)) {
      const t = componentTarget(uid);
      const sub = t ? nestedNode(ctx, t, sel, [...path, uid], false) : undefined;
      node.on.set(uid, sub ?? leaf());
    }
  }
  return node;
}
