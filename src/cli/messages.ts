import type { Project } from '../project.js';
import type { ContentType } from '../schema/types.js';
import { freeUid } from '../documents/uid-values.js';
import { CliError } from './output.js';

/**
 * The CLI's wording of a field problem. The API keeps Strapi's exact messages (clients match on them); a
 * person at a terminal gets what to do instead: "title is required" rather than yup's
 * ``title must be a `string` type, but the final value was: `null`.``, and enum lists without the
 * trailing ", " Strapi leaves in them.
 */
export function forPeople(message: string): string {
  let m = /^(.+) must be a `\w+` type, but the final value was: `null`\.$/.exec(message);
  if (m) return `${m[1]} is required`;
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
): CliError | undefined {
  const unique = explainUnique(err, project, ct, locale);
  if (unique) return unique;
  const message = (err as Error)?.message ?? '';
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
    const holder = unique.holder(ct, field, at, e.value);
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
