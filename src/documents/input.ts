import { FolioError, applicationError, invalidKey, validationError, type FieldProblem } from '../errors.js';
import type { SchemaRegistry } from '../schema/registry.js';
import {
  type Attribute,
  type ComponentAttribute,
  type DynamicZoneAttribute,
  isScalar,
  isToMany,
} from '../schema/types.js';
import { coerceScalar, printValue } from './values.js';

/** A relation entry from a write body: a documentId (or a legacy numeric row id) with its options. */
export interface RelationRef {
  documentId?: string;
  id?: number;
  locale?: string;
  status?: 'draft' | 'published';
  /** `locale`: the anchor's locale (`before`/`after`), when a type without locales links a localized one. */
  position?: { before?: string | number; after?: string | number; start?: boolean; end?: boolean; locale?: string };
}

export type RelationOp =
  { kind: 'set'; items: RelationRef[] } | { kind: 'patch'; connect: RelationRef[]; disconnect: RelationRef[] };

/** A write body checked against the schema: plain values to store, and relation operations to resolve. */
export interface ParsedInput {
  values: Record<string, unknown>;
  relations: Record<string, RelationOp>;
  /** Media references as written (ids or documentIds), resolved by the service against the media library. */
  media: Record<string, Array<string | number> | string | number | null>;
  provided: Set<string>;
  /** The entry as Strapi would have written it, which its errors after the field checks carry as `value`. */
  entry(): Record<string, unknown>;
  /**
   * Field problems held back for the caller to merge with its publish-time checks (only with `defer`):
   * where every check applies at once, Strapi reports them all in one `N errors occurred`.
   */
  problems?: FieldProblem[];
}

const NON_WRITABLE = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'localizations']);
const IGNORED = new Set(['locale', 'publishedAt']);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a `data` object against a content-type, with the checks that hold for every write (drafts too):
 * known keys, value types, maximum constraints, component and zone shapes. Publish-time checks come later.
 */
export function parseInput(
  reg: SchemaRegistry,
  attributes: Record<string, Attribute>,
  data: Record<string, unknown>,
  defer = false,
  target?: WriteTarget,
): ParsedInput {
  const entry = () => entryAsWritten(attributes, data, target);
  const out: ParsedInput = { values: {}, relations: {}, media: {}, provided: new Set(), entry };
  if ('id' in data) throw validationError('Invalid key id', { key: 'id', source: 'body' });
  if ('documentId' in data) throw validationError('Invalid key documentId', { key: 'documentId', source: 'body' });
  for (const key of Object.keys(data)) {
    if (NON_WRITABLE.has(key)) throw invalidKey(key, { path: key, source: 'body' });
    if (IGNORED.has(key)) continue;
    const attr = Object.prototype.hasOwnProperty.call(attributes, key) ? attributes[key] : undefined;
    if (!attr) throw invalidKey(key, { path: null, source: 'body' });
  }
  const problems: FieldProblem[] = [];
  for (const [key, raw] of Object.entries(data)) {
    if (IGNORED.has(key)) continue;
    const attr = attributes[key];
    out.provided.add(key);
    parseValue(reg, key, [key], attr, raw, out, problems);
  }
  // Strapi's relation pass then fails on the same entry, and reports it beside the field problems.
  if (problems.some((p) => p.message.endsWith('.__component is a required field')))
    problems.push({
      path: [],
      message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
      value: entry(),
    });
  if (problems.length) {
    if (defer && !problems.some(isPlain)) out.problems = problems;
    else throw collected(problems);
  }
  return out;
}

/** Where a write goes: what Strapi adds to the entry before it checks relations and media. */
export interface WriteTarget {
  localized: boolean;
  draftAndPublish: boolean;
  locale: string | null;
}

/**
 * The entry as Strapi's document service has it when it resolves relations and media: its locale and
 * `publishedAt`, the schema's defaults (scalar defaults, empty lists for repeatable components and zones),
 * then the data as sent, media ids written as `{ set: [{ id }] }`.
 */
export function entryAsWritten(
  attributes: Record<string, Attribute>,
  data: Record<string, unknown>,
  target?: WriteTarget,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (target?.localized && target.locale) entry.locale = target.locale;
  if (target) entry.publishedAt = target.draftAndPublish ? null : new Date().toISOString();
  for (const [name, attr] of Object.entries(attributes)) {
    if (isScalar(attr) && attr.default !== undefined) entry[name] = attr.default;
    else if ((attr.type === 'component' && attr.repeatable) || attr.type === 'dynamiczone') entry[name] = [];
  }
  for (const [name, value] of Object.entries(data)) {
    const attr = Object.prototype.hasOwnProperty.call(attributes, name) ? attributes[name] : undefined;
    if (attr?.type === 'media' && value !== null && value !== undefined) {
      const ids = (Array.isArray(value) ? value : [value]).map((v) => (isObject(v) ? v : { id: v }));
      entry[name] = { set: ids };
    } else if (!IGNORED.has(name)) entry[name] = value;
  }
  return entry;
}

