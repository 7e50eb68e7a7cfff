import type { SchemaRegistry } from '../schema/registry.js';
import { type Attribute, type ContentType, isScalar } from '../schema/types.js';

/** Whether a field's values must be unique per type and locale: `unique: true`, and every `uid` (as Strapi 5). */
export const isUniqueAttribute = (attr: Attribute): boolean =>
  isScalar(attr) && (attr.unique === true || attr.type === 'uid');

/** Values a unique field may share: none, and the empty string (as Strapi skips them). */
export const isSharedValue = (value: unknown): boolean => value === null || value === undefined || value === '';

/** A value as `===` compares it: only scalars can be equal. */
export type Key = string | number | boolean;
export const keyOf = (value: unknown): Key | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;

/**
 * Where a type's versions hold values of a unique field: a field of its own (`slug`), of a component, at any
 * depth and in any item of a repeatable one (`seo.metaTitle`, `links.url`), or of a component a dynamic zone
 * holds (`blocks[shared.quote].title`), as Strapi's entity validator compares them.
 */
export interface UniquePlace {
  name: string;
  /**
   * Whether one version may not hold a value twice there: in the items of a repeatable component of the type's
   * own, or among a zone's components (Strapi checks these within the document too).
   */
  once: boolean;
  /** Adds the values `data` holds there to `out`, shared values left out. */
  read(data: Record<string, unknown>, out: Key[]): void;
}

/** Components nest at most this deep (a component that holds itself would otherwise never end). */
const DEPTH = 16;

const places = new WeakMap<ContentType, UniquePlace[]>();

/** The places of `ct`'s unique fields, its own first (made once per schema). */
export function uniquePlaces(schemas: SchemaRegistry, ct: ContentType): UniquePlace[] {
  let found = places.get(ct);
  if (!found) places.set(ct, (found = findPlaces(schemas, ct)));
  return found;
}

function findPlaces(schemas: SchemaRegistry, ct: ContentType): UniquePlace[] {
  const own: UniquePlace[] = [];
  const nested: UniquePlace[] = [];
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (isUniqueAttribute(attr)) own.push({ name, once: false, read: (data, out) => take(data[name], out) });
    else if (attr.type === 'component')
      inComponent(schemas, attr.component, [name], attr.repeatable === true, nested, 1);
    else if (attr.type === 'dynamiczone') {
      for (const uid of attr.components) {
        const comp = schemas.components.get(uid);
        for (const [field, a] of Object.entries(comp?.attributes ?? {})) {
          if (!isUniqueAttribute(a)) continue;
          nested.push({
            name: `${name}[${uid}].${field}`,
            once: true,
            read(data, out) {
              const zone = data[name];
              if (!Array.isArray(zone)) return;
              for (const item of zone as Array<Record<string, unknown> | null>)
                if (item?.__component === uid) take(item[field], out);
            },
          });
        }
      }
    }
  }
  return [...own, ...nested];
}

function inComponent(
  schemas: SchemaRegistry,
  uid: string,
  path: string[],
  once: boolean,
  out: UniquePlace[],
  depth: number,
) {
  const comp = schemas.components.get(uid);
  if (!comp || depth > DEPTH) return;
  for (const [field, attr] of Object.entries(comp.attributes)) {
    if (isUniqueAttribute(attr))
      out.push({ name: [...path, field].join('.'), once, read: (data, keys) => walk(data, path, 0, field, keys) });
    else if (attr.type === 'component') inComponent(schemas, attr.component, [...path, field], once, out, depth + 1);
  }
}

/** The values of `field` under `path` in `value`, through every item of the lists met on the way. */
function walk(value: unknown, path: string[], at: number, field: string, out: Key[]) {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, path, at, field, out);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const data = value as Record<string, unknown>;
  if (at === path.length) take(data[field], out);
  else walk(data[path[at]], path, at + 1, field, out);
}

function take(value: unknown, out: Key[]) {
  const key = keyOf(value);
  if (key !== undefined && !isSharedValue(key)) out.push(key);
}
