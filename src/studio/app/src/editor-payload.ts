import type { FieldProblem } from './api';
import { FieldSyntaxError, fromForm, toForm, type FormValue } from './fields';
import { toInput } from './components';
import type { Attribute, ContentType, Model } from './model';
import { toFiles, type MediaFile } from './media-field';
import { toRefs, type RelationRef } from './relation-field';
import type { Doc } from './status';

/** The kinds edited as a whole value of their own (not one input): components, dynamic zones and blocks. */
export const STRUCTURED = new Set(['component', 'dynamiczone', 'blocks']);

/** What the editor's form holds, by field name, for each kind of field. */
export interface FormState {
  values: Record<string, FormValue>;
  relations: Record<string, RelationRef[]>;
  structured: Record<string, unknown>;
  files: Record<string, MediaFile[]>;
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
  const { values, relations, structured, files } = form;
  const data: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const name of touched) {
    // A password is write-only: left empty, it is kept as it is.
    if (type.attributes[name].type === 'password' && values[name] === '') continue;
    if (type.attributes[name].type === 'relation') {
      data[name] = { set: (relations[name] ?? []).map((r) => r.documentId) };
      continue;
    }
    if (type.attributes[name].type === 'media') {
      const list = (files[name] ?? []).map((f) => f.id);
      data[name] = type.attributes[name].multiple ? list : (list[0] ?? null);
      continue;
    }
    if (STRUCTURED.has(type.attributes[name].type)) {
      data[name] = toInput(model, type.attributes[name], structured[name]);
      continue;
    }
    try {
      data[name] = fromForm(type.attributes[name], values[name]);
    } catch (err) {
      if (err instanceof FieldSyntaxError) problems[name] = err.message;
      else throw err;
    }
  }
  return { data, problems };
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
  for (const [name, attr] of editable) {
    if (attr.type === 'relation') linked[name] = toRefs(targetOf(attr.target), d?.[name]);
    else if (attr.type === 'media') media[name] = toFiles(d?.[name]);
    else if (STRUCTURED.has(attr.type))
      nested[name] = d?.[name] ?? (attr.type === 'component' && !attr.repeatable ? null : []);
    else next[name] = toForm(attr, d ? d[name] : attr.default);
  }
  return { values: next, relations: linked, structured: nested, files: media };
}

/** The API's problems by field name: one inside a component or a dynamic zone shows at its top-level field. */
export function errorsAt(problems: FieldProblem[]): Record<string, string> {
  const at: Record<string, string> = {};
  for (const p of problems)
    at[String(p.path[0] ?? '')] ??= p.path.length > 1 ? `${p.path.slice(1).join('.')}: ${p.message}` : p.message;
  return at;
}