const isPlain = (p: FieldProblem) => !!(p as FieldProblem & { plain?: boolean }).plain;

export function collected(problems: FieldProblem[]): FolioError {
  const plain = problems.find(isPlain);
  if (plain) return validationError(plain.message);
  return new FolioError(
    400,
    'ValidationError',
    problems.length === 1 ? problems[0].message : `${problems.length} errors occurred`,
    {
      errors: problems.map((p) => ({ path: p.path, message: p.message, name: 'ValidationError', value: p.value })),
    },
  );
}

function parseValue(
  reg: SchemaRegistry,
  key: string,
  path: string[],
  attr: Attribute,
  raw: unknown,
  out: ParsedInput,
  problems: FieldProblem[],
) {
  const name = path.join('.');
  if (isScalar(attr)) {
    if (raw === null) {
      out.values[key] = null;
      return;
    }
    const c = coerceScalar(name, attr, raw);
    if (c.ok) out.values[key] = c.value;
    else {
      const value = c.castValue ? c.castValue.value : raw;
      problems.push(Object.assign({ path, message: c.message, value }, c.plain ? { plain: true } : {}));
    }
    return;
  }
  switch (attr.type) {
    case 'relation':
      out.relations[key] = parseRelation(key, raw);
      return;
    case 'media':
      out.media[key] = parseMedia(key, attr.multiple === true, raw);
      return;
    case 'component':
      out.values[key] = parseComponentValue(reg, key, path, attr, raw, problems);
      return;
    case 'dynamiczone':
      out.values[key] = parseZone(reg, key, path, attr, raw, problems);
      return;
  }
}

function parseMedia(key: string, multiple: boolean, raw: unknown) {
  const one = (v: unknown): string | number => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    if (typeof v === 'string' && v !== '') return /^\d+$/.test(v) ? Number(v) : v;
    if (isObject(v)) {
      for (const k of Object.keys(v))
        if (k !== 'id' && k !== 'documentId') throw invalidKey(k, { path: `${key}.${k}`, source: 'body' });
      if (v.id !== undefined) return one(v.id);
      if (v.documentId !== undefined) return one(v.documentId);
    }
    throw validationError(`Invalid media reference in ${key}`, { key, source: 'body' });
  };
  if (raw === null) return multiple ? [] : null;
  if (multiple) {
    const list = Array.isArray(raw) ? raw : [raw];
    return list.map(one);
  }
  if (Array.isArray(raw)) return raw.length ? one(raw[raw.length - 1]) : null;
  return one(raw);
}

function parseRef(key: string, v: unknown): RelationRef {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return { id: v };
  if (typeof v === 'string') return /^\d+/.test(v) ? { id: parseInt(v, 10) } : { documentId: v };
  if (isObject(v)) {
    const ref: RelationRef = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'documentId' && typeof x === 'string') ref.documentId = x;
      else if (k === 'id' && (typeof x === 'number' || typeof x === 'string')) Object.assign(ref, parseRef(key, x));
      else if (k === 'locale' && (typeof x === 'string' || x === null)) {
        if (x) ref.locale = x;
      } else if (k === 'status' && (x === 'draft' || x === 'published')) ref.status = x;
      else if (k === 'position' && isObject(x)) ref.position = parsePosition(key, x);
      else throw invalidKey(k, { path: `${key}.${k}`, source: 'body' });
    }
    if (ref.documentId === undefined && ref.id === undefined)
      throw validationError(`Invalid relation entry in ${key}: a documentId is required`, { key, source: 'body' });
    return ref;
  }
  throw validationError(`Invalid relation entry in ${key}`, { key, source: 'body' });
}

function parsePosition(key: string, p: Record<string, unknown>): RelationRef['position'] {
  const pos: NonNullable<RelationRef['position']> = {};
  for (const [k, v] of Object.entries(p)) {
    if ((k === 'before' || k === 'after') && (typeof v === 'string' || typeof v === 'number')) pos[k] = v;
    else if ((k === 'start' || k === 'end') && typeof v === 'boolean') pos[k] = v;
    else if (k === 'locale' && typeof v === 'string') pos.locale = v;
    else if (k === 'locale' || k === 'status') continue;
    else throw invalidKey(k, { path: `${key}.position.${k}`, source: 'body' });
  }
  return pos;
}

function parseRelation(key: string, raw: unknown): RelationOp {
  const list = (v: unknown): RelationRef[] => {
    if (v === null || v === undefined) return [];
    return (Array.isArray(v) ? v : [v]).map((x) => parseRef(key, x));
  };
  if (raw === null) return { kind: 'set', items: [] };
  if (Array.isArray(raw) || typeof raw === 'string' || typeof raw === 'number')
    return { kind: 'set', items: list(raw) };
  if (isObject(raw)) {
    const keys = Object.keys(raw);
    if (keys.some((k) => ['connect', 'disconnect', 'set', 'options'].includes(k))) {
      for (const k of keys)
        if (!['connect', 'disconnect', 'set', 'options'].includes(k))
          throw invalidKey(k, { path: `${key}.${k}`, source: 'body' });
      if (raw.set !== undefined) return { kind: 'set', items: list(raw.set) };
      return { kind: 'patch', connect: list(raw.connect), disconnect: list(raw.disconnect) };
    }
    return { kind: 'set', items: [parseRef(key, raw)] };
  }
  throw validationError(`Invalid relation value for ${key}`, { key, source: 'body' });
}

