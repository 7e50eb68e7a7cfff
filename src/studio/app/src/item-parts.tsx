import { useRef, useState } from 'preact/hooks';
import { Field, FieldSyntaxError, fromForm, toForm, type FormValue } from './fields';
import type { Attribute } from './model';

/** A value the Studio does not edit inside a component, in a few words. */
export function summary(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((v) => {
      const o = v as Record<string, unknown>;
      return String(o.name ?? o.title ?? o.documentId ?? o.id ?? JSON.stringify(v));
    })
    .join(', ');
}

/**
 * A scalar field inside a component. What was typed is shown while the value is the one it gave (a JSON text
 * that does not parse yet is kept, with its error); a value changed from outside (a reorder) shows as it is.
 */
export function ScalarField(props: {
  name: string;
  path: string;
  attr: Attribute;
  value: unknown;
  /** The problem the form's check or the API found with this value. */
  error?: string;
  onChange(v: unknown): void;
}) {
  const { name, path, attr, value, onChange } = props;
  const typed = useRef<{ text: FormValue; value: unknown } | undefined>(undefined);
  const [error, setError] = useState('');
  const current = typed.current && typed.current.value === value ? typed.current.text : toForm(attr, value);
  return (
    <Field
      name={name}
      id={`field-${path}`}
      attr={attr}
      value={current}
      error={(typed.current?.value === value ? error : '') || props.error}
      onChange={(v) => {
        try {
          const parsed = fromForm(attr, v);
          typed.current = { text: v, value: parsed };
          setError('');
          onChange(parsed);
        } catch (err) {
          if (!(err instanceof FieldSyntaxError)) throw err;
          typed.current = { text: v, value };
          setError(err.message);
        }
      }}
    />
  );
}

/** Buttons that move or remove the entry at `index` of a list. */
export function ItemActions(props: { list: unknown[]; index: number; label: string; onChange(list: unknown[]): void }) {
  const { list, index, label, onChange } = props;
  const move = (to: number) => {
    const next = [...list];
    next.splice(to, 0, ...next.splice(index, 1));
    onChange(next);
  };
  const hidden = <span class="visually-hidden"> {label}</span>;
  return (
    <div class="item-actions">
      <button type="button" disabled={index === 0} onClick={() => move(index - 1)}>
        Move up{hidden}
      </button>
      <button type="button" disabled={index === list.length - 1} onClick={() => move(index + 1)}>
        Move down{hidden}
      </button>
      <button type="button" onClick={() => onChange(list.filter((_, i) => i !== index))}>
        Remove{hidden}
      </button>
    </div>
  );
}
