import { type ErrorDetails, FolioError, invalidKey, validationError } from '../errors.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { compileFilters } from './filters.js';
import { type PopulateModel, modelOf, modelsOf } from './populate-models.js';
import { scopeOf } from './populate.js';
import { compileSort, parseSort } from './sort.js';
import { checkDepth } from './bounds.js';

/**
 * Checks a `populate` parameter as Strapi's query validator does (`@strapi/utils` `validatePopulate` over its
 * populate traversal), rule by rule, before it is read: the same keys refused, in the same order, with the same
 * messages and `details` (`key`, `path`: the attribute path the key is under, `param: "populate"`). What the
 * validator lets through and Strapi's converter refuses is the reader's to refuse (populate.ts).
 */
export function checkPopulate(ctx: ReadContext, ct: ContentType, populate: unknown): void {
  // A wildcard is always valid; so is no populate at all.
  if (populate === undefined || populate === null || populate === '' || populate === '*') return;
  const walk = new Walk(ctx);
  try {
    walk.validate(modelOf(ctx, ct.uid), populate, ROOT, undefined);
    walk.privates(modelOf(ctx, ct.uid), populate, ROOT, undefined);
  } catch (err) {
    throw asPopulate(err);
  }
}

interface Path {
  raw: string | null;
  attribute: string | null;
}
/** The node a populate level is under: an attribute (relation, media, component, zone), or a keyword. */
interface Parent {
  attribute?: Attribute;
}
const ROOT: Path = { raw: null, attribute: null };

const QS_ARRAY_LIMIT = 100;
/** The keys of a populate level that are options, not attributes. */
const KEYWORDS = ['sort', 'filters', 'fields', 'populate', 'on', 'count', ''];
const BOOLEAN_LIKE: readonly unknown[] = ['true', 't', '1', 1, 'false', 'f', '0', 0];
export const isBooleanLike = (v: unknown) => typeof v === 'boolean' || BOOLEAN_LIKE.includes(v);
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isPopulatable = (a: Attribute | undefined) =>
  !!a && ['relation', 'dynamiczone', 'component', 'media'].includes(a.type);
const isMorphLike = (a: Attribute) =>
  a.type === 'dynamiczone' || (a.type === 'relation' && (a.relation === 'morphToOne' || a.relation === 'morphToMany'));

/** The error Strapi's validator throws, and what its query validation adds (`source`, `param`). */
const bad = (key: string, path: string | null) => invalidKey(key, { path, source: 'query', param: 'populate' });

/** An error of a nested `fields`, `filters` or `sort`, reported under `populate` as Strapi's validator reports it. */
function asPopulate(err: unknown): unknown {
  if (!(err instanceof FolioError) || err.status !== 400 || !err.details) return err;
  const details: ErrorDetails = { ...err.details, source: 'query', param: 'populate' };
  return new FolioError(400, err.errorName, err.message, details);
}

/** `['a.b', 'c']` as `{ a: { populate: { b: true } }, c: true }`, as Strapi's populate traversal reads strings. */
function pathsToObject(paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    let node = out;
    const keys = path.split('.');
    keys.forEach((key, i) => {
      if (i === keys.length - 1) node[key] = true;
      else {
        if (!isObj(node[key])) node[key] = { populate: {} };
        node = (node[key] as { populate: Record<string, unknown> }).populate;
      }
    });
  }
  return out;
}

class Walk {
  constructor(private readonly ctx: ReadContext) {}

  /** `validatePopulate`: dot paths on their own rules, else the traversal with the validating visitor. */
  validate(model: PopulateModel | undefined, populate: unknown, path: Path, parent: Parent | undefined) {
    if ((typeof populate === 'string' && populate !== '*') || (isStringArray(populate) && populate.length)) {
      if (model) this.dotPaths(model, populate as string | string[]);
      return;
    }
    this.traverse(model, populate, path, parent, (key, value, attribute, m, p, par) =>
      this.visit(key, value, attribute, m, p, par),
    );
  }

  /** The private-attribute pass that follows (`throw-private`): a private attribute named anywhere is refused. */
  privates(model: PopulateModel | undefined, populate: unknown, path: Path, parent: Parent | undefined) {
    this.traverse(model, populate, path, parent, (key, _value, attribute, _m, p) => {
      if (attribute?.private) throw bad(key, p.attribute);
    });
  }

