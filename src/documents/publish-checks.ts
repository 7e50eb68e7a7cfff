import { type FieldProblem, type FolioError, fieldErrors } from '../errors.js';
import type { SchemaRegistry } from '../schema/registry.js';
import { type Attribute, type ContentType, isScalar } from '../schema/types.js';
import { collected, type ParsedInput } from './input.js';
import type { Version } from './model.js';
import type { Key } from './unique-places.js';
import { type UniqueValues, isSharedValue, isUniqueAttribute } from './unique-values.js';
import { publishChecks, typeMessage, yupTypeOf } from './values.js';

/**
 * What keeps a stored version from being publishable (required fields, minimums, formats), for
 * `folio validate`. Unique values are left to the caller, which can check them all at once.
 */
export function publishProblems(schemas: SchemaRegistry, ct: ContentType, v: Version): FieldProblem[] {
  try {
    checkPublishable(schemas, undefined, ct, v, undefined, false);
    return [];
  } catch (err) {
    const details = (err as FolioError).details as { errors?: FieldProblem[] } | null;
    return details?.errors ?? [{ path: [], message: (err as Error).message }];
  }
}

/**
 * Required fields, minimums, formats and unique values (unless `unique` is undefined): checked when content
 * becomes published. Throws the problems found, together with those `input` met at parse time, as Strapi lists them.
 */
export function checkPublishable(
  schemas: SchemaRegistry,
  unique: UniqueValues | undefined,
  ct: ContentType,
  v: Version,
  input: ParsedInput | undefined,
  isNew: boolean,
) {
  const problems: FieldProblem[] = [];
  const directWrite = !ct.draftAndPublish;
  const taken = unique && takenValue(unique, ct, v);
  /** `place`: the unique-places.ts name of the fields here, up to the field's name (null: none is checked). */
  const check = (
    attrs: Record<string, Attribute>,
    data: Record<string, unknown>,
    path: string[],
    topLevel: boolean,
    place: string | null,
  ) => {
    for (const [name, attr] of Object.entries(attrs)) {
      const value = data[name];
      const p = [...path, name];
      const label = p.join('.');
      if (isScalar(attr)) {
        if (value === null || value === undefined) {
          if (attr.required) {
            if (topLevel && directWrite && isNew && input && !input.provided.has(name))
              problems.push({ path: p, message: `${label} must be defined.` });
            else problems.push({ path: p, message: typeMessage(label, yupTypeOf(attr.type), null), value: null });
          }
          continue;
        }
        const m = publishChecks(label, attr, value);
        if (m) problems.push({ path: p, message: m, value });
        if (taken && place !== null && isUniqueAttribute(attr) && !isSharedValue(value) && taken(place + name, value))
          problems.push({ path: p, message: 'This attribute must be unique', value });
      } else if (attr.type === 'component') {
        const comp = schemas.components.get(attr.component);
        if (!comp) continue;
        const inner = place === null ? null : `${place}${name}.`;
        if (attr.repeatable) {
          const list = Array.isArray(value) ? value : [];
          if (attr.min !== undefined && (attr.required || list.length > 0) && list.length < attr.min) {
            problems.push({ path: p, message: `${label} field must have at least ${attr.min} items`, value });
          }
          list.forEach((item, i) =>
            check(comp.attributes, item as Record<string, unknown>, [...p, String(i)], false, inner),
          );
        } else if (value) check(comp.attributes, value as Record<string, unknown>, p, false, inner);
        else if (attr.required) problems.push({ path: p, message: typeMessage(label, 'object', null), value: null });
      } else if (attr.type === 'dynamiczone') {
        const list = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
        if (attr.min !== undefined && (attr.required || list.length > 0) && list.length < attr.min) {
          problems.push({ path: p, message: `${label} field must have at least ${attr.min} items`, value });
        }
        list.forEach((item, i) => {
          const comp = schemas.components.get(item.__component as string);
          // Strapi compares the fields of a zone's own components (those nested in them are never found).
          const inner = topLevel && place !== null ? `${name}[${item.__component as string}].` : null;
          if (comp) check(comp.attributes, item, [...p, String(i)], false, inner);
        });
      }
    }
  };
  check(ct.attributes, v.data, [], true, '');
  const early = input?.problems;
  if (early?.length) {
    // A field refused at parse time was not stored, so its publish-time finding would be about the old value.
    const refused = new Set(early.map((p) => p.path.join('.')));
    const order = Object.keys(ct.attributes);
    const merged = [...early, ...problems.filter((p) => !refused.has(p.path.join('.')))];
    // Entry-wide problems (an empty path) come after the fields', as Strapi lists them.
    const rank = (p: FieldProblem) => (p.path.length ? order.indexOf(p.path[0]) : order.length);
    merged.sort((a, b) => rank(a) - rank(b));
    throw collected(merged);
  }
  if (problems.length) throw fieldErrors(problems);
}

/**
 * Whether a value of `v` at a place of a unique field is taken: by another document's published version of the
 * locale, or, where one document may hold it once (see unique-places.ts), by `v` itself elsewhere.
 */
function takenValue(unique: UniqueValues, ct: ContentType, v: Version) {
  const own = new Map<string, Key[]>();
  const places = unique.places(ct);
  return (name: string, value: unknown): boolean => {
    const place = places.find((p) => p.name === name);
    if (!place) return false;
    if (place.once) {
      let values = own.get(name);
      if (!values) place.read(v.data, (values = []));
      own.set(name, values);
      if (values.filter((k) => k === value).length > 1) return true;
    }
    return unique.holder(ct, name, v.locale, value, v.documentId) !== undefined;
  };
}