/** Components carry no id in Folio, so a fragment with an id can never be related to the entity. */
const foreignComponent = (key: string) =>
  applicationError(`Some of the provided components in ${key} are not related to the entity`);

function parseComponentObject(
  reg: SchemaRegistry,
  key: string,
  path: string[],
  uid: string,
  raw: unknown,
  problems: FieldProblem[],
  allowComponentKey: boolean,
): Record<string, unknown> {
  const comp = reg.components.get(uid);
  if (!comp) throw validationError(`Unknown component ${uid}`);
  if (!isObject(raw)) {
    problems.push({
      path,
      message: `${path.join('.')} must be a \`object\` type, but the final value was: \`${printValue(raw)}\`.`,
      value: raw,
    });
    return {};
  }
  if ('id' in raw) throw foreignComponent(key);
  for (const k of Object.keys(raw)) {
    if (k === '__component' && allowComponentKey) continue;
    if (!Object.prototype.hasOwnProperty.call(comp.attributes, k))
      throw invalidKey(k, { path: `${path.join('.')}.${k}`, source: 'body' });
  }
  const sub: ParsedInput = { values: {}, relations: {}, media: {}, provided: new Set(), entry: () => ({}) };
  const result: Record<string, unknown> = {};
  for (const [attrName, attr] of Object.entries(comp.attributes)) {
    if (!(attrName in raw)) {
      result[attrName] = emptyValue(attr);
      continue;
    }
    parseValue(reg, attrName, [...path, attrName], attr, raw[attrName], sub, problems);
    if (attrName in sub.values) result[attrName] = sub.values[attrName];
    else if (attrName in sub.media) result[attrName] = sub.media[attrName];
    else if (attrName in sub.relations) {
      // Relations inside components are stored as plain target lists (no inverse side).
      const op = sub.relations[attrName];
      result[attrName] = { $relation: op };
    }
  }
  return result;
}

/**
 * Whether a repeatable component's or a dynamic zone's value is a list; the problem when it is not (then it is
 * left out) or when it holds more than `max` items (then it is still read, so its items are checked too).
 */
function isList(path: string[], raw: unknown, max: number | undefined, problems: FieldProblem[]): raw is unknown[] {
  if (!Array.isArray(raw)) {
    problems.push({
      path,
      message: `${path.join('.')} must be a \`array\` type, but the final value was: \`${printValue(raw)}\`.`,
      value: raw,
    });
    return false;
  }
  if (max !== undefined && raw.length > max)
    problems.push({
      path,
      message: `${path.join('.')} field must have less than or equal to ${max} items`,
      value: raw,
    });
  return true;
}

function parseComponentValue(
  reg: SchemaRegistry,
  key: string,
  path: string[],
  attr: ComponentAttribute,
  raw: unknown,
  problems: FieldProblem[],
) {
  if (attr.repeatable) {
    if (raw === null || !isList(path, raw, attr.max, problems)) return [];
    return raw.map((item, i) =>
      parseComponentObject(reg, key, [...path, String(i)], attr.component, item, problems, false),
    );
  }
  if (raw === null) return null;
  return parseComponentObject(reg, key, path, attr.component, raw, problems, false);
}

function parseZone(
  reg: SchemaRegistry,
  key: string,
  path: string[],
  attr: DynamicZoneAttribute,
  raw: unknown,
  problems: FieldProblem[],
) {
  if (raw === null || !isList(path, raw, attr.max, problems)) return [];
  const items: Record<string, unknown>[] = [];
  raw.forEach((item, i) => {
    const p = [...path, String(i)];
    if (isObject(item) && 'id' in item)
      throw new FolioError(
        400,
        'Error',
        `Some of the provided components in ${key} are not related to the entity`,
        null,
      );
    const uid = isObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string') {
      problems.push({ path: [...p, '__component'], message: `${key}[${i}].__component is a required field` });
      return;
    }
    if (!attr.components.includes(uid)) {
      problems.push({
        path: [...p, '__component'],
        message: `${key}[${i}].__component must be one of the following values: ${attr.components.join(', ')}`,
        value: uid,
      });
      return;
    }
    const value = parseComponentObject(reg, key, p, uid, item, problems, true);
    items.push({ __component: uid, ...value });
  });
  return items;
}

/** The stored value of an attribute that was never written. */
export function emptyValue(attr: Attribute): unknown {
  switch (attr.type) {
    case 'relation':
      return isToMany(attr) ? [] : null;
    case 'media':
      return attr.multiple ? [] : null;
    case 'component':
      return attr.repeatable ? [] : null;
    case 'dynamiczone':
      return [];
    default:
      return null;
  }
}
