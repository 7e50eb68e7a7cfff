import { type Attribute, type SchemaProblem, SCALAR_TYPES, RELATION_KINDS } from './types.js';
import { superLinearPattern } from './regex-check.js';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ATTRIBUTE_NAME = /^[A-Za-z][_0-9A-Za-z]*$/;
const RESERVED_ATTRIBUTES = new Set([
  'id',
  'document_id',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  'created_by',
  'updated_by',
  'entry_id',
  'localizations',
  'meta',
  'locale',
  '__component',
  '__contenttype',
]);
const RESERVED_MODELS = new Set(['boolean', 'date', 'date_time', 'time', 'upload', 'document', 'then']);
const MEDIA_TYPES = new Set(['images', 'videos', 'files', 'audios']);

export const snakeCase = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();

const startsReserved = (s: string) => /^(strapi|_strapi|__strapi)/.test(s);

export function checkModelName(name: string): string | undefined {
  if (!KEBAB.test(name)) return `"${name}" must be kebab-case (a-z, 0-9 and single hyphens)`;
  const snake = snakeCase(name);
  if (RESERVED_MODELS.has(snake) || startsReserved(snake)) return `"${name}" is a reserved name`;
  return undefined;
}

export function checkAttributeName(name: string, draftAndPublish: boolean): string | undefined {
  if (!ATTRIBUTE_NAME.test(name)) return 'the name must start with a letter and hold only letters, digits and _';
  const snake = snakeCase(name);
  if (RESERVED_ATTRIBUTES.has(snake) || startsReserved(snake)) return `"${name}" is a reserved attribute name`;
  if (draftAndPublish && name === 'status') return '"status" is reserved on draft & publish types';
  return undefined;
}

type Lookup = { contentTypes: Set<string>; components: Set<string> };

/**
 * Checks one attribute definition. References to other schemas are checked against `known`;
 * the caller passes `allowDynamicZone: false` for components (Strapi forbids zones inside components).
 */
export function checkAttribute(
  file: string,
  name: string,
  raw: unknown,
  known: Lookup,
  opts: { draftAndPublish: boolean; allowDynamicZone: boolean; attributes: Record<string, unknown> },
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const bad = (message: string) => problems.push({ file, attribute: name, message });
  const nameProblem = checkAttributeName(name, opts.draftAndPublish);
  if (nameProblem) bad(nameProblem);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    bad('the attribute must be an object');
    return problems;
  }
  const a = raw as Attribute & Record<string, unknown>;
  const type = a.type as string;
  for (const flag of ['required', 'private', 'unique'] as const) {
    if (a[flag] !== undefined && typeof a[flag] !== 'boolean') bad(`"${flag}" must be a boolean`);
  }
  const num = (k: string) => a[k] !== undefined && (typeof a[k] !== 'number' || !Number.isFinite(a[k] as number));
  if ((SCALAR_TYPES as readonly string[]).includes(type)) {
    for (const k of ['minLength', 'maxLength'])
      if (num(k) || (a[k] as number) < 0) bad(`"${k}" must be a non-negative number`);
    if (type !== 'biginteger') for (const k of ['min', 'max']) if (num(k)) bad(`"${k}" must be a number`);
    if (a.regex !== undefined) {
      let valid = true;
      try {
        new RegExp(String(a.regex));
      } catch {
        valid = false;
        bad(`"regex" is not a valid regular expression`);
      }
      const slow = valid ? superLinearPattern(String(a.regex)) : undefined;
      if (slow) bad(slow);
    }
    if (type === 'enumeration') {
      const e = a.enum;
      if (!Array.isArray(e) || e.length === 0 || !e.every((v) => typeof v === 'string'))
        bad('"enum" must be a non-empty array of strings');
      else if (new Set(e).size !== e.length) bad('"enum" values must be unique');
      else if (a.default != null && !e.includes(a.default as string)) bad(`"default" must be one of the enum values`);
    }
    if (type === 'uid' && a.targetField !== undefined) {
      const target = opts.attributes[a.targetField as string] as { type?: string } | undefined;
      if (!target || !['string', 'text'].includes(target.type ?? ''))
        bad(`"targetField" must name a string or text attribute`);
    }
    return problems;
  }
  switch (type) {
    case 'relation': {
      if (!(RELATION_KINDS as readonly string[]).includes(a.relation as string))
        bad(`"relation" must be one of ${RELATION_KINDS.join(', ')}`);
      if (String(a.relation).startsWith('morph')) break;
      if (typeof a.target !== 'string' || !known.contentTypes.has(a.target))
        bad(`"target" ${JSON.stringify(a.target)} is not a known content-type`);
      if (a.inversedBy !== undefined && a.mappedBy !== undefined)
        bad('a relation cannot have both "inversedBy" and "mappedBy"');
      break;
    }
    case 'media': {
      if (a.multiple !== undefined && typeof a.multiple !== 'boolean') bad('"multiple" must be a boolean');
      const at = a.allowedTypes;
      if (
        at !== undefined &&
        (!Array.isArray(at) || at.length === 0 || !at.every((t) => MEDIA_TYPES.has(t as string)))
      ) {
        bad('"allowedTypes" must be a non-empty subset of images, videos, files, audios');
      }
      break;
    }
    case 'component': {
      if (typeof a.component !== 'string' || !known.components.has(a.component))
        bad(`"component" ${JSON.stringify(a.component)} is not a known component`);
      if (a.repeatable !== undefined && typeof a.repeatable !== 'boolean') bad('"repeatable" must be a boolean');
      for (const k of ['min', 'max']) if (num(k)) bad(`"${k}" must be a number`);
      break;
    }
    case 'dynamiczone': {
      if (!opts.allowDynamicZone) {
        bad('dynamic zones are not allowed inside components');
        break;
      }
      const c = a.components;
      if (!Array.isArray(c) || c.length === 0) bad('"components" must be a non-empty array of component uids');
      else
        for (const uid of c)
          if (typeof uid !== 'string' || !known.components.has(uid))
            bad(`component ${JSON.stringify(uid)} is not a known component`);
      break;
    }
    case undefined:
      bad('"type" is missing');
      break;
    default:
      bad(`unknown attribute type "${type}"`);
  }
  return problems;
}
