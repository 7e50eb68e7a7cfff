/** A field's error from the API, linked to its input by `id` (the input's `aria-describedby`). */
export function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <p id={props.id} class="field-error">
      {props.error}
    </p>
  ) : null;
}
