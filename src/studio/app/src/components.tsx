import { useState } from 'preact/hooks';
import { EDITABLE, type ComponentType, type Attribute, type Model } from './model';
import { FieldError } from './field-error';
import { BlocksField } from './blocks-field';
import { ItemActions, ScalarField, summary } from './item-parts';
import { hintOf, labelOf } from './labels';
import { MediaField, toFiles } from './media-field';
import { fromRefs, RelationField, toRefs } from './relation-field';

type Item = Record<string, unknown>;

/** A component's fields, or a read-only line for a kind not edited inside components yet. */
function ItemFields(props: {
  model: Model;
  component: ComponentType;
  item: Item;
  path: string;
  locale?: string;
  errors?: Record<string, string>;
  onChange(i: Item): void;
}) {
  const { model, component, item, path, locale, errors, onChange } = props;
  return (
    <>
      {Object.entries(component.attributes).map(([name, attr]) => {
        const set = (v: unknown) => onChange({ ...item, [name]: v });
        const sub = `${path}.${name}`;
        const error = errors?.[sub];
        if (attr.type === 'component' || attr.type === 'dynamiczone') {
          const Nested = attr.type === 'component' ? ComponentField : DynamicZoneField;
          return (
            <Nested
              model={model}
              name={name}
              path={sub}
              attr={attr}
              value={item[name]}
              locale={locale}
              errors={errors}
              onChange={set}
            />
          );
        }
        // The API never answers a private value, and a component is written whole: say so rather than lose it unseen.
        if (attr.private || attr.type === 'password')
          return (
            <p class="field kept-inline">
              <strong>{labelOf(name, attr)}</strong>{' '}
              <span class="kind">
                is private: the API never shows it, so a save after a change to this component clears it (set it with
                the CLI or in the file).
              </span>
            </p>
          );
        if (attr.type === 'blocks')
          return <BlocksField name={name} path={sub} attr={attr} value={item[name]} error={error} onChange={set} />;
        // Kept as the API read them (populated), so toInput writes what is shown: file ids and `{ set }`.
        if (attr.type === 'media')
          return (
            <MediaField
              name={name}
              path={sub}
              attr={attr}
              value={toFiles(item[name])}
              error={error}
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
              error={error}
              onChange={(refs) => set(fromRefs(target, refs))}
            />
          );
        }
        if (EDITABLE.has(attr.type))
          return <ScalarField name={name} path={sub} attr={attr} value={item[name]} error={error} onChange={set} />;
        return (
          <p class="field kept-inline">
            <strong>{labelOf(name, attr)}</strong> ({attr.type}): {summary(item[name])}{' '}
            <span class="kind">kept as it is; edited with the CLI or in the file for now</span>
          </p>
        );
      })}
    </>
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
  /** This field's own problem (else `errors` at its path). */
  error?: string;
  /** Every problem of the form by path (`seo.metaTitle`, `links.0.url`): each shows at its own field inside. */
  errors?: Record<string, string>;
  /** The document's locale, which relation pickers inside search in. */
  locale?: string;
  onChange(value: unknown): void;
}

/** The legend of a component or zone: its label, a required mark, and what it holds as help. */
function Legend(props: { name: string; attr: Attribute; model: Model; path: string }) {
  const { name, attr, model, path } = props;
  return (
    <>
      <legend>
        {labelOf(name, attr)}
        {attr.required && <span aria-hidden="true"> *</span>}
      </legend>
      <p class="hint" id={`field-${path}-hint`}>
        {hintOf(attr, model)}
      </p>
    </>
  );
}

const describedBy = (path: string, error: string | undefined) =>
  `field-${path}-hint${error ? ` field-${path}-error` : ''}`;

/** A component attribute: one entry (add or remove it) or a repeatable list (add, reorder, remove). */
export function ComponentField(props: NestedFieldProps) {
  const { model, name, attr, value, locale, errors, onChange } = props;
  const path = props.path ?? name;
  const error = props.error ?? errors?.[path];
  const label = labelOf(name, attr);
  const component = attr.component ? model.components.get(attr.component) : undefined;
  if (!component)
    return (
      <p class="field">
        {label}: component {attr.component} is not in the model.
      </p>
    );
  const errorLine = <FieldError id={`field-${path}-error`} error={error} />;
  const fieldset = { class: 'field component', id: `field-${path}`, 'aria-describedby': describedBy(path, error) };
  if (!attr.repeatable) {
    const item = value as Item | null | undefined;
    return (
      <fieldset {...fieldset}>
        <Legend name={name} attr={attr} model={model} path={path} />
        {item ? (
          <>
            <ItemFields
              model={model}
              component={component}
              item={item}
              path={path}
              locale={locale}
              errors={errors}
              onChange={onChange}
            />
            <button type="button" onClick={() => onChange(null)}>
              Remove {label}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => onChange({})}>
            Add {label}
          </button>
        )}
        {errorLine}
      </fieldset>
    );
  }
  const list = (Array.isArray(value) ? value : []) as Item[];
  return (
    <fieldset {...fieldset}>
      <Legend name={name} attr={attr} model={model} path={path} />
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
              errors={errors}
              onChange={(next) => onChange(list.map((x, j) => (j === i ? next : x)))}
            />
            <ItemActions list={list} index={i} label={`${component.displayName} ${i + 1}`} onChange={onChange} />
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...list, {}])}>
        Add an entry to {label}
      </button>
      {errorLine}
    </fieldset>
  );
}

/** A dynamic zone: entries of the components it allows, added from its list, reordered and removed. */
export function DynamicZoneField(props: NestedFieldProps) {
  const { model, name, attr, value, locale, errors, onChange } = props;
  const path = props.path ?? name;
  const error = props.error ?? errors?.[path];
  const label = labelOf(name, attr);
  const list = (Array.isArray(value) ? value : []) as Item[];
  const allowed = attr.components ?? [];
  const [pick, setPick] = useState(allowed[0] ?? '');
  return (
    <fieldset class="field zone" id={`field-${path}`} aria-describedby={describedBy(path, error)}>
      <Legend name={name} attr={attr} model={model} path={path} />
      <ol class="items">
        {list.map((item, i) => {
          const c = model.components.get(String(item.__component));
          const title = `${c?.displayName ?? String(item.__component)} ${i + 1}`;
          return (
            <li>
              <p class="item-title">{title}</p>
              {c && (
                <ItemFields
                  model={model}
                  component={c}
                  item={item}
                  path={`${path}.${i}`}
                  locale={locale}
                  errors={errors}
                  onChange={(next) => onChange(list.map((x, j) => (j === i ? next : x)))}
                />
              )}
              <ItemActions list={list} index={i} label={title} onChange={onChange} />
            </li>
          );
        })}
      </ol>
      <div class="add-zone">
        <label for={`field-${path}-add`}>
          Component to add<span class="visually-hidden"> to {label}</span>
        </label>
        <select id={`field-${path}-add`} value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
          {allowed.map((uid) => (
            <option value={uid}>{model.components.get(uid)?.displayName ?? uid}</option>
          ))}
        </select>
        <button type="button" onClick={() => onChange([...list, { __component: pick }])}>
          Add to {label}
        </button>
      </div>
      <FieldError id={`field-${path}-error`} error={error} />
    </fieldset>
  );
}
