import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import type { Failure } from './editor-actions';
import { onLiveEvent } from './live';
import { endpoint, populateParams, type ContentType, type Model } from './model';
import { readDocumentState, statusIn, type Doc, type Status } from './status';
import type { useEditorForm } from './use-editor-form';

/**
 * The document an editor shows: read as a draft (with its status, the locales it has, a version in another locale
 * when it lacks this one, and which private fields hold a value) into the form, and watched for changes made
 * elsewhere while it is open.
 */
export function useDocument(opts: {
  type: ContentType;
  model: Model;
  documentId?: string;
  locale?: string;
  form: ReturnType<typeof useEditorForm>;
  /** The attributes one locale's version has of its own (the others are shared by all locales). */
  localizedNames: string[];
  onFailure(failure: Failure | undefined): void;
}) {
  const { type, model, documentId, locale, form, localizedNames, onFailure } = opts;
  const single = type.kind === 'singleType';
  const isNew = !single && documentId === undefined;
  const docPath = single ? endpoint(type) : `${endpoint(type)}/${documentId}`;
  const [doc, setDoc] = useState<Doc | undefined>();
  const [status, setStatus] = useState<Status | undefined>();
  const [changed, setChanged] = useState<'updated' | 'deleted' | undefined>();
  const [missing, setMissing] = useState(false);
  const [present, setPresent] = useState<string[] | undefined>();
  const [source, setSource] = useState<Doc | undefined>();
  // The form shows once its document is read, so nothing typed before is overwritten by the read.
  const [ready, setReady] = useState(false);
  /** While this editor saves: its own writes are not news from elsewhere. */
  const saving = useRef(false);
  /** The updatedAt of the draft the form stands on. */
  const loadedAt = useRef<string | undefined>(undefined);

  const fill = (d: Doc | undefined) => {
    form.fill(d);
    setChanged(undefined);
    setDoc(d);
    loadedAt.current = d?.updatedAt;
  };

  /** The draft (every document has one), or undefined when there is none in that locale. */
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

  const sharedOnly = (d: Doc): Doc => {
    const out = { ...d };
    for (const n of localizedNames) delete out[n];
    return out;
  };

  /**
   * Reads the document into the form. After a save (`editsAtSave`, the edit count when it was sent), a form edited
   * meanwhile keeps what was typed: only the version it stands on is the one read.
   */
  const load = async (editsAtSave?: number) => {
    try {
      // What the document has is asked first: a version missing in this locale is then never asked for (a 404).
      const state = await readDocumentState(type, documentId, locale);
      const d = state.locales[locale ?? ''] ? await readDraft() : undefined;
      // A document missing in this locale may exist in another: the form then creates this locale's version.
      const otherCode = d ? undefined : model.locales.map((l) => l.code).find((c) => c !== locale && state.locales[c]);
      const other = otherCode ? await readDraft(otherCode) : undefined;
      setMissing(!d && !other && !single);
      setSource(other);
      setPresent(type.localized && state.exists ? Object.keys(state.locales) : undefined);
      if (d && editsAtSave !== undefined && form.edits.current !== editsAtSave) {
        setDoc(d);
        loadedAt.current = d.updatedAt;
      } else {
        fill(d ?? (other && sharedOnly(other)));
        if (!d) loadedAt.current = undefined;
      }
      form.setPrivateSet(d ? (state.private ?? {}) : {});
      setStatus(d ? statusIn(type, state, locale) : undefined);
      onFailure(undefined);
    } catch (err) {
      onFailure({
        error: err,
        what: `read this ${type.displayName}`,
        action: `${type.uid}.find${single ? '' : 'One'}`,
      });
    }
  };

  useEffect(() => {
    setReady(false);
    if (isNew) {
      fill(undefined);
      setReady(true);
    } else void load().finally(() => setReady(true));
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
        const state = await readDocumentState(type, documentId, locale).catch(() => undefined);
        if (saving.current || !state) return;
        const draft = state.locales[locale ?? '']?.draft;
        if (!draft) setChanged('deleted');
        else if (draft !== loadedAt.current) setChanged('updated');
      }),
    [type.uid, documentId, locale],
  );

  /** Fills this locale's form from the other version: its localized fields are then saved with the form. */
  const copyFrom = (d: Doc) => {
    fill(d);
    loadedAt.current = undefined;
    setDoc(undefined);
    form.setTouched(new Set(localizedNames));
  };

  return {
    doc,
    status,
    changed,
    setChanged,
    missing,
    present,
    source,
    ready,
    saving,
    docPath,
    load,
    copyFrom,
  };
}
