import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import { slugify, type FormValue } from './fields';
import { onLiveEvent } from './live';
import { EDITABLE, endpoint, populateParams, type Attribute, type ContentType, type Model } from './model';
import { flash } from './flash';
import { ErrorNotice } from './notices';
import { EditorActions } from './editor-actions';
import { EditorFields } from './editor-fields';
import { EditorHeader } from './editor-header';
import { ChangedNotice, GeneralErrors, KeptFields, MissingLocaleNotice, NotFound } from './editor-notices';
import { errorsAt, formOf, payloadOf, STRUCTURED } from './editor-payload';
import type { MediaFile } from './media-field';
import type { RelationRef } from './relation-field';
import { navigate } from './router';
import { statusesOf, type Doc, type Status } from './status';

type Action = 'draft' | 'publish' | 'save';

/** The locales of a document's other versions, from its populated `localizations`. */
const localesOf = (d: Doc): string[] =>
  Array.isArray(d.localizations) ? d.localizations.map((l: { locale: string }) => l.locale) : [];

/**
 * The form of one document (a collection's, or a single type's): its scalar fields, saved through the REST API
 * as a draft or published. Only the fields the editor changed are sent, so a save changes nothing else in the
 * file; kinds without a field yet are shown read-only and kept as they are.
 */
