import { useRef, useState } from 'preact/hooks';
import { Field, FieldSyntaxError, fromForm, toForm, type FormValue } from './fields';
import { EDITABLE, type Attribute, type ComponentType, type Model } from './model';
import { FieldError } from './field-error';
import { BlocksField } from './blocks-field';
import { MediaField, toFiles } from './media-field';
import { fromRefs, RelationField, toRefs } from './relation-field';

type Item = Record<string, unknown>;

/**
 * A stored value (as the API read it, populated) turned into what a write takes: media as file ids, relations
 * as `{ set }` of documentIds, components and dynamic-zone entries in full without their ids.
 */
export function toInput(model: Model, attr: Attribute, value: unknown): unknown {
  if (attr.type === 'relation') {
    const list = Array.isArray(value) ? value : value ? [value] : [];
    return { set: list.map((r) => (r as { documentId: string }).documentId) };
  }
  if (value === null || value === undefined) return attr.type === 'dynamiczone' ? [] : null;
  switch (attr.type) {
    case 'media':
      return Array.isArray(value)
        ? value.map((f) => (f as { id: number }).id)
        : ((value as { id?: number }).id ?? null);
    case 'component': {
      const c = attr.component ? model.components.get(attr.component) : undefined;
      const one = (item: unknown) => itemInput(model, c, item as Item);
      return attr.repeatable ? (value as unknown[]).map(one) : one(value);
    }
    case 'dynamiczone':
      return (value as Item[]).map((item) => ({
        __component: item.__component,
        ...itemInput(model, model.components.get(String(item.__component)), item),
      }));
    default:
      return value;
  }
}

function itemInput(model: Model, c: ComponentType | undefined, item: Item): Item {
  const out: Item = {};
  for (const [name, attr] of Object.entries(c?.attributes ?? {}))
    if (name in item) out[name] = toInput(model, attr, item[name]);
  return out;
}

/** A component's fields, or a read-only line for a kind not edited inside components yet. */
function ItemFields(props: {
  model: Model;
  component: ComponentType;
  item: Item;
  path: string;
  locale?: string;
  onChange(i: Item): void;
}) {
  const { model, component, item, path, locale, onChange } = props;
  return (
    <>
      {Object.entries(component.attributes).map(([name, attr]) => {
        const set = (v: unknown) => onChange({ ...item, [name]: v });
        const sub = `${path}.${name}`;
        if (attr.type === 'component')
          return (
            <ComponentField
              model={model}
              name={name}
              path={sub}
              attr={attr}
              value={item[name]}
              locale={locale}
              onChange={set}
            />
          );
        if (attr.type === 'blocks')
          return <BlocksField name={name} path={sub} attr={attr} value={item[name]} onChange={set} />;
        // Kept as the API read them (populated), so toInput writes what is shown: file ids and `{ set }`.
        if (attr.type === 'media')
          return (
            <MediaField
              name={name}
              path={sub}
              attr={attr}
              value={toFiles(item[name])}
              onChange={(files) => set(attr.multiple ? files : (files[0] ?? null))}
            />
          );
        if (attr.type === 'relation') {
          const target = model.types.find((t) => t.uid === attr.target);
          return (
            <RelationField
              name={name}
              path={sub}
              attr={attr}
              target={target}
              value={toRefs(target, item[name])}
              locale={locale}
              onChange={(refs) => set(fromRefs(target, refs))}
            />
          );
        }
        if (EDITABLE.has(attr.type))
          return <ScalarField name={name} path={sub} attr={attr} value={item[name]} onChange={set} />;
        return (
          <p class="field kept-inline">
            <strong>{name}</strong> ({attr.type}): {summary(item[name])}{' '}
            <span class="kind">kept as it is; edited with the CLI or in the file for now</span>
          </p>
        );
      })}
    </>
  );
}

