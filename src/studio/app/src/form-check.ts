import { FieldSyntaxError, fromForm, type FormValue } from './fields';
import type { Attribute, ComponentType, Model } from './model';

/**
 * The checks the API makes, made in the browser before sending, so each problem shows at its field at once.
 * As in the API, maximums and kinds hold on every save; required fields, minimums and formats only when the
 * content is published (a draft may be unfinished).
 */

/** Strapi's e-mail check, as the API makes it (documents/values.ts). */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const UID_FORMAT = /^[A-Za-z0-9-_.~]*$/;
const TEXTS = new Set(['string', 'text', 'richtext', 'email', 'uid', 'password']);
const NUMBERS = new Set(['integer', 'float', 'decimal']);
/** The longest text the API takes where the schema sets no maximum. */
const DEFAULT_MAX: Record<string, number> = { string: 255, uid: 256 };

/** What is wrong with one stored-form value (parsed), or undefined. `publish`: the publish-time checks too. */
export function checkValue(attr: Attribute, value: unknown, publish: boolean): string | undefined {
  const empty = value === null || value === undefined || value === '';
  if (empty) return publish && attr.required && attr.type !== 'boolean' ? 'Required to publish.' : undefined;
  if (TEXTS.has(attr.type) && typeof value === 'string') {
    const max = attr.maxLength ?? DEFAULT_MAX[attr.type];
    if (max !== undefined && value.length > max) return `At most ${max} characters (now ${value.length}).`;
    if (!publish || attr.type === 'password') return undefined;
    if (attr.minLength !== undefined && value.length < attr.minLength)
      return `At least ${attr.minLength} characters to publish (now ${value.length}).`;
    // The value is bounded by the maximum above, so the schema's pattern runs on a bounded input.
    if (attr.regex && !safeTest(attr.regex, value)) return `Must match the pattern “${attr.regex}” to publish.`;
    if (attr.type === 'email' && !EMAIL.test(value)) return 'An e-mail address, like name@example.com.';
    if (attr.type === 'uid' && !attr.regex && !UID_FORMAT.test(value))
      return 'Only letters, digits and - _ . ~ (no spaces).';
    return undefined;
  }
  if (NUMBERS.has(attr.type)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'A number, like 12 or 3.5.';
    if (attr.type === 'integer' && !Number.isInteger(value)) return 'A whole number.';
    if (attr.max !== undefined && value > Number(attr.max)) return `${attr.max} or less.`;
    if (publish && attr.min !== undefined && value < Number(attr.min)) return `${attr.min} or more to publish.`;
  }
  if (attr.type === 'biginteger' && !/^-?\d+$/.test(String(value))) return 'A whole number.';
  return undefined;
}

/** A pattern from the schema; one the browser cannot compile is left to the API. */
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}

type Item = Record<string, unknown>;

/** The problems inside a component's or a dynamic zone's value, by path (`seo.metaTitle`, `links.0.url`). */
export function checkNested(
  model: Model,
  attr: Attribute,
  value: unknown,
  path: string,
  publish: boolean,
  out: Record<string, string>,
) {
  const list = Array.isArray(value) ? (value as Item[]) : [];
  if (attr.type === 'component') {
    const c = attr.component ? model.components.get(attr.component) : undefined;
    if (!attr.repeatable) {
      if (value) checkItem(model, c, value as Item, path, publish, out);
      else if (publish && attr.required) out[path] = 'Required to publish: add it.';
      return;
    }
    list.forEach((item, i) => checkItem(model, c, item, `${path}.${i}`, publish, out));
  } else if (attr.type === 'dynamiczone')
    list.forEach((item, i) =>
      checkItem(model, model.components.get(String(item.__component)), item, `${path}.${i}`, publish, out),
    );
  else return;
  if (publish && attr.min !== undefined && (attr.required || list.length > 0) && list.length < attr.min)
    out[path] = `At least ${attr.min} entries to publish (now ${list.length}).`;
}

function checkItem(
  model: Model,
  c: ComponentType | undefined,
  item: Item,
  path: string,
  publish: boolean,
  out: Record<string, string>,
) {
  for (const [name, attr] of Object.entries(c?.attributes ?? {})) {
    const at = `${path}.${name}`;
    if (attr.type === 'component' || attr.type === 'dynamiczone')
      checkNested(model, attr, item[name], at, publish, out);
    else if (attr.type !== 'relation' && attr.type !== 'media' && attr.type !== 'blocks') {
      const problem = checkValue(attr, item[name], publish);
      if (problem) out[at] = problem;
    }
  }
}

/** The problems of a form's top-level input (its text, as typed), by field name. */
export function checkInput(attr: Attribute, text: FormValue, publish: boolean): string | undefined {
  let value: unknown;
  try {
    value = fromForm(attr, text);
  } catch (err) {
    if (err instanceof FieldSyntaxError) return err.message;
    throw err;
  }
  return checkValue(attr, value, publish);
}
