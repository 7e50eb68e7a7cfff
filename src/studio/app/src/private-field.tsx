import { Field, type FormValue } from './fields';
import { FieldError } from './field-error';
import type { SecretMode } from './editor-payload';
import { hintOf, labelOf } from './labels';
import type { Attribute } from './model';

/**
 * A private field (or a password) of a stored document. The API never answers its value, so an empty box would
 * lie: the field says whether a value is set, and changes it only when asked to replace or clear it.
 */
export function PrivateField(props: {
  name: string;
  attr: Attribute;
  /** Whether the document holds a value; undefined while unknown. */
  isSet: boolean | undefined;
  mode: SecretMode;
  value: FormValue;
  error?: string;
  onMode(mode: SecretMode): void;
  onChange(value: FormValue): void;
}) {
  const { name, attr, isSet, mode, error } = props;
  const label = labelOf(name, attr);
  const id = `field-${name}`;
  if (mode === 'replace')
    return (
      <div class="private-field replacing">
        <Field
          name={name}
          attr={attr}
          value={props.value}
          error={error}
          note={`Private: the API never shows it${isSet ? '. What you type replaces the current value' : ''}`}
          onChange={props.onChange}
        />
        <button type="button" onClick={() => props.onMode('keep')}>
          Keep the current {label}
        </button>
      </div>
    );
  const state =
    mode === 'clear'
      ? 'Cleared when you save'
      : isSet === undefined
        ? 'Set or not: unknown'
        : isSet
          ? 'Set (hidden)'
          : 'Not set';
  return (
    <div
      class="field private-field"
      role="group"
      id={id}
      aria-labelledby={`${id}-label`}
      aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
    >
      <p class="label" id={`${id}-label`}>
        {label}
        {attr.required && <span aria-hidden="true"> *</span>}
      </p>
      <p class="hint" id={`${id}-hint`}>
        {hintOf(attr)}. Private: the API never shows it.
      </p>
      <p class="secret-state">
        <span class={`badge ${mode === 'clear' ? 'cleared' : isSet ? 'set' : 'unset'}`}>{state}</span>{' '}
        {mode === 'clear' ? (
          <button type="button" onClick={() => props.onMode('keep')}>
            Keep {label}
          </button>
        ) : (
          <>
            <button
              type="button"
              onClick={() => {
                props.onMode('replace');
                // The box appears with the next render: the typing goes there.
                setTimeout(() => document.getElementById(id)?.focus());
              }}
            >
              {isSet ? 'Replace' : 'Set'} {label}
            </button>
            {isSet && attr.type !== 'password' && (
              <button type="button" onClick={() => props.onMode('clear')}>
                Clear {label}
              </button>
            )}
          </>
        )}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
