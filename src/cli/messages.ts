import type { Project } from '../project.js';
import type { Attribute, Component, ContentType } from '../schema/types.js';
import { freeUid } from '../documents/uid-values.js';
import { CliError } from './output.js';
import { didYouMean } from './suggest.js';

/** What yup's type names mean to someone writing JSON. */
const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date',
  object: 'an object',
  array: 'a list',
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A value as JSON shows it, with what kind of value it is: `the number 5`, `the string "many"`. */
function described(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const shown = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  if (Array.isArray(value)) return `a list (${shown})`;
  if (value !== null && typeof value === 'object') return `an object (${shown})`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return `the ${typeof value} ${shown}`;
  return shown;
}

/**
 * The CLI's wording of a field problem. The API keeps Strapi's exact messages (clients match on them); a
 * person at a terminal gets what to do instead: "title is required" rather than yup's
 * ``title must be a `string` type, but the final value was: `null`.``, "title must be a string, not the
 * number 5" (from the value sent, `given`) and enum lists without the trailing ", " Strapi leaves in them.
 */
export function forPeople(message: string, given?: { value: unknown }): string {
  let m = /^(.+) must be a `\w+` type, but the final value was: `null`\.$/.exec(message);
  if (m) return `${m[1]} is required`;
  m = /^(\S+) must be a `(\w+)` type, but the final value was: /.exec(message);
  if (m && m[2] in EXPECTED && given) {
    // A value that could not be cast is given as null; the message keeps the one sent.
    const cast = /\(cast from the value `(.{0,200})`\)\.$/.exec(message);
    let value = given.value;
    if (cast && value === null) value = parsed(cast[1]);
    return `${m[1]} must be ${EXPECTED[m[2]]}, not ${described(value)}`;
  }
  m = /^(.+) must be defined\.$/.exec(message);
  if (m) return `${m[1]} is required`;
  m = /^(.+) must be one of the following values: (.*)$/.exec(message);
  if (m) {
    const values = m[2]
      .split(', ')
      .map((v) => v.trim())
      .filter(Boolean);
    return `${m[1]} must be one of: ${values.join(', ')}`;
  }
  return message;
}

/** Every documentId or id a relation or media value of a write body names (any of the REST syntaxes). */
function refsOf(value: unknown): Array<string | number> {
  return entriesOf(value).map((e) => e.ref);
}

/** `refsOf`, each with the `locale` its entry names, if any. */
function entriesOf(value: unknown): Array<{ ref: string | number; locale?: string }> {
  if (typeof value === 'string' || typeof value === 'number') return [{ ref: value }];
  if (Array.isArray(value)) return value.flatMap(entriesOf);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('documentId' in o || 'id' in o) {
      const locale = typeof o.locale === 'string' ? o.locale : undefined;
      return entriesOf(o.documentId ?? o.id).map((e) => ({ ...e, locale }));
    }
    return ['connect', 'set'].flatMap((k) => entriesOf(o[k]));
  }
  return [];
}

/**
 * Says which field of `data` a write failed on when the service could not: a relation to a document that
 * does not exist (or lacks the locale), a media file that is not in the library. Undefined for other
 * errors, which are reported as they are.
 */
export function explainWriteError(
  err: unknown,
  project: Project,
  ct: ContentType,
  data: Record<string, unknown>,
  locale: string | undefined,
  json = false,
): CliError | undefined {
  const unique = explainUnique(err, project, ct, locale);
  if (unique) return unique;
  const message = (err as Error)?.message ?? '';
  // With --json the API's own message stands (scripts match on it).
  const unknownKey = json ? undefined : explainUnknownKey(err, project, ct);
  if (unknownKey) return unknownKey;
  const isRelation = /^Document with id "[^"]*", locale "[^"]*" not found$/.test(message);
  const isMissing = /^1 relation\(s\) of type (\S+) associated with this entity do not exist$/.exec(message);
  if (!isRelation && !isMissing) return undefined;
  const problems: string[] = [];
  for (const [field, attr] of Object.entries(ct.attributes)) {
    if (!(field in data)) continue;
    if (attr.type === 'media') {
      for (const ref of refsOf(data[field]))
        if (!project.documents.media.resolve(ref))
          problems.push(
            `${field}: no media file with id or documentId ${JSON.stringify(ref)} (see "folio media list")`,
          );
    } else if (attr.type === 'relation') {
      const target = project.schemas.contentTypes.get(attr.target);
      if (!target) continue;
      for (const { ref, locale: named } of entriesOf(data[field])) {
        // A type without locales links the version of the locale its entry names (see file-format.ts).
        const linked = ct.localized ? locale : (named ?? locale);
        const want = target.localized ? (linked ?? project.config.defaultLocale) : undefined;
        const doc =
          typeof ref === 'string'
            ? project.documents.index.get(target.uid, ref)
            : project.documents.index.get(target.uid, project.documents.index.byId(target.uid, ref)?.documentId ?? '');
        const list = `(see "folio docs list ${target.pluralName}")`;
        if (!doc) problems.push(`${field}: no ${target.singularName} with id ${JSON.stringify(ref)} ${list}`);
        else if (want && !doc.slots.has(want))
          problems.push(
            `${field}: ${target.singularName} ${JSON.stringify(ref)} has no ${want} version ` +
              `(it has ${[...doc.slots.keys()].join(', ')}); create that version first or link another`,
          );
      }
    }
  }
  if (!problems.length) return undefined;
  return new CliError(problems.join('\n'), {
    name: 'ValidationError',
    details: { errors: problems.map((p) => ({ path: [p.slice(0, p.indexOf(':'))], message: p })) },
  });
}