  /** Strapi's populate traversal: strings and string lists read as dot paths, `*`, objects key by key. */
  private traverse(
    model: PopulateModel | undefined,
    value: unknown,
    path: Path,
    parent: Parent | undefined,
    visitor: Visitor,
  ): void {
    if (typeof value === 'string' && value !== '*')
      return this.traverse(model, pathsToObject([value]), path, parent, visitor);
    if (isStringArray(value)) return this.traverse(model, pathsToObject(value), path, parent, visitor);
    if (isObj(value) && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (
        keys.length > QS_ARRAY_LIMIT &&
        keys.every((k, i) => k === String(i)) &&
        Object.values(value).every((v) => typeof v === 'string')
      )
        throw validationError(
          `Too many populate entries (${keys.length}). The maximum number of populate entries when using array ` +
            `notation is ${QS_ARRAY_LIMIT}. Consider using object notation (populate[field]=true), nested ` +
            'population, or reducing the number of fields.',
        );
    }
    if (value === '*') {
      // Folio's own bound on depth comes first, as the reader would meet it (bounds.ts).
      if (path.attribute !== null) checkDepth(this.ctx.config.read, [...path.attribute.split('.'), '*']);
      return visitor('', '*', undefined, model, path, parent);
    }
    if (!isObj(value)) return;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      const attribute = model && Object.hasOwn(model.attributes, key) ? model.attributes[key] : undefined;
      const p: Path = {
        raw: path.raw === null ? key : `${path.raw}.${key}`,
        attribute: attribute ? (path.attribute === null ? key : `${path.attribute}.${key}`) : path.attribute,
      };
      if (!KEYWORDS.includes(key) && !isBooleanLike(key))
        checkDepth(this.ctx.config.read, [...(path.attribute?.split('.') ?? []), key]);
      visitor(key, v, attribute, model, p, parent);
      // Query keywords are checked by the visitor, not walked as populate.
      if (['sort', 'filters', 'fields'].includes(key) && (!attribute || parent?.attribute)) continue;
      this.descend(key, v, attribute, model, p, parent, visitor);
    }
  }

  /** The traversal's handlers: `populate` and `on` keywords, and relation, media, component and zone attributes. */
  private descend(
    key: string,
    value: unknown,
    attribute: Attribute | undefined,
    model: PopulateModel | undefined,
    p: Path,
    parent: Parent | undefined,
    visitor: Visitor,
  ) {
    if (!attribute && key === 'populate') this.traverse(model, value, p, { attribute }, visitor);
    if (!attribute && key === 'on' && isObj(value))
      for (const [uid, sub] of Object.entries(value))
        this.traverse(modelOf(this.ctx, uid), sub, { ...p, raw: `${p.raw}[${uid}]` }, parent, visitor);
    if (!attribute || value === undefined || value === null) return;
    const under: Parent = { attribute };
    if (attribute.type === 'relation') {
      if (isMorphLike(attribute)) {
        if (isObj(value) && isObj(value.on)) this.traverse(model, { on: value.on }, p, under, visitor);
        return;
      }
      this.traverse(modelOf(this.ctx, attribute.target), value, p, under, visitor);
    } else if (attribute.type === 'media')
      this.traverse(modelOf(this.ctx, 'plugin::upload.file'), value, p, under, visitor);
    else if (attribute.type === 'component')
      this.traverse(modelOf(this.ctx, attribute.component), value, p, under, visitor);
    else if (attribute.type === 'dynamiczone' && isObj(value) && 'on' in value && value.on)
      this.traverse(model, { on: value.on }, p, under, visitor);
  }

  /** The validating visitor of `validatePopulate`. */
  private visit(
    key: string,
    value: unknown,
    attribute: Attribute | undefined,
    model: PopulateModel | undefined,
    path: Path,
    parent: Parent | undefined,
  ) {
    // An attribute named where populate names attributes (not inside a relation's own options).
    if (!parent?.attribute && attribute) {
      if (isMorphLike(attribute) && isObj(value) && 'populate' in value) {
        const nested = value.populate;
        if (nested !== undefined && nested !== null && nested !== '*') throw bad('populate', path.raw);
      }
      if (!isPopulatable(attribute)) throw bad(key, path.raw);
      return;
    }
    if (key === 'on') {
      if (!isObj(value)) throw bad(key, path.raw);
      for (const target of Object.keys(value))
        if (!modelOf(this.ctx, target)) throw bad(target, `${path.raw}.${target}`);
      return;
    }
    if (key === '' && value === '*') return;
    if (key === 'count') {
      if (isBooleanLike(value)) return;
      throw bad(key, path.attribute);
    }
    if (isBooleanLike(key)) return;
    if (key === 'sort') return this.nested(model, (scope) => compileSort(scope, parseSort(value)));
    if (key === 'filters') return this.nested(model, (scope) => compileFilters(scope, value));
    if (key === 'fields') return model && checkFields(model, value);
    if (key === 'populate') return this.validate(model, value, path, { attribute });
    throw bad(key, path.attribute);
  }

  /**
   * Nested `sort` and `filters`, checked by the query engine's own rules for the model they apply to. Only their
   * keys are the validator's: a value it lets through (a sort direction) is refused when the populate is read.
   */
  private nested(model: PopulateModel | undefined, check: (scope: ReturnType<typeof scopeOf>) => unknown) {
    if (!model?.target) return;
    try {
      check(scopeOf(this.ctx, model.target));
    } catch (err) {
      if (err instanceof FolioError && err.details && 'key' in err.details) throw err;
    }
  }

  /** `validatePopulateDotPaths`: each segment a populatable attribute; zones look into their components. */
  private dotPaths(model: PopulateModel, populate: string | string[]) {
    const items = (Array.isArray(populate) ? populate : [populate]).flatMap((s) => s.split(',')).map((s) => s.trim());
    for (const item of items.filter(Boolean)) {
      const segments = item
        .split('.')
        .map((s) => s.trim())
        .filter(Boolean);
      this.segments(model, segments, '');
    }
  }

  private segments(model: PopulateModel | undefined, segments: string[], prefix: string): void {
    if (!segments.length || !model) return;
    const [head, ...tail] = segments;
    const full = prefix ? `${prefix}.${head}` : head;
    checkDepth(this.ctx.config.read, full.split('.'));
    const attribute = Object.hasOwn(model.attributes, head) ? model.attributes[head] : undefined;
    if (!attribute || !isPopulatable(attribute)) throw bad(head, full);
    if (!tail.length) return;
    if (attribute.type === 'component') return this.segments(modelOf(this.ctx, attribute.component), tail, full);
    if (attribute.type === 'relation') {
      if (isMorphLike(attribute)) throw bad(head, full);
      return this.segments(modelOf(this.ctx, attribute.target), tail, full);
    }
    if (attribute.type === 'media') throw bad(head, full);
    if (attribute.type === 'dynamiczone') {
      const [next, ...rest] = tail;
      const nextPath = `${full}.${next}`;
      const candidates = modelsOf(this.ctx, attribute.components).filter((m) => Object.hasOwn(m.attributes, next));
      if (!candidates.length) throw bad(next, nextPath);
      for (const m of candidates) {
        const nested = m.attributes[next];
        if (!rest.length) return;
        const into =
          nested.type === 'component'
            ? nested.component
            : nested.type === 'relation' && !isMorphLike(nested)
              ? nested.target
              : undefined;
        if (into === undefined) continue;
        try {
          return this.segments(modelOf(this.ctx, into), rest, nextPath);
        } catch {
          // Another component of the zone may have the path.
        }
      }
      throw bad(next, nextPath);
    }
  }
}

type Visitor = (
  key: string,
  value: unknown,
  attribute: Attribute | undefined,
  model: PopulateModel | undefined,
  path: Path,
  parent: Parent | undefined,
) => void;

/** `validateFields` on a populated model: scalar attributes only (every name first), then no private ones. */
function checkFields(model: PopulateModel, value: unknown) {
  const names = (typeof value === 'string' ? [value] : isStringArray(value) ? value : [])
    .flatMap((s) => (s.includes(',') ? s.split(',') : [s]))
    .map((s) => s.trim())
    .filter((s) => s !== '*');
  const attrs = model.attributes;
  const own = (n: string) => (Object.hasOwn(attrs, n) ? attrs[n] : undefined);
  for (const n of names) {
    if (n === 'id' || n === 'documentId') continue;
    const a = own(n);
    if (!a || !isScalar(a)) throw bad(n, a ? n : null);
  }
  for (const n of names) {
    const a = own(n);
    if (a && (a.private || a.type === 'password')) throw bad(n, n);
  }
}
