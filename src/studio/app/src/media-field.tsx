import { useState } from 'preact/hooks';
import { api, ApiError, session, sessionOrEnded } from './api';
import type { Attribute } from './model';
import { FieldError } from './field-error';
import { hintOf, labelOf } from './labels';

/** A file of the media library, as the upload API answers it. */
export interface MediaFile {
  id: number;
  name: string;
  mime: string;
  url: string;
  alternativeText?: string | null;
  formats?: { thumbnail?: { url: string } } | null;
}

export const toFiles = (value: unknown): MediaFile[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter(
    (f): f is MediaFile => !!f && typeof f === 'object' && typeof (f as MediaFile).id === 'number',
  );

/** Whether a file is of the kinds a media attribute allows (`images`, `videos`, `audios`, `files`). */
function allowed(attr: Attribute, file: MediaFile): boolean {
  const kinds = attr.allowedTypes;
  if (!kinds?.length) return true;
  const kind = /^image\//.test(file.mime)
    ? 'images'
    : /^video\//.test(file.mime)
      ? 'videos'
      : /^audio\//.test(file.mime)
        ? 'audios'
        : 'files';
  return kinds.includes(kind);
}

const ACCEPT: Record<string, string> = { images: 'image/*', videos: 'video/*', audios: 'audio/*' };

function Thumb({ file }: { file: MediaFile }) {
  return file.mime.startsWith('image/') ? (
    // The file's name is written beside it: the alt says what the image shows, or nothing.
    <img
      src={file.formats?.thumbnail?.url ?? file.url}
      alt={file.alternativeText && file.alternativeText !== file.name ? file.alternativeText : ''}
      loading="lazy"
    />
  ) : (
    <span class="file-kind" aria-hidden="true">
      {file.mime.split('/')[1] ?? 'file'}
    </span>
  );
}

/**
 * A media attribute: its file (or files, in order), a file uploaded from the computer through `/api/upload`, or
 * one picked from the library (`/api/upload/files`), of the kinds the attribute allows.
 */
export function MediaField(props: {
  name: string;
  /** The field's id and the path its controls name, when the name is not unique on the page (in components). */
  path?: string;
  /** The field's label (default: the attribute's). */
  label?: string;
  attr: Attribute;
  value: MediaFile[];
  error?: string;
  onChange(value: MediaFile[]): void;
}) {
  const { name, attr, value, error, onChange } = props;
  const many = attr.multiple === true;
  const path = props.path ?? name;
  const id = `field-${path}`;
  const label = props.label ?? labelOf(name, attr);
  const hidden = <span class="visually-hidden"> ({path})</span>;
  const [library, setLibrary] = useState<MediaFile[] | undefined>();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const add = (files: MediaFile[]) => {
    const ok = files.filter((f) => allowed(attr, f));
    if (ok.length < files.length) setProblem(`${label} takes ${attr.allowedTypes?.join(', ')} only.`);
    if (ok.length) onChange(many ? [...value.filter((v) => !ok.some((f) => f.id === v.id)), ...ok] : [ok[0]]);
  };
  const explain = (err: unknown, what: string, action: string) =>
    setProblem(
      err instanceof ApiError && err.status === 403
        ? `Your role may not ${what} (it needs “plugin::upload.content-api.${action}”).`
        : `Could not ${what}: ${(err as Error).message}`,
    );

  const upload = async (list: FileList | null) => {
    if (!list?.length) return;
    setBusy(true);
    setProblem('');
    try {
      const form = new FormData();
      for (const f of Array.from(many ? list : [list[0]])) form.append('files', f);
      // The upload API takes multipart: fetch sets its boundary, so the call is made here rather than by api().
      const send = () =>
        fetch('/api/upload', { method: 'POST', headers: { authorization: `Bearer ${session.jwt ?? ''}` }, body: form });
      await sessionOrEnded();
      let res = await send();
      if (res.status === 401 && (await session.renew())) res = await send();
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
        throw new ApiError(res.status, 'Error', body.error?.message ?? res.statusText);
      }
      add((await res.json()) as MediaFile[]);
    } catch (err) {
      explain(err, 'upload files', 'upload');
    } finally {
      setBusy(false);
    }
  };

  const browse = async () => {
    setProblem('');
    try {
      const files = await api<MediaFile[]>('GET', '/api/upload/files?sort=createdAt:desc&limit=60');
      setLibrary(files.filter((f) => allowed(attr, f)));
    } catch (err) {
      explain(err, 'read the media library', 'find');
    }
  };

  const accept = attr.allowedTypes?.includes('files') ? undefined : attr.allowedTypes?.map((k) => ACCEPT[k]).join(',');
  return (
    <fieldset class="field media" id={id} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}>
      <legend>
        {label}
        {attr.required && <span aria-hidden="true"> *</span>}
      </legend>
      <p class="hint" id={`${id}-hint`}>
        {hintOf(attr)}
      </p>
      {value.length === 0 ? (
        <p class="empty">No file.</p>
      ) : (
        <ul class="files">
          {value.map((f) => (
            <li key={f.id}>
              <Thumb file={f} />
              <span>{f.name}</span>
              <button type="button" onClick={() => onChange(value.filter((v) => v.id !== f.id))}>
                Remove<span class="visually-hidden"> {f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="picker">
        <label for={`${id}-upload`}>
          Upload {many ? 'files' : 'a file'}
          {hidden}
        </label>
        <input
          id={`${id}-upload`}
          type="file"
          multiple={many}
          accept={accept}
          disabled={busy}
          onChange={(e) => {
            const input = e.currentTarget;
            void upload(input.files).then(() => (input.value = ''));
          }}
        />
        {busy && <p role="status">Uploading…</p>}
        <button type="button" onClick={() => void (library ? setLibrary(undefined) : browse())}>
          {library ? 'Close the library' : `Choose from the library`}
          {hidden}
        </button>
        {library && (
          <ul class="library" aria-label={`Media library (${path})`}>
            {library.length === 0 && <li>No file of these kinds yet.</li>}
            {library.map((f) => (
              <li key={f.id}>
                <button type="button" onClick={() => add([f])}>
                  <Thumb file={f} />
                  <span>{f.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {problem && <p class="field-error">{problem}</p>}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
