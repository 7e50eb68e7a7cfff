import { useRef, useState } from 'preact/hooks';
import { slugify, type FormValue } from './fields';
import { checkField, formOf, valueAt, type FormState, type SecretMode } from './editor-payload';
import type { Attribute, ContentType, Model } from './model';
import type { Doc } from './status';

const EMPTY: FormState = { values: {}, relations: {}, structured: {}, files: {}, secrets: {} };

/**
 * The editor's form: what each field holds, which fields the user changed (the only ones a save sends), and the
 * problems found at each field. Once a save was refused, each change is checked again as it is made, so a problem
 * goes away as soon as it is fixed.
 */
export function useEditorForm(opts: {
  model: Model;
  editable: [string, Attribute][];
  isNew: boolean;
  targetOf(uid: string | undefined): ContentType | undefined;
}) {
  const { model, editable, isNew, targetOf } = opts;
  const [form, setFormState] = useState<FormState>(EMPTY);
  // The latest state, also between a change and the render it brings (two changes in one event both count).
  const latest = useRef(form);
  const setForm = (next: FormState) => {
    latest.current = next;
    setFormState(next);
  };
  const [touched, setTouchedState] = useState<Set<string>>(new Set());
  // As `latest` for the form: the guard and a save read what was typed the moment before, rendered or not.
  const touchedNow = useRef(touched);
  const setTouched = (next: Set<string>) => {
    touchedNow.current = next;
    setTouchedState(next);
  };
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Which private fields the stored document holds a value in. */
  const [privateSet, setPrivateSet] = useState<Record<string, boolean>>({});
  /** After a refused save: whether the checks are the publish-time ones. Undefined before. */
  const checking = useRef<boolean | undefined>(undefined);
  /** Edits made, counted: a save compares the count with the one it started from. */
  const edits = useRef(0);
  /** uid fields the user wrote themselves: they no longer follow their target field. */
  const ownUid = useRef(new Set<string>());
  const attrs = Object.fromEntries(editable);

  const fill = (d: Doc | undefined) => {
    setForm(formOf(editable, targetOf, d));
    setTouched(new Set());
    setErrors({});
    checking.current = undefined;
  };

  /** Records a change of field `name` (from `before` to `after` in `next`) and checks it again when due. */
  const changed = (name: string, before: FormState, next: FormState) => {
    edits.current++;
    setTouched(new Set(touchedNow.current).add(name));
    setErrors((was) => {
      const out: Record<string, string> = {};
      for (const [key, message] of Object.entries(was)) {
        const [top, ...inner] = key.split('.');
        // A problem inside the field goes when the value it is about changes (a sibling's edit leaves it).
        const stale =
          top === name &&
          (!inner.length || valueAt(before.structured[name], inner) !== valueAt(next.structured[name], inner));
        if (!stale) out[key] = message;
      }
      if (checking.current !== undefined && attrs[name])
        Object.assign(out, checkField(model, name, attrs[name], next, checking.current, privateSet));
      return out;
    });
  };

  const update = (name: string, make: (f: FormState) => FormState) => {
    const before = latest.current;
    const next = make(before);
    setForm(next);
    changed(name, before, next);
    return next;
  };

  const setValue = (name: string, value: FormValue, own = false) => {
    if (own) ownUid.current.add(name);
    update(name, (f) => ({ ...f, values: { ...f.values, [name]: value } }));
    // A new document's uid follows its target field until the user writes the uid themselves.
    if (isNew)
      for (const [uidName, a] of editable)
        if (a.type === 'uid' && a.targetField === name && !ownUid.current.has(uidName))
          update(uidName, (f) => ({ ...f, values: { ...f.values, [uidName]: slugify(String(value)) } }));
  };

  return {
    form,
    /** The fields changed, and the form's values, as they are now (not as last rendered). */
    touchedNow: () => touchedNow.current,
    formNow: () => latest.current,
    isDirty: () => touchedNow.current.size > 0,
    errors,
    privateSet,
    edits,
    dirty: touched.size > 0,
    fill,
    setForm,
    setTouched,
    setErrors,
    setPrivateSet,
    setValue,
    setStructured: (name: string, v: unknown) =>
      update(name, (f) => ({ ...f, structured: { ...f.structured, [name]: v } })),
    setFiles: (name: string, v: FormState['files'][string]) =>
      update(name, (f) => ({ ...f, files: { ...f.files, [name]: v } })),
    setRelations: (name: string, v: FormState['relations'][string]) =>
      update(name, (f) => ({ ...f, relations: { ...f.relations, [name]: v } })),
    setSecret: (name: string, mode: SecretMode) =>
      update(name, (f) => ({ ...f, secrets: { ...f.secrets, [name]: mode }, values: { ...f.values, [name]: '' } })),
    /**
     * Every field checked as the API would check this save (`publish`: the publish-time checks too). The problems
     * found replace the form's; later changes are checked again as they are made.
     */
    checkAll(publish: boolean): Record<string, string> {
      const out: Record<string, string> = {};
      for (const [name, attr] of editable)
        Object.assign(out, checkField(model, name, attr, latest.current, publish, privateSet));
      checking.current = publish;
      return out;
    },
  };
}
