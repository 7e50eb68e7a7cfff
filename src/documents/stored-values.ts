import type { FolioConfig } from '../config.js';
import { FolioError } from '../errors.js';
import { parseInput } from './input.js';
import { LINK_LOCALE, linksNameLocale } from './file-format.js';
import type { SchemaRegistry } from '../schema/registry.js';
import { type Attribute, type ContentType, isOwningSide, isRelation, isScalar, isToMany } from '../schema/types.js';
import { scalarProblem } from './values.js';

/** One value of a document file that an API write would refuse, at `path` in the file (`locales.en.draft.views`). */
export interface ValueProblem {
  path: string;
  message: string;
}

const codes = new WeakMap<FolioConfig, Set<string>>();

/** `storedValueProblems` as one message (undefined: none), with the locales of `config`. */
export function valuesProblem(
  schemas: SchemaRegistry,
  config: FolioConfig,
  ct: ContentType,
  body: Record<string, unknown>,
): string | undefined {
  let locales = codes.get(config);
  if (!locales) codes.set(config, (locales = new Set(config.locales.map((l) => l.code))));
  const problems = storedValueProblems(schemas, locales, ct, body);
  return problems.length ? problems.map((p) => `${p.path}: ${p.message}`).join('; ') : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt']);
const STATUSES = ['draft', 'published'] as const;

/**
 * Checks a document file's body (one that decodes) by the rules an API write of a draft applies: locales
 * configured, ids positive integers, every value of the type and within the limits its attribute sets,
 * relations and media written as documentIds. Publish-time rules (required, minimums, formats), unique
 * values and whether what relations point at exists are `folio validate`'s (they depend on other files).
 */
export function storedValueProblems(
  schemas: SchemaRegistry,
  locales: ReadonlySet<string>,
  ct: ContentType,
  body: Record<string, unknown>,
): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const named = (attr: Attribute, link: string) => linkLocaleProblem(schemas, locales, ct, attr, link);
  // Loops over the keys, not entries: every document file is checked as it is decoded.
  if (!ct.localized) {
    slotProblems(schemas, ct, body, '', problems, named);
    return problems;
  }
  const byCode = isObject(body.locales) ? body.locales : {};
  for (const code in byCode)
    if (Object.hasOwn(byCode, code) && !locales.has(code))
      problems.push({ path: `locales.${code}`, message: `locale "${code}" is not configured in folio.json` });
  for (const code in byCode)
    if (Object.hasOwn(byCode, code)) slotProblems(schemas, ct, byCode[code], `locales.${code}.`, problems, named);
  return problems;
}

function slotProblems(
  schemas: SchemaRegistry,
  ct: ContentType,
  slot: unknown,
  prefix: string,
  problems: ValueProblem[],
  named: (attr: Attribute, link: string) => string | undefined,
) {
  if (!isObject(slot)) return;
  for (const status of STATUSES) {
    const version = slot[status];
    if (isObject(version)) versionProblems(schemas, ct.attributes, version, `${prefix}${status}`, problems, named);
  }
}

