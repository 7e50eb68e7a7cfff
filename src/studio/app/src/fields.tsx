import { useState } from 'preact/hooks';
import { MarkdownPreview } from './markdown-preview';
import type { Attribute } from './model';
import { FieldError } from './field-error';
import { hintOf, labelOf, readable } from './labels';

/** What a field holds while it is edited: the text of its input, or a checkbox's state. */
export type FormValue = string | boolean;

const pad = (n: number) => String(n).padStart(2, '0');

/** A stored value as its input shows it. */
export function toForm(attr: Attribute, value: unknown): FormValue {
  if (attr.type === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  if (attr.type === 'json') return JSON.stringify(value, null, 2);
  if (attr.type === 'datetime') {
    const d = new Date(String(value));
    if (Number.isNaN(d.getTime())) return String(value);
    const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    return `${date}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }
  if (attr.type === 'time') return String(value).slice(0, 8);
  return String(value);
}

/** Thrown for a value the form can tell is wrong before sending it (only JSON syntax: the API checks the rest). */
export class FieldSyntaxError extends Error {}

/**
 * An input's text as the API takes it. Empty is null; numbers that do not parse are sent as typed, so the
 * API's own validation message reaches the field.
 */
export function fromForm(attr: Attribute, value: FormValue): unknown {
  if (attr.type === 'boolean') return value === true;
  const text = String(value);
  if (text === '') return attr.type === 'string' || attr.type === 'text' || attr.type === 'richtext' ? '' : null;
  switch (attr.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? n : text;
    }
    case 'json':
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new FieldSyntaxError(`This is not valid JSON: ${(err as Error).message}`);
      }
    case 'datetime': {
      const d = new Date(text);
      return Number.isNaN(d.getTime()) ? text : d.toISOString();
    }
    case 'time':
      return /^\d\d:\d\d$/.test(text) ? `${text}:00.000` : /^\d\d:\d\d:\d\d$/.test(text) ? `${text}.000` : text;
    default:
      return text;
  }
}

const INPUT_TYPES: Record<string, 'text' | 'email' | 'number' | 'date' | 'time' | 'datetime-local' | 'password'> = {
  string: 'text',
  uid: 'text',
  email: 'email',
  integer: 'number',
  biginteger: 'text',
  float: 'number',
  decimal: 'number',
  date: 'date',
  time: 'time',
  datetime: 'datetime-local',
  password: 'password',
};

/** A slug from a text, as a uid's default when generated from its target field. */
export const slugify = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** One labelled field of the editor, its error beside it (announced, and linked with aria-describedby). */
export function Field(props: {
  name: string;
  /** The input's id, when the name is not unique on the page (fields inside components). */
  id?: string;
  attr: Attribute;
  value: FormValue;
  error?: string;
  /** More help than the attribute's kind and limits (a private field's note). */
  note?: string;
  onChange(value: FormValue): void;
  onGenerate?: () => void;
}) {
  const { name, attr, value, error, onChange } = props;
  const id = props.id ?? `field-${name}`;
  const label = labelOf(name, attr);
  const [preview, setPreview] = useState(false);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const common = {
    id,
    name,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
    'aria-required': attr.required ? ('true' as const) : undefined,
  };
  let input;
  if (attr.type === 'boolean') {
    input = (
      <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
    );
  } else if (attr.type === 'enumeration') {
    input = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">(none)</option>
        {(attr.enum ?? []).map((v) => (
          <option value={v}>{v}</option>
        ))}
      </select>
    );
  } else if (attr.type === 'text' || attr.type === 'richtext' || attr.type === 'json') {
    input = (
      <textarea
        {...common}
        rows={attr.type === 'text' ? 4 : 10}
        class={attr.type === 'json' ? 'code' : undefined}
        spellcheck={attr.type !== 'json'}
        maxLength={attr.maxLength}
        value={String(value)}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  } else {
    const type = INPUT_TYPES[attr.type] ?? 'text';
    input = (
      <input
        {...common}
        // Preact's input props are split by type; this one input takes several, chosen at run time.
        type={type as 'text'}
        step={
          attr.type === 'integer'
            ? 1
            : type === 'number'
              ? 'any'
              : type === 'time' || type === 'datetime-local'
                ? 1
                : undefined
        }
        min={attr.min}
        max={attr.max}
        maxLength={attr.maxLength}
        value={String(value)}
        autocomplete={type === 'password' ? 'new-password' : undefined}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  return (
    <div class={`field ${attr.type}`}>
      <label for={id}>
        {label}
        {attr.required && <span aria-hidden="true"> *</span>}
      </label>
      <p class="hint" id={hintId}>
        {hintOf(attr)}
        {props.note ? `. ${props.note}` : ''}
      </p>
      <div class="control">
        {input}
        {attr.type === 'richtext' && (
          <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
            Preview<span class="visually-hidden"> {label}</span>
          </button>
        )}
        {attr.type === 'uid' && props.onGenerate && (
          <button type="button" onClick={props.onGenerate}>
            Generate from {readable(attr.targetField ?? '')}
          </button>
        )}
      </div>
      {preview && attr.type === 'richtext' && <MarkdownPreview text={String(value)} label={`Preview of ${label}`} />}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