export function Editor(props: { type: ContentType; model: Model; documentId?: string; params: URLSearchParams }) {
  const { type, model, documentId, params } = props;
  const single = type.kind === 'singleType';
  const isNew = !single && documentId === undefined;
  const defaultLocale = model.locales.find((l) => l.isDefault)?.code;
  const locale = type.localized ? (params.get('locale') ?? defaultLocale) : undefined;
  const [doc, setDoc] = useState<Doc | undefined>();
  const [status, setStatus] = useState<Status | undefined>();
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [relations, setRelations] = useState<Record<string, RelationRef[]>>({});
  const [structured, setStructured] = useState<Record<string, unknown>>({});
  const [files, setFiles] = useState<Record<string, MediaFile[]>>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ error: unknown; what: string; action?: string } | undefined>();
  const [message, setMessage] = useState('');
  const [changed, setChanged] = useState<'updated' | 'deleted' | undefined>();
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  /** The locales this document has, and a version in another locale when it lacks the one asked for. */
  const [present, setPresent] = useState<string[] | undefined>();
  const [source, setSource] = useState<Doc | undefined>();
  const saving = useRef(false);
  const loadedAt = useRef<string | undefined>(undefined);

  const targetOf = (uid: string | undefined) => model.types.find((t) => t.uid === uid);
  const isEditable = (a: Attribute) =>
    EDITABLE.has(a.type) || STRUCTURED.has(a.type) || a.type === 'relation' || a.type === 'media';
  const editable = Object.entries(type.attributes).filter(([, a]) => isEditable(a));
  const kept = Object.entries(type.attributes).filter(([, a]) => !isEditable(a));
  const docPath = single ? endpoint(type) : `${endpoint(type)}/${documentId}`;

  const fill = (d: Doc | undefined) => {
    const form = formOf(editable, targetOf, d);
    setValues(form.values);
    setRelations(form.relations);
    setStructured(form.structured);
    setFiles(form.files);
    setTouched(new Set());
    setErrors({});
    setChanged(undefined);
    setDoc(d);
    loadedAt.current = d?.updatedAt;
  };

  /** The draft (every document has one) and its status. */
  const readDraft = async (inLocale = locale): Promise<Doc | undefined> => {
    try {
      const status = type.draftAndPublish ? 'draft' : undefined;
      const populate = populateParams(model, type.attributes);
      if (type.localized) populate['populate[localizations][fields][0]'] = 'locale';
      const { data } = await api<{ data: Doc }>('GET', `${docPath}${query({ status, locale: inLocale, ...populate })}`);
      return data;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  /**
   * Reads the document into the form. After a save (`editsAtSave`, the edit count when it was sent), a form edited
   * meanwhile keeps what was typed: only the version it stands on is the one read.
   */
  const load = async (editsAtSave?: number) => {
    try {
      const d = await readDraft();
      // A document missing in this locale may exist in another: the form then creates this locale's version.
      let other: Doc | undefined;
      if (!d && type.localized)
        for (const l of model.locales) if (l.code !== locale && (other = await readDraft(l.code))) break;
      setMissing(!d && !other && !single);
      setSource(other);
      const found = d ?? other;
      setPresent(found ? [String(found.locale), ...localesOf(found)] : undefined);
      if (d && editsAtSave !== undefined && edits.current !== editsAtSave) {
        setDoc(d);
        loadedAt.current = d.updatedAt;
      } else {
        fill(d ?? (other && sharedOnly(other)));
        if (!d) loadedAt.current = undefined;
      }
      setStatus(d ? (await statusesOf(type, [d], locale)).get(d.documentId) : undefined);
      setFailure(undefined);
    } catch (err) {
      setFailure({
        error: err,
        what: `read this ${type.displayName}`,
        action: `${type.uid}.find${single ? '' : 'One'}`,
      });
    }
  };

  // The form shows once its document is read, so nothing typed before is overwritten by the read.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(false);
    if (isNew) {
      fill(undefined);
      setReady(true);
    } else void load().finally(() => setReady(true));
    setMessage(flash.take());
  }, [type.uid, documentId, locale]);

  // A change to this document from elsewhere (another editor, the CLI, its file edited or pulled) is announced;
  // this editor's own saves are told apart by the draft's updatedAt, which the save has already read back.
  useEffect(
    () =>
      onLiveEvent(async (e) => {
        if (isNew || saving.current || e.uid !== type.uid) return;
        if (!single && e.documentId !== documentId) return;
        if (locale && e.locale && e.locale !== locale) return;
        if (e.event === 'entry.delete' && !single) return setChanged('deleted');
        const current = await readDraft().catch(() => undefined);
        if (saving.current) return;
        if (!current) setChanged('deleted');
        else if (current.updatedAt !== loadedAt.current) setChanged('updated');
      }),
    [type.uid, documentId, locale],
  );

  const edits = useRef(0);
  const touch = (name: string) => {
    edits.current++;
    setTouched((t) => new Set(t).add(name));
    if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest);
  };
  const change = (name: string, value: FormValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    touch(name);
    // A new document's uid follows its target field until the editor writes the uid themselves.
    if (isNew)
      for (const [uidName, a] of editable)
        if (a.type === 'uid' && a.targetField === name && !ownUid.current.has(uidName)) {
          setValues((v) => ({ ...v, [uidName]: slugify(String(value)) }));
          touch(uidName);
        }
  };
  const ownUid = useRef(new Set<string>());

  const save = async (action: Action) => {
    const editsAtSave = edits.current;
    const { data, problems } = payloadOf(type, model, touched, { values, relations, structured, files });
    if (Object.keys(problems).length) {
      setErrors(problems);
      setMessage('Nothing was saved: correct the fields marked below.');
      document.getElementById(`field-${Object.keys(problems)[0]}`)?.focus();
      return;
    }
    const status = action === 'draft' ? 'draft' : undefined;
    setBusy(true);
    saving.current = true;
    setMessage('');
    setFailure(undefined);
    try {
      let saved: Doc;
      if (isNew) {
        ({ data: saved } = await api<{ data: Doc }>('POST', `${endpoint(type)}${query({ status, locale })}`, { data }));
      } else {
        ({ data: saved } = await api<{ data: Doc }>('PUT', `${docPath}${query({ status, locale })}`, { data }));
      }
      const done = action === 'draft' ? 'Draft saved.' : action === 'publish' ? 'Published.' : 'Saved.';
      setMessage(done);
      if (isNew) {
        flash.set(done);
        navigate(`${endpoint(type).replace('/api/', '/admin/content/')}/${saved.documentId}${query({ locale })}`, true);
      } else await load(editsAtSave);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.problems.length) {
        const at = errorsAt(err.problems);
        setErrors(at);
        setMessage(`Nothing was saved: ${err.message}`);
        const first = err.problems.find((p) => type.attributes[String(p.path[0])]);
        if (first) document.getElementById(`field-${String(first.path[0])}`)?.focus();
      } else {
        const verb = action === 'publish' ? 'publish' : 'save';
        setFailure({
          error: err,
          what: `${verb} this ${type.displayName}`,
          action: `${type.uid}.${isNew ? 'create' : 'update'}`,
        });
      }
    } finally {
      setBusy(false);
      saving.current = false;
    }
  };

  /** Unpublish or discard the draft: Folio's own routes, since Strapi's REST API has neither. */
  const transition = async (name: 'unpublish' | 'discard-draft') => {
    setBusy(true);
    saving.current = true;
    setMessage('');
    setFailure(undefined);
    try {
      const route = single ? type.singularName : `${type.pluralName}/${documentId}`;
      await api('POST', `/_folio/content/${route}/${name}${query({ locale })}`);
      await load();
      setMessage(name === 'unpublish' ? 'Unpublished: the draft is kept.' : 'Draft discarded.');
    } catch (err) {
      const what = `${name === 'unpublish' ? 'unpublish' : 'discard the draft of'} this ${type.displayName}`;
      setFailure({ error: err, what, action: `${type.uid}.update` });
    } finally {
      setBusy(false);
      saving.current = false;
    }
  };

  /** The attributes one locale's version has of its own (the others are shared by all locales). */
  const localizedNames = editable.filter(([, a]) => a.pluginOptions?.i18n?.localized !== false).map(([n]) => n);
  const sharedOnly = (d: Doc): Doc => {
    const out = { ...d };
    for (const n of localizedNames) delete out[n];
    return out;
  };
  /** Fills this locale's form from the other version: its localized fields are then saved with the form. */
  const copyFrom = (d: Doc) => {
    fill(d);
    loadedAt.current = undefined;
    setDoc(undefined);
    setTouched(new Set(localizedNames));
  };
  const localeName = (code: string | undefined) => model.locales.find((l) => l.code === code)?.name ?? code;
  const typeHref = endpoint(type).replace('/api/', '/admin/content/');
  const here = `${typeHref}${isNew ? '/new' : single ? '' : `/${documentId}`}`;
  const localeHref = (code: string) => `${here}${query({ locale: code })}`;

  const [deleting, setDeleting] = useState(false);
  // A new locale's version is written with an update, as is any save of a document that exists.
  const mayWrite = model.can(`${type.uid}.${isNew ? 'create' : 'update'}`);
  const remove = async () => {
    setBusy(true);
    saving.current = true;
    try {
      await api('DELETE', `${docPath}${query({ locale })}`);
      flash.set(`Deleted the ${type.displayName}${locale ? ` (${locale})` : ''}.`);
      if (single) await load();
      else navigate(listHref!);
    } catch (err) {
      setFailure({ error: err, what: `delete this ${type.displayName}`, action: `${type.uid}.delete` });
    } finally {
      setBusy(false);
      setDeleting(false);
      saving.current = false;
    }
  };

  const listHref = single
    ? undefined
    : `/admin/content/${type.pluralName}${query({ locale: params.get('locale') ?? undefined })}`;
  const title = isNew ? `New ${type.displayName}` : type.displayName;
  const general = Object.entries(errors).filter(([name]) => !type.attributes[name]);

  if (missing) return <NotFound type={type} documentId={documentId} locale={locale} listHref={listHref} />;

  if (!ready) return <p>Loading…</p>;

  return (
    <section aria-labelledby="editor-title">
      <EditorHeader
        model={model}
        title={title}
        status={status}
        showStatus={type.draftAndPublish && !isNew}
        locale={locale}
        present={present}
        localeHref={localeHref}
        listHref={listHref}
      />
      {changed && (
        <ChangedNotice changed={changed} onReload={() => void load()} onDismiss={() => setChanged(undefined)} />
      )}
      {source && (
        <MissingLocaleNotice type={type} source={source} localeName={localeName} locale={locale} onCopy={copyFrom} />
      )}
      <ErrorNotice error={failure?.error} what={failure?.what ?? ''} action={failure?.action} />
      <p class="message" role="status" aria-live="polite">
        {message}
      </p>
      <GeneralErrors general={general} />
      {!mayWrite && !model.readOnly && (
        <p class="notice info">
          Your role may read this {type.displayName} but not {isNew ? 'create' : 'change'} it.
        </p>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (mayWrite) void save(type.draftAndPublish ? 'draft' : 'save');
        }}
      >
        <fieldset class="plain" disabled={!mayWrite}>
          <EditorFields
            model={model}
            editable={editable}
            form={{ values, relations, structured, files }}
            errors={errors}
            locale={locale}
            targetOf={targetOf}
            onStructured={(name, v) => {
              setStructured((st) => ({ ...st, [name]: v }));
              touch(name);
            }}
            onFiles={(name, v) => {
              setFiles((f) => ({ ...f, [name]: v }));
              touch(name);
            }}
            onRelations={(name, v) => {
              setRelations((r) => ({ ...r, [name]: v }));
              touch(name);
            }}
            onValue={(name, attr, v) => {
              if (attr.type === 'uid') ownUid.current.add(name);
              change(name, v);
            }}
            onGenerate={change}
          />
          <KeptFields kept={kept.map(([n]) => n)} doc={doc} />
        </fieldset>
        <EditorActions
          type={type}
          mayWrite={mayWrite}
          mayDelete={!isNew && !!doc && !source && model.can(`${type.uid}.delete`)}
          busy={busy}
          status={status}
          deleting={deleting}
          onPublish={() => void save('publish')}
          onTransition={(name) => void transition(name)}
          onDeleting={setDeleting}
          onDelete={() => void remove()}
        />
      </form>
    </section>
  );
}