function summary(value: unknown): string {
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
function ScalarField(props: {
  name: string;
  path: string;
  attr: Attribute;
  value: unknown;
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
      error={typed.current?.value === value ? error : ''}
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
function ItemActions(props: { list: unknown[]; index: number; label: string; onChange(list: unknown[]): void }) {
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

/** What a component or dynamic-zone attribute's field is given. */
interface NestedFieldProps {
  model: Model;
  name: string;
  /** Where the value sits in the document (default: `name`), for the names of controls inside. */
  path?: string;
  attr: Attribute;
  value: unknown;
  error?: string;
  /** The document's locale, which relation pickers inside search in. */
  locale?: string;
  onChange(value: unknown): void;
}

/** A component attribute: one entry (add or remove it) or a repeatable list (add, reorder, remove). */
export function ComponentField(props: NestedFieldProps) {
  const { model, name, attr, value, error, locale, onChange } = props;
  const path = props.path ?? name;
  const component = attr.component ? model.components.get(attr.component) : undefined;
  if (!component)
    return (
      <p class="field">
        {name}: component {attr.component} is not in the model.
      </p>
    );
  const legend = (
    <legend>
      {name}
      <span class="kind">
        {' '}
        ({component.displayName}
        {attr.repeatable ? ', repeatable' : ''})
      </span>
    </legend>
  );
  const errorLine = <FieldError id={`field-${path}-error`} error={error} />;
  if (!attr.repeatable) {
    const item = value as Item | null | undefined;
    return (
      <fieldset class="field component" id={`field-${path}`}>
        {legend}
        {item ? (
          <>
            <ItemFields
              model={model}
              component={component}
              item={item}
              path={path}
              locale={locale}
              onChange={onChange}
            />
            <button type="button" onClick={() => onChange(null)}>
              Remove {name}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => onChange({})}>
            Add {name}
          </button>
        )}
        {errorLine}
      </fieldset>
    );
  }
  const list = (Array.isArray(value) ? value : []) as Item[];
  return (
    <fieldset class="field component" id={`field-${path}`}>
      {legend}
      <ol class="items">
        {list.map((item, i) => (
          <li>
            <p class="item-title">
              {component.displayName} {i + 1}
            </p>
            <ItemFields
              model={model}
              component={component}
              item={item}
              path={`${path}.${i}`}
              locale={locale}
              onChange={(next) => onChange(list.map((x, j) => (j === i ? next : x)))}
            />
            <ItemActions list={list} index={i} label={`${component.displayName} ${i + 1}`} onChange={onChange} />
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...list, {}])}>
        Add an entry to {name}
      </button>
      {errorLine}
    </fieldset>
  );
}

/** A dynamic zone: entries of the components it allows, added from its list, reordered and removed. */
export function DynamicZoneField(props: Omit<NestedFieldProps, 'path'>) {
  const { model, name, attr, value, error, locale, onChange } = props;
  const list = (Array.isArray(value) ? value : []) as Item[];
  const allowed = attr.components ?? [];
  const [pick, setPick] = useState(allowed[0] ?? '');
  return (
    <fieldset class="field zone" id={`field-${name}`}>
      <legend>
        {name}
        <span class="kind"> (dynamic zone)</span>
      </legend>
      <ol class="items">
        {list.map((item, i) => {
          const c = model.components.get(String(item.__component));
          const label = `${c?.displayName ?? String(item.__component)} ${i + 1}`;
          return (
            <li>
              <p class="item-title">{label}</p>
              {c && (
                <ItemFields
                  model={model}
                  component={c}
                  item={item}
                  path={`${name}.${i}`}
                  locale={locale}
                  onChange={(next) => onChange(list.map((x, j) => (j === i ? next : x)))}
                />
              )}
              <ItemActions list={list} index={i} label={label} onChange={onChange} />
            </li>
          );
        })}
      </ol>
      <div class="add-zone">
        <label for={`field-${name}-add`}>Component to add</label>
        <select id={`field-${name}-add`} value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
          {allowed.map((uid) => (
            <option value={uid}>{model.components.get(uid)?.displayName ?? uid}</option>
          ))}
        </select>
        <button type="button" onClick={() => onChange([...list, { __component: pick }])}>
          Add to {name}
        </button>
      </div>
      <FieldError id={`field-${name}-error`} error={error} />
    </fieldset>
  );
}