/** Whether `value` is a list of strings. */
function allStrings(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

function versionProblems(
  schemas: SchemaRegistry,
  attributes: Record<string, Attribute>,
  version: Record<string, unknown>,
  where: string,
  problems: ValueProblem[],
  linkProblem: (attr: Attribute, link: string) => string | undefined,
) {
  const id = version.id;
  if (id !== undefined && id !== null && !(typeof id === 'number' && Number.isSafeInteger(id) && id > 0))
    problems.push({ path: `${where}.id`, message: `id must be a positive integer, not ${JSON.stringify(id)}` });
  // Every document file is checked as it is decoded: no pair array per value and no object for a version
  // without components (an entry array per value was a fifth of what preparing a large type allocated).
  let plain: Record<string, unknown> | undefined;
  for (const name in version) {
    if (!Object.hasOwn(version, name)) continue;
    const value = version[name];
    const attr = attributes[name];
    if (!attr || value === null || value === undefined || TIMESTAMPS.has(name)) continue;
    if (attr.type === 'relation') {
      if (!isOwningSide(attr)) continue;
      const many = isToMany(attr);
      const ok = many ? allStrings(value) : typeof value === 'string';
      if (!ok)
        problems.push({
          path: `${where}.${name}`,
          message: many ? `${name} must be a list of documentIds` : `${name} must be a documentId`,
        });
      else if (many)
        for (const link of value as string[]) {
          const message = linkProblem(attr, link);
          if (message) problems.push({ path: `${where}.${name}`, message });
        }
      else {
        const message = linkProblem(attr, value as string);
        if (message) problems.push({ path: `${where}.${name}`, message });
      }
    } else if (attr.type === 'media') {
      const many = attr.multiple === true;
      const ok = many ? allStrings(value) : typeof value === 'string';
      if (!ok)
        problems.push({
          path: `${where}.${name}`,
          message: many ? `${name} must be a list of media file ids` : `${name} must be a media file id`,
        });
    } else if (isScalar(attr)) {
      // What the body parser does with a scalar, without its objects (every file is checked at start).
      const message = scalarProblem(name, attr, value);
      if (message) problems.push({ path: `${where}.${name}`, message });
    } else if (!(Array.isArray(value) && value.length === 0 && (attr.type === 'dynamiczone' || attr.repeatable))) {
      (plain ??= {})[name] = withoutLinks(schemas, attr, value);
      componentLinkProblems(schemas, attr, value, `${where}.${name}`, problems, linkProblem);
    }
  }
  if (!plain) return;
  // All at once first (the common case: no problem); then one attribute at a time, so each problem has its path.
  if (!parseFails(schemas, attributes, plain)) return;
  for (const [name, value] of Object.entries(plain)) {
    const err = parseFails(schemas, attributes, { [name]: value });
    if (!err) continue;
    const list = (err.details as { errors?: Array<{ path: string[]; message: string }> } | null)?.errors;
    if (list) for (const x of list) problems.push({ path: `${where}.${x.path.join('.')}`, message: x.message });
    else problems.push({ path: `${where}.${name}`, message: err.message });
  }
}

/**
 * Checks the links held by relations inside a component or zone value by the rule of the type that owns the
 * document (`linkProblem`): a link names a locale only where that type has no locales and the target has.
 */
function componentLinkProblems(
  schemas: SchemaRegistry,
  attr: Attribute,
  value: unknown,
  where: string,
  problems: ValueProblem[],
  linkProblem: (attr: Attribute, link: string) => string | undefined,
) {
  if (attr.type !== 'component' && attr.type !== 'dynamiczone') return;
  const items = Array.isArray(value) ? value.map((v, i) => [`${where}.${i}`, v] as const) : [[where, value] as const];
  for (const [path, item] of items) {
    if (!isObject(item)) continue;
    const comp = schemas.components.get(attr.type === 'component' ? attr.component : String(item.__component));
    if (!comp) continue;
    for (const [k, x] of Object.entries(item)) {
      const sub = comp.attributes[k];
      if (!sub || x === null || x === undefined) continue;
      if (isRelation(sub)) {
        for (const link of Array.isArray(x) ? x : [x]) {
          const message = typeof link === 'string' ? linkProblem(sub, link) : undefined;
          if (message) problems.push({ path: `${path}.${k}`, message });
        }
      } else componentLinkProblems(schemas, sub, x, `${path}.${k}`, problems, linkProblem);
    }
  }
}

/** What is wrong with the locale a stored link names (see file-format.ts), if it names one. */
function linkLocaleProblem(
  schemas: SchemaRegistry,
  locales: ReadonlySet<string>,
  ct: ContentType,
  attr: Attribute,
  link: string,
): string | undefined {
  // Most links name no locale: nothing is made for them (every link of every file is checked as it is decoded).
  const at = link.indexOf(LINK_LOCALE);
  if (at < 0 || attr.type !== 'relation') return undefined;
  const locale = link.slice(at + 1);
  const target = schemas.contentTypes.get(attr.target);
  if (!target || !linksNameLocale(ct, target))
    return `${JSON.stringify(link)} names a locale: only links from a type without locales to a localized one do`;
  if (!locales.has(locale))
    return `${JSON.stringify(link)} names locale "${locale}", which is not configured in folio.json`;
  return undefined;
}

function parseFails(
  schemas: SchemaRegistry,
  attributes: Record<string, Attribute>,
  data: Record<string, unknown>,
): FolioError | undefined {
  try {
    parseInput(schemas, attributes, data);
    return undefined;
  } catch (err) {
    if (err instanceof FolioError) return err;
    return new FolioError(400, 'ValidationError', (err as Error).message);
  }
}

/** Relations and media inside components are stored as plain documentId lists: the body parser sees the rest. */
function withoutLinks(schemas: SchemaRegistry, attr: Attribute, v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => withoutLinks(schemas, attr, x));
  if (attr.type !== 'component' && attr.type !== 'dynamiczone') return v;
  const obj = v as Record<string, unknown>;
  const comp = schemas.components.get(attr.type === 'component' ? attr.component : String(obj.__component));
  if (!comp) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(obj)) {
    const sub = comp.attributes[k];
    if (sub && (isRelation(sub) || sub.type === 'media')) continue;
    out[k] = sub ? withoutLinks(schemas, sub, x) : x;
  }
  return out;
}
