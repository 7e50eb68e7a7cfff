import type { FieldProblem } from './api';
import { FieldSyntaxError, fromForm, toForm, type FormValue } from './fields';
import { toInput } from './component-input';
import { checkInput, checkNested } from './form-check';
import type { Attribute, ContentType, Model } from './model';
import { toFiles, type MediaFile } from './media-field';
import { toRefs, type RelationRef } from './relation-field';
import type { Doc } from './status';

/** The kinds edited as a whole value of their own (not one input): components, dynamic zones and blocks. */
export const STRUCTURED = new Set(['component', 'dynamiczone', 'blocks']);

/** A value the API never answers (a private attribute, a password): kept, replaced by what is typed, or cleared. */
export type SecretMode = 'keep' | 'replace' | 'clear';

export const isSecret = (attr: Attribute) => attr.private === true || attr.type === 'password';

/** What the editor's form holds, by field name, for each kind of field. */
export interface FormState {
  values: Record<string, FormValue>;
  relations: Record<string, RelationRef[]>;
  structured: Record<string, unknown>;
  files: Record<string, MediaFile[]>;
  /** Private fields of a stored document: what a save does with each (none: keep). */
  secrets: Record<string, SecretMode>;
}

/**
 * The body of a save: the fields the editor changed, as the API takes them, and the problems the form can tell
 * before sending (by field name).
 */
export function payloadOf(
  type: ContentType,
  model: Model,
  touched: Set<string>,
  form: FormState,
): { data: Record<string, unknown>; problems: Record<string, string> } {
  const { values, relations, structured, files, secrets } = form;
  const data: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const name of touched) {
    const attr = type.attributes[name];
    const secret = secrets[name];
    if (secret === 'keep') continue;
    if (secret === 'clear') {
      data[name] = null;
      continue;
    }
    // A password is write-only: left empty, it is kept as it is.
    if (attr.type === 'password' && values[name] === '') continue;
    if (attr.type === 'relation') {
      data[name] = { set: (relations[name] ?? []).map((r) => r.documentId) };
      continue;
    }
    if (attr.type === 'media') {
      const list = (files[name] ?? []).map((f) => f.id);
      data[name] = attr.multiple ? list : (list[0] ?? null);
      continue;
    }
    if (STRUCTURED.has(attr.type)) {
      data[name] = toInput(model, attr, structured[name]);
      continue;
    }
    try {
      data[name] = fromForm(attr, values[name]);
    } catch (err) {
      if (err instanceof FieldSyntaxError) problems[name] = err.message;
      else throw err;
    }
  }
  return { data, problems };
}

/**
 * What the form's own check finds in one field (its name, and paths inside it for components and zones), as the
 * API would: `publish` adds the publish-time checks. A private field kept as it is counts as set when it is.
 */
export function checkField(
  model: Model,
  name: string,
  attr: Attribute,
  form: FormState,
  publish: boolean,
  privateSet: Record<string, boolean>,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (attr.type === 'component' || attr.type === 'dynamiczone')
    checkNested(model, attr, form.structured[name], name, publish, out);
  else if (!STRUCTURED.has(attr.type) && attr.type !== 'relation' && attr.type !== 'media') {
    const secret = form.secrets[name];
    if (secret === 'keep') {
      if (publish && attr.required && privateSet[name] === false) out[name] = 'Required to publish: replace it.';
    } else if (secret === 'clear') {
      if (publish && attr.required) out[name] = 'Required to publish: it cannot be cleared.';
    } else if (!(attr.type === 'password' && secret === 'replace' && form.values[name] === '')) {
      const problem = checkInput(attr, form.values[name] ?? '', publish);
      if (problem) out[name] = problem;
    }
  }
  return out;
}

/** The form's state for a document as read (or for a new one: its fields' defaults). */
export function formOf(
  editable: [string, Attribute][],
  targetOf: (uid: string | undefined) => ContentType | undefined,
  d: Doc | undefined,
): FormState {
  const next: Record<string, FormValue> = {};
  const linked: Record<string, RelationRef[]> = {};
  const nested: Record<string, unknown> = {};
  const media: Record<string, MediaFile[]> = {};
  const secrets: Record<string, SecretMode> = {};
  for (const [name, attr] of editable) {
    if (attr.type === 'relation') linked[name] = toRefs(targetOf(attr.target), d?.[name]);
    else if (attr.type === 'media') media[name] = toFiles(d?.[name]);
    else if (STRUCTURED.has(attr.type))
      nested[name] = d?.[name] ?? (attr.type === 'component' && !attr.repeatable ? null : []);
    else next[name] = toForm(attr, d ? d[name] : attr.default);
    // A stored document's private value is not in what the API read: the form keeps it unless told otherwise.
    if (d && isSecret(attr)) {
      secrets[name] = 'keep';
      next[name] = '';
    }
  }
  return { values: next, relations: linked, structured: nested, files: media, secrets };
}

/** The value at a path inside a field's value (`links.0.url` in the `links` list). */
export function valueAt(value: unknown, path: string[]): unknown {
  let at = value;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** A message of the API made to stand beside its field: without the field's path in front. */
function plain(message: string, path: string): string {
  if (/must be a `\w+` type, but the final value was: `null`/.test(message)) return 'Required to publish.';
  const rest = message.startsWith(`${path} `) ? message.slice(path.length + 1) : message;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * The API's problems by the path of the field they belong to: the deepest field on screen (`hasField`) on their
 * path, the rest of the path said in the message. A problem of no field is kept under its own path.
 */
export function errorsAt(problems: FieldProblem[], hasField: (path: string) => boolean): Record<string, string> {
  const at: Record<string, string> = {};
  for (const p of problems) {
    const path = p.path.map(String);
    let n = path.length;
    while (n > 0 && !hasField(path.slice(0, n).join('.'))) n--;
    const key = (n ? path.slice(0, n) : path).join('.');
    const inner = n && n < path.length ? `${path.slice(n).join('.')}: ` : '';
    at[key] ??= inner + plain(p.message, path.join('.'));
  }
  return at;
}