const UNIQUE = 'This attribute must be unique';

/** A place's name without the component of a zone it names (`blocks[shared.quote].title`: `blocks.title`). */
function withoutComponent(name: string): string {
  const open = name.indexOf('[');
  return open < 0 ? name : name.slice(0, open) + name.slice(name.indexOf(']', open) + 1);
}

/** A unique value another document holds: which one, and for a uid a free value to use instead. */
function explainUnique(err: unknown, project: Project, ct: ContentType, locale: string | undefined) {
  type Problem = { path: string[]; message: string; value?: unknown };
  const errors = ((err as { details?: { errors?: Problem[] } | null })?.details?.errors ?? []) as Problem[];
  if (!errors.some((e) => e.message === UNIQUE)) return undefined;
  const at = project.documents.localeFor(ct, locale);
  const unique = project.documents.unique;
  const lines = errors.map((e) => {
    const field = e.path.join('.') || '(document)';
    if (e.message !== UNIQUE) return `${field}: ${forPeople(e.message)}`;
    // A field in a component is found at its place, whatever item holds it (see documents/unique-places.ts).
    const place = e.path.filter((part) => !/^\d+$/.test(part)).join('.');
    const holder = unique
      .places(ct)
      .filter((p) => withoutComponent(p.name) === place)
      .map((p) => unique.holder(ct, p.name, at, e.value))
      .find((id) => id !== undefined);
    const by = holder ? ` by ${ct.singularName} ${holder}${at ? ` (${at})` : ''}` : '';
    const free =
      ct.attributes[field]?.type === 'uid' && typeof e.value === 'string'
        ? `; "${freeUid(unique, { ct, field, locale: at }, e.value)}" is free`
        : '';
    return `${field}: ${JSON.stringify(e.value)} is already used${by}${free}`;
  });
  return new CliError(lines.join('\n'), {
    name: 'ValidationError',
    details: { errors: lines.map((line, i) => ({ path: errors[i].path, message: line })) },
  });
}

/**
 * A key of the data that is no field (`Invalid key titel`): which type or component lacks it, the closest
 * field it has, and its fields.
 */
function explainUnknownKey(err: unknown, project: Project, ct: ContentType): CliError | undefined {
  const details = (err as { details?: { key?: unknown; path?: unknown; source?: unknown } })?.details;
  if (!/^Invalid key /.test((err as Error)?.message ?? '') || details?.source !== 'body') return undefined;
  if (typeof details.key !== 'string') return undefined;
  // Down the path through components to the one that holds the key (list items are numbered in the path).
  const path = typeof details.path === 'string' ? details.path.split('.').slice(0, -1) : [];
  let owner = ct.singularName;
  let attributes: Record<string, Attribute> | undefined = ct.attributes;
  for (const step of path) {
    if (/^\d+$/.test(step)) continue;
    const attr: Attribute | undefined = attributes?.[step];
    const comp: Component | undefined =
      attr?.type === 'component' ? project.schemas.components.get(attr.component) : undefined;
    attributes = comp?.attributes;
    owner = `${path.slice(0, path.indexOf(step) + 1).join('.')} (${comp?.uid})`;
  }
  if (!attributes) return undefined;
  const fields = Object.keys(attributes);
  const message =
    `${owner} has no field "${details.key}".${didYouMean(details.key, fields)} ` + `Its fields: ${fields.join(', ')}.`;
  return new CliError(message, { name: 'ValidationError', details: details as Record<string, unknown> });
}
