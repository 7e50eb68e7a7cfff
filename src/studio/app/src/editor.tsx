import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import { EDITABLE, endpoint, type Attribute, type ContentType, type Model } from './model';
import { flash } from './flash';
import { GrantHint } from './grants';
import { EditorActions, focusField, type Failure, type Outcome } from './editor-actions';
import { EditorFields } from './editor-fields';
import { EditorHeader } from './editor-header';
import { ChangedNotice, GeneralErrors, KeptFields, MissingLocaleNotice, NotFound } from './editor-notices';
import { errorsAt, payloadOf, STRUCTURED } from './editor-payload';
import { mainField } from './relation-field';
import { navigate, useLeaveGuard } from './router';
import type { Doc } from './status';
import { useDocument } from './use-document';
import { useEditorForm } from './use-editor-form';
import { historyHref } from './history';

type Action = 'draft' | 'publish' | 'save';

const isEditable = (a: Attribute) =>
  EDITABLE.has(a.type) || STRUCTURED.has(a.type) || a.type === 'relation' || a.type === 'media';

/** The id of the first field of `keys` on the page, in the order the page shows them. */
function firstFieldId(keys: string[]): string | undefined {
  const found = keys.map((k) => document.getElementById(`field-${k}`)).filter((e): e is HTMLElement => !!e);
  found.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return found[0]?.id;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The form of one document (a collection's, or a single type's), saved through the REST API as a draft or
 * published. Only the fields the user changed are sent, so a save changes nothing else in the file; kinds without a
 * field yet are shown read-only and kept. The form is checked as the API would check it before anything is sent,
 * each problem at its field; and it is not left with unsaved changes without a question.
 */
export function Editor(props: { type: ContentType; model: Model; documentId?: string; params: URLSearchParams }) {
  const { type, model, documentId, params } = props;
  const single = type.kind === 'singleType';
  const isNew = !single && documentId === undefined;
  const defaultLocale = model.locales.find((l) => l.isDefault)?.code;
  const locale = type.localized ? (params.get('locale') ?? defaultLocale) : undefined;
  const [failure, setFailure] = useState<Failure | undefined>();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const targetOf = (uid: string | undefined) => model.types.find((t) => t.uid === uid);
  const editable = Object.entries(type.attributes).filter(([, a]) => isEditable(a));
  const kept = Object.entries(type.attributes).filter(([, a]) => !isEditable(a));
  const localizedNames = editable.filter(([, a]) => a.pluginOptions?.i18n?.localized !== false).map(([n]) => n);
  const form = useEditorForm({ model, editable, isNew, targetOf });
  const docState = useDocument({ type, model, documentId, locale, form, localizedNames, onFailure: setFailure });
  const { doc, status, source, saving, docPath, load } = docState;

  useEffect(() => {
    const message = flash.take();
    setOutcome(message ? { text: message, kind: 'done' } : undefined);
    setDeleting(false);
  }, [type.uid, documentId, locale]);

  const nameField = mainField(type);
  const savedName = doc && nameField ? String(doc[nameField] ?? '').trim() : '';
  const title = single
    ? type.displayName
    : isNew
      ? `New ${type.displayName}`
      : savedName || `Untitled ${type.displayName}`;
  useEffect(() => {
    document.title = `${title} · Folio Studio`;
  }, [title]);

  useLeaveGuard(() =>
    form.isDirty() && !saving.current
      ? `Your changes to ${single || isNew ? `this ${type.displayName}` : `“${title}”`} are not saved.`
      : undefined,
  );

  /** Says what stopped a save, at each field and in the bar, and takes the user to the first field. */
  const refuse = (problems: Record<string, string>, why?: string) => {
    form.setErrors(problems);
    const fieldId = firstFieldId(Object.keys(problems));
    const count = plural(Object.keys(problems).length, 'field needs', 'fields need');
    setOutcome({ text: `Nothing was saved: ${why ?? `${count} attention`}.`, kind: 'problem', fieldId });
    if (fieldId) focusField(undefined, fieldId);
  };

  const save = async (action: Action) => {
    const editsAtSave = form.edits.current;
    const publish = action !== 'draft';
    const checked = form.checkAll(publish);
    const { data, problems } = payloadOf(type, model, form.touchedNow(), form.formNow());
    Object.assign(checked, problems);
    if (Object.keys(checked).length) return refuse(checked);
    const status = action === 'draft' ? 'draft' : undefined;
    setBusy(true);
    saving.current = true;
    setOutcome(undefined);
    setFailure(undefined);
    try {
      const path = isNew ? endpoint(type) : docPath;
      const { data: saved } = await api<{ data: Doc }>(isNew ? 'POST' : 'PUT', `${path}${query({ status, locale })}`, {
        data,
      });
      const done = action === 'draft' ? 'Draft saved.' : action === 'publish' ? 'Published.' : 'Saved.';
      setOutcome({ text: done, kind: 'done' });
      if (isNew) {
        flash.set(done);
        const href = `${endpoint(type).replace('/api/', '/admin/content/')}/${saved.documentId}${query({ locale })}`;
        navigate(href, { replace: true, force: true });
      } else await load(editsAtSave);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.problems.length) {
        const at = errorsAt(err.problems, (p) => !!document.getElementById(`field-${p}`));
        refuse(at, `${plural(Object.keys(at).length, 'problem', 'problems')} found by the server`);
      } else {
        const verb = action === 'publish' ? 'publish' : 'save';
        const what = `${verb} this ${type.displayName}`;
        setFailure({ error: err, what, action: `${type.uid}.${isNew ? 'create' : 'update'}` });
      }
    } finally {
      setBusy(false);
      saving.current = false;
    }
  };

  /** Runs one of the document's other actions, saying its outcome in the bar. */
  const act = async (run: () => Promise<string | undefined>, failed: Failure) => {
    setBusy(true);
    saving.current = true;
    setOutcome(undefined);
    setFailure(undefined);
    try {
      const text = await run();
      if (text) setOutcome({ text, kind: 'done' });
    } catch (err) {
      setFailure({ ...failed, error: err });
    } finally {
      setBusy(false);
      setDeleting(false);
      saving.current = false;
    }
  };

  /** Unpublish or discard the draft: Folio's own routes, since Strapi's REST API has neither. */
  const transition = (name: 'unpublish' | 'discard-draft') =>
    act(
      async () => {
        const route = single ? type.singularName : `${type.pluralName}/${documentId}`;
        await api('POST', `/_folio/content/${route}/${name}${query({ locale })}`);
        await load();
        return name === 'unpublish' ? 'Unpublished: the draft is kept.' : 'Draft discarded.';
      },
      {
        error: undefined,
        what: `${name === 'unpublish' ? 'unpublish' : 'discard the draft of'} this ${type.displayName}`,
        action: `${type.uid}.update`,
      },
    );

  const listHref = single
    ? undefined
    : `/admin/content/${type.pluralName}${query({ locale: params.get('locale') ?? undefined })}`;
  const remove = () =>
    act(
      async () => {
        await api('DELETE', `${docPath}${query({ locale })}`);
        const done = `Deleted the ${type.displayName}${locale ? ` (${locale})` : ''}.`;
        if (!single) {
          flash.set(done);
          navigate(listHref!, { force: true });
          return undefined;
        }
        await load();
        return done;
      },
      { error: undefined, what: `delete this ${type.displayName}`, action: `${type.uid}.delete` },
    );

  const savedId = isNew ? undefined : (documentId ?? doc?.documentId);
  /** "Generate from …": a value no other document holds (the server's), else the slug made here. */
  const generateUid = async (name: string, slug: string) => {
    const target = (type.attributes[name] as { targetField?: string }).targetField;
    try {
      const { data } = await api<{ data: string }>('POST', `/_folio/uid/generate${query({ locale })}`, {
        contentTypeUID: type.uid,
        field: name,
        data: target ? { [target]: form.form.values[target] ?? '' } : {},
        documentId: savedId,
      });
      form.setValue(name, data);
    } catch {
      form.setValue(name, slug);
    }
  };
  const localeName = (code: string | undefined) => model.locales.find((l) => l.code === code)?.name ?? code;
  const typeHref = endpoint(type).replace('/api/', '/admin/content/');
  const here = `${typeHref}${isNew ? '/new' : single ? '' : `/${documentId}`}`;
  const localeHref = (code: string) => `${here}${query({ locale: code })}`;
  // A new locale's version is written with an update, as is any save of a document that exists.
  const mayWrite = model.can(`${type.uid}.${isNew ? 'create' : 'update'}`);
  const general = Object.entries(form.errors).filter(([key]) => !type.attributes[key.split('.')[0]]);

  if (docState.missing) return <NotFound type={type} documentId={documentId} locale={locale} listHref={listHref} />;
  if (!docState.ready) return <p>Loading…</p>;

  return (
    <section aria-labelledby="editor-title" class="editor">
      <EditorHeader
        model={model}
        type={type}
        title={title}
        locale={locale}
        present={docState.present}
        localeHref={localeHref}
        listHref={listHref}
        historyHref={savedId ? historyHref(type, savedId, { locale }) : undefined}
        updatedAt={doc?.updatedAt}
      />
      {docState.changed && (
        <ChangedNotice
          changed={docState.changed}
          onReload={() => void load()}
          onDismiss={() => docState.setChanged(undefined)}
        />
      )}
      {source && (
        <MissingLocaleNotice
          type={type}
          source={source}
          localeName={localeName}
          locale={locale}
          onCopy={docState.copyFrom}
        />
      )}
      {!mayWrite && !model.readOnly && (
        <div class="notice info">
          <p>
            Your role may read this {type.displayName} but not {isNew ? 'create' : 'change'} it.
          </p>
          <GrantHint actions={[`${type.uid}.${isNew ? 'create' : 'update'}`]} />
        </div>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (mayWrite) void save(type.draftAndPublish ? 'draft' : 'save');
        }}
        onKeyDown={(e) => {
          // Ctrl+S (Cmd+S) saves, as in a desktop editor, rather than saving the page as a file.
          if (e.key.toLowerCase() !== 's' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
          e.preventDefault();
          if (mayWrite && !busy && (isNew || form.isDirty())) void save(type.draftAndPublish ? 'draft' : 'save');
        }}
      >
        <fieldset class="plain" disabled={!mayWrite}>
          <EditorFields
            model={model}
            editable={editable}
            form={form.form}
            errors={form.errors}
            privateSet={form.privateSet}
            locale={locale}
            targetOf={targetOf}
            onStructured={form.setStructured}
            onFiles={form.setFiles}
            onRelations={form.setRelations}
            onValue={(name, attr, v) => form.setValue(name, v, attr.type === 'uid')}
            onSecret={form.setSecret}
            onGenerate={(name, v) => void generateUid(name, v)}
          />
          <KeptFields kept={kept.map(([n]) => n)} doc={doc} />
        </fieldset>
        <GeneralErrors general={general} />
        <EditorActions
          type={type}
          mayWrite={mayWrite}
          mayDelete={!isNew && !!doc && !source && model.can(`${type.uid}.delete`)}
          busy={busy}
          dirty={form.dirty}
          isNew={isNew}
          status={status}
          deleting={deleting}
          outcome={outcome}
          failure={failure}
          onPublish={() => void save('publish')}
          onTransition={(name) => void transition(name)}
          onDeleting={setDeleting}
          onDelete={() => void remove()}
        />
      </form>
    </section>
  );
}
