import { Field, slugify, type FormValue } from './fields';
import { BlocksField } from './blocks-field';
import { ComponentField, DynamicZoneField } from './components';
import { isSecret, STRUCTURED, type FormState, type SecretMode } from './editor-payload';
import { MediaField } from './media-field';
import type { Attribute, ContentType, Model } from './model';
import { PrivateField } from './private-field';
import { RelationField } from './relation-field';

/** A component, dynamic zone or blocks field. */
function Structured(props: Parameters<typeof ComponentField>[0]) {
  if (props.attr.type === 'blocks') return <BlocksField {...props} error={props.errors?.[props.name]} />;
  return props.attr.type === 'component' ? <ComponentField {...props} /> : <DynamicZoneField {...props} />;
}

/** The editor's fields, each drawn by the input of its kind; `onChange` tells which one changed and to what. */
export function EditorFields(props: {
  model: Model;
  editable: [string, Attribute][];
  form: FormState;
  /** Problems by path: a field's name, or a path inside a component or a zone (`seo.metaTitle`). */
  errors: Record<string, string>;
  /** Which private fields of the stored document hold a value. */
  privateSet: Record<string, boolean>;
  locale?: string;
  targetOf(uid: string | undefined): ContentType | undefined;
  onStructured(name: string, value: unknown): void;
  onFiles(name: string, value: FormState['files'][string]): void;
  onRelations(name: string, value: FormState['relations'][string]): void;
  onValue(name: string, attr: Attribute, value: FormValue): void;
  onSecret(name: string, mode: SecretMode): void;
  onGenerate(name: string, value: string): void;
}) {
  const { model, editable, form, errors, locale, targetOf } = props;
  const { values, relations, structured, files, secrets } = form;
  return (
    <>
      {editable.map(([name, attr]) =>
        STRUCTURED.has(attr.type) ? (
          <Structured
            key={name}
            model={model}
            name={name}
            attr={attr}
            value={structured[name]}
            errors={errors}
            locale={locale}
            onChange={(v: unknown) => props.onStructured(name, v)}
          />
        ) : attr.type === 'media' ? (
          <MediaField
            name={name}
            attr={attr}
            value={files[name] ?? []}
            error={errors[name]}
            onChange={(v) => props.onFiles(name, v)}
          />
        ) : attr.type === 'relation' ? (
          <RelationField
            name={name}
            attr={attr}
            target={targetOf(attr.target)}
            value={relations[name] ?? []}
            locale={locale}
            error={errors[name]}
            onChange={(v) => props.onRelations(name, v)}
          />
        ) : isSecret(attr) && secrets[name] ? (
          <PrivateField
            name={name}
            attr={attr}
            isSet={props.privateSet[name]}
            mode={secrets[name]}
            value={values[name] ?? ''}
            error={errors[name]}
            onMode={(mode) => props.onSecret(name, mode)}
            onChange={(v) => props.onValue(name, attr, v)}
          />
        ) : (
          <Field
            name={name}
            attr={attr}
            value={values[name] ?? ''}
            error={errors[name]}
            onChange={(v) => props.onValue(name, attr, v)}
            onGenerate={
              attr.type === 'uid' && attr.targetField
                ? () => props.onGenerate(name, slugify(String(values[attr.targetField!] ?? '')))
                : undefined
            }
          />
        ),
      )}
    </>
  );
}
