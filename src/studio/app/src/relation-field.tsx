import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import { endpoint, type Attribute, type ContentType } from './model';
import { FieldError } from './field-error';
import { labelOf, withArticle } from './labels';

/** A related document as the field shows it. */
export interface RelationRef {
  documentId: string;
  label: string;
}

/** The attribute a type's documents are named by in pickers: its title or name, else its first text. */
export function mainField(type: ContentType): string | undefined {
  const names = Object.keys(type.attributes);
  return (
    names.find((n) => n === 'title' || n === 'name') ??
    names.find((n) => ['string', 'uid', 'email'].includes(type.attributes[n].type))
  );
}

export const isMany = (attr: Attribute) => /ToMany$/.test(attr.relation ?? '');

/** A populated relation value as the field's list. */
export function toRefs(target: ContentType | undefined, value: unknown): RelationRef[] {
  const field = target && mainField(target);
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list
    .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && 'documentId' in v)
    .map((v) => ({ documentId: String(v.documentId), label: String((field && v[field]) || v.documentId) }));
}

/** A relation's list as a stored value holds it (the target's documentId and main field), for `toRefs` and writes. */
export function fromRefs(target: ContentType | undefined, refs: RelationRef[]): Record<string, unknown>[] {
  const field = target && mainField(target);
  return refs.map((r) => ({ documentId: r.documentId, ...(field ? { [field]: r.label } : {}) }));
}

/**
 * A relation: the documents it links, in order (reorder and remove), and a search of the target type to add
 * more (`_q`, as the user types). Saved as `{ set: [...] }`, which keeps the order shown.
 */
export function RelationField(props: {
  name: string;
  /** The field's id and the path its controls name, when the name is not unique on the page (in components). */
  path?: string;
  attr: Attribute;
  target: ContentType | undefined;
  value: RelationRef[];
  locale?: string;
  error?: string;
  onChange(value: RelationRef[]): void;
}) {
  const { name, attr, target, value, error, onChange } = props;
  const many = isMany(attr);
  const path = props.path ?? name;
  const id = `field-${path}`;
  const [text, setText] = useState('');
  const [found, setFound] = useState<RelationRef[]>([]);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    if (!target || !text.trim()) return setFound([]);
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const { data } = await api<{ data: Record<string, unknown>[] }>(
          'GET',
          `${endpoint(target)}${query({
            _q: text.trim(),
            'pagination[pageSize]': 10,
            status: target.draftAndPublish ? 'draft' : undefined,
            locale: target.localized ? props.locale : undefined,
          })}`,
        );
        if (live) {
          setFound(toRefs(target, data));
          setProblem('');
        }
      } catch (err) {
        if (live)
          setProblem(
            err instanceof ApiError && err.status === 403
              ? `Your role may not read ${target.displayName} (it needs “${target.uid}.find”).`
              : `Could not search ${target.displayName}: ${(err as Error).message}`,
          );
      }
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, target?.uid]);

  const add = (ref: RelationRef) => {
    onChange(many ? [...value.filter((v) => v.documentId !== ref.documentId), ref] : [ref]);
    setText('');
    document.getElementById(`${id}-search`)?.focus();
  };
  const move = (from: number, to: number) => {
    const next = [...value];
    next.splice(to, 0, ...next.splice(from, 1));
    onChange(next);
  };

  return (
    <fieldset class="field relation" id={id} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}>
      <legend>{labelOf(name, attr)}</legend>
      <p class="hint" id={`${id}-hint`}>
        {many ? 'Links to' : 'A link to'} {target ? withArticle(target.displayName) : attr.target}
        {many ? ' (several, in order)' : ''}
      </p>
      {value.length === 0 ? (
        <p class="empty">None.</p>
      ) : (
        <ol class="linked">
          {value.map((ref, i) => (
            <li key={ref.documentId}>
              <span>{ref.label}</span>
              {many && (
                <>
                  <button type="button" disabled={i === 0} onClick={() => move(i, i - 1)}>
                    Move up<span class="visually-hidden"> {ref.label}</span>
                  </button>
                  <button type="button" disabled={i === value.length - 1} onClick={() => move(i, i + 1)}>
                    Move down<span class="visually-hidden"> {ref.label}</span>
                  </button>
                </>
              )}
              <button type="button" onClick={() => onChange(value.filter((v) => v !== ref))}>
                Remove<span class="visually-hidden"> {ref.label}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {target && (
        <div class="picker">
          <label for={`${id}-search`}>
            {many || value.length === 0 ? 'Add' : 'Replace with'} {withArticle(target.displayName)}
            <span class="visually-hidden"> ({path})</span>
          </label>
          <input
            id={`${id}-search`}
            type="search"
            autocomplete="off"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          {found.length > 0 && (
            <ul class="results" aria-label={`${target.displayName} found`}>
              {found.map((ref) => (
                <li key={ref.documentId}>
                  <button type="button" onClick={() => add(ref)}>
                    {ref.label}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {text.trim() !== '' && found.length === 0 && !problem && <p class="empty">No match yet.</p>}
          {problem && <p class="field-error">{problem}</p>}
        </div>
      )}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
