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
    const tree: PopulateTree = new Map();
    for (const item of raw) {
      if (typeof item !== 'string')
        throw validationError('Invalid populate parameter: expected strings in the populate array');
      if (item === '*') throw invalidKey('*', { path: [...path, '*'].join('.'), source: 'query', param: 'populate' });
      for (const part of item.split(',')) addDotted(ctx, t, tree, part.trim(), path);
    }
    return tree;
  }
  if (isObject(raw)) {
    const tree: PopulateTree = new Map();
    const entries = Object.entries(raw);
    if (entries.length > MAX_ENTRIES)
      throw validationError(`Too many populate entries (${entries.length}), at most ${MAX_ENTRIES}`);
    for (const [name, value] of entries) {
      const attr = lookup(ctx, t, name, path);
      if (!attr) continue; // a relation the caller may not find is dropped silently
      if (value === false || value === 'false') continue;
      tree.set(name, parseNode(ctx, t, name, attr, value, [...path, name]));
    }
    return tree;
  }
  throw validationError('Invalid populate parameter');
}

function addDotted(ctx: ReadContext, t: Target, tree: PopulateTree, dotted: string, path: string[]) {
  if (!dotted) return;
  const [name, ...rest] = dotted.split('.');
  const attr = lookup(ctx, t, name, path);
  if (!attr) return;
  let node = tree.get(name);
  if (!node) tree.set(name, (node = leaf()));
  if (rest.length) {
    const sub = attr === 'localizations' ? t : targetOf(ctx, attr, t);
    if (!sub || (attr !== 'localizations' && attr.type === 'dynamiczone'))
      throw invalidKey(rest[0], { path: [...path, name, rest[0]].join('.'), source: 'query', param: 'populate' });
    addDotted(ctx, sub, node.populate, rest.join('.'), [...path, name]);
  }
}

/** The attribute a populate key names, 'localizations', or undefined when it is a relation the caller may not see. */
function lookup(ctx: ReadContext, t: Target, name: string, path: string[]): Attribute | 'localizations' | undefined {
  const bad = () => invalidKey(name, { path: [...path, name].join('.'), source: 'query', param: 'populate' });
  checkDepth(ctx.config.read, [...path, name]);
  if (name === 'localizations' && t.kind === 'document' && t.ct.localized) return 'localizations';
  const attrs = attributesOf(t);
  const attr = Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : undefined;
  if (!attr || !populatable(attr)) throw bad();
  if (attr.type === 'relation' && !ctx.canFind(attr.target)) return undefined;
  return attr;
}

function parseNode(
  ctx: ReadContext,
  parent: Target,
  name: string,
  attr: Attribute | 'localizations',
  value: unknown,
  path: string[],
): PopulateNode {
  const label = path.join('.');
  const target = attr === 'localizations' ? parent : targetOf(ctx, attr, parent);
  const isZone = attr !== 'localizations' && attr.type === 'dynamiczone';
  if (value === true || value === 'true' || (value === '*' && !isZone)) {
    // `populate[field]=*` is read as `populate[field]=true` (folio-decisions.md).
    return leaf();
  }
  if (!isObject(value)) {
    if (isZone) {
      const ct = parent.kind === 'document' ? parent.ct.uid : parent.kind === 'component' ? parent.uid : 'file';
      const owner = parent.kind === 'document' ? parent.ct.singularName : 'component';
      throw validationError(
        `Invalid nested populate for ${owner}.${name} (${ct}). ` +
          `Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`,
      );
    }
    throw invalidKey(String(value), { path: `${label}.${String(value)}`, source: 'query', param: 'populate' });
  }
  const node = leaf();
  if (isZone) {
    const zone = attr as Extract<Attribute, { type: 'dynamiczone' }>;
    for (const [k, v] of Object.entries(value)) {
      if (k === 'on') {
        if (!isObject(v))
          throw validationError(`Invalid populate fragment for ${label}: expected an object of components`);
        node.on = new Map();
        for (const [uid, sel] of Object.entries(v)) {
          if (!zone.components.includes(uid))
            throw invalidKey(uid, { path: `${label}.${uid}`, source: 'query', param: 'populate' });
          const comp = ctx.schemas.components.get(uid)!;
          const ctarget: Target = { kind: 'component', uid, attributes: comp.attributes, top: topOf(parent) };
          node.on.set(
            uid,
            sel === true || sel === 'true' || sel === '*'
              ? leaf()
              : parseNodeBody(ctx, ctarget, sel, `${label}.${uid}`, [...path, uid]),
          );
        }
      } else if (k === 'populate') {
        if (v !== '*')
          throw validationError(
            "Invalid nested population query detected. When using 'populate' within polymorphic structures, " +
              "its value must be '*' to indicate all second level links. Specific field targeting is not supported " +
              'here. Consider using the fragment API for more granular population control.',
          );
        node.on = new Map();
        for (const uid of zone.components) {
          const comp = ctx.schemas.components.get(uid);
          if (comp)
            node.on.set(uid, {
              populate: star(ctx, { kind: 'component', uid, attributes: comp.attributes, top: topOf(parent) }),
            });
        }
      } else if (k === 'count') {
        node.count = v === true || v === 'true';
      } else {
        throw validationError(
          `Invalid nested populate for ${label}. Expected a fragment ("on") or "count" but found ${JSON.stringify(k)}`,
        );
      }
    }
    return node;
  }
  if ('on' in value)
    throw validationError(
      `Using fragments is not permitted to populate "${name}" ` +
        `in "${parent.kind === 'document' ? parent.ct.uid : 'component'}"`,
    );
  return parseNodeBody(ctx, target!, value, label, path);
}

function parseNodeBody(ctx: ReadContext, target: Target, value: unknown, label: string, path: string[]): PopulateNode {
  if (!isObject(value)) throw validationError(`Invalid populate for ${label}`);
  const node = leaf();
  for (const [k, v] of Object.entries(value)) {
    switch (k) {
      case 'fields':
        node.fields = parseFields(
          target.kind === 'document' ? target.ct : target.kind === 'component' ? target.attributes : 'media',
          v,
        );
        break;
      case 'filters':
        node.filter = compileFilters(scopeOf(ctx, target), v);
        break;
      case 'sort':
        node.sort = compileSort(scopeOf(ctx, target), parseSort(v));
        break;
      case 'populate':
        node.populate = parsePopulate(ctx, target, v, path);
        break;
      case 'count':
        node.count = v === true || v === 'true';
        break;
      default:
        throw invalidKey(k, { path: `${label}.${k}`, source: 'query', param: 'populate' });
    }
  }
  return node;
}
