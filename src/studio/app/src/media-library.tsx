import { useEffect, useState } from 'preact/hooks';
import { api, session } from './api';
import type { MediaFile } from './media-field';
import type { Model } from './model';
import { ErrorNotice } from './notices';

interface LibraryFile extends MediaFile {
  caption?: string | null;
  size: number;
}

/** Sends files to `/api/upload` with XMLHttpRequest, the one browser API that reports upload progress. */
function uploadWithProgress(files: File[], onProgress: (share: number) => void): Promise<LibraryFile[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload');
    xhr.setRequestHeader('authorization', `Bearer ${session.jwt ?? ''}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as LibraryFile[]);
      else reject(new Error((body as { error?: { message?: string } })?.error?.message ?? `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('The Folio server cannot be reached'));
    xhr.send(form);
  });
}

/** One file: its preview, alt text and caption (saved through `POST /api/upload?id=`), and delete. */
function FileCard(props: { file: LibraryFile; mayEdit: boolean; mayDelete: boolean; onChanged(): void }) {
  const { file, mayEdit, mayDelete, onChanged } = props;
  const [alt, setAlt] = useState(file.alternativeText ?? '');
  const [caption, setCaption] = useState(file.caption ?? '');
  const [state, setState] = useState('');
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState(false);
  const id = `file-${file.id}`;
  return (
    <li class="card">
      {file.mime.startsWith('image/') ? (
        <img src={file.formats?.thumbnail?.url ?? file.url} alt={file.alternativeText || file.name} loading="lazy" />
      ) : (
        <span class="file-kind" aria-hidden="true">
          {file.mime.split('/')[1] ?? 'file'}
        </span>
      )}
      <p class="name">
        <a href={file.url}>{file.name}</a> <span class="kind">({Math.round(file.size)} KB)</span>
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await api('POST', `/api/upload?id=${file.id}`, {
              fileInfo: { alternativeText: alt || null, caption: caption || null },
            });
            setState('Saved.');
            setError(undefined);
          } catch (err) {
            setError(err);
          }
        }}
      >
        <fieldset class="plain" disabled={!mayEdit}>
          <label for={`${id}-alt`}>Alt text</label>
          <input id={`${id}-alt`} value={alt} onInput={(e) => setAlt(e.currentTarget.value)} />
          <label for={`${id}-caption`}>Caption</label>
          <input id={`${id}-caption`} value={caption} onInput={(e) => setCaption(e.currentTarget.value)} />
          {mayEdit && (
            <button type="submit">
              Save<span class="visually-hidden"> {file.name}</span>
            </button>
          )}
        </fieldset>
      </form>
      <p role="status">{state}</p>
      <ErrorNotice error={error} what={`change ${file.name}`} action="plugin::upload.content-api.upload" />
      {mayDelete &&
        (confirming ? (
          <p>
            <button
              type="button"
              class="danger"
              onClick={async () => {
                try {
                  await api('DELETE', `/api/upload/files/${file.id}`);
                  onChanged();
                } catch (err) {
                  setError(err);
                }
              }}
            >
              Delete {file.name} for good
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </p>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Delete<span class="visually-hidden"> {file.name}</span>
          </button>
        ))}
    </li>
  );
}

/** The media library: every file as a card, upload by picking or dropping files, with progress. */
export function MediaLibrary({ model }: { model: Model }) {
  const [files, setFiles] = useState<LibraryFile[] | undefined>();
  const [error, setError] = useState<{ error: unknown; what: string; action: string } | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [over, setOver] = useState(false);
  const [reloads, setReloads] = useState(0);
  const mayUpload = model.can('plugin::upload.content-api.upload');
  const mayDelete = model.can('plugin::upload.content-api.destroy');

  useEffect(() => {
    api<LibraryFile[]>('GET', '/api/upload/files?sort=createdAt:desc').then(setFiles, (err) =>
      setError({ error: err, what: 'read the media library', action: 'plugin::upload.content-api.find' }),
    );
  }, [reloads]);

  const upload = async (list: File[]) => {
    if (!list.length) return;
    setProgress(0);
    try {
      await uploadWithProgress(list, setProgress);
      setError(undefined);
    } catch (err) {
      setError({ error: err, what: 'upload', action: 'plugin::upload.content-api.upload' });
    } finally {
      setProgress(undefined);
      setReloads((n) => n + 1);
    }
  };

  return (
    <section aria-labelledby="media-title">
      <header class="bar">
        <h1 id="media-title">Media library</h1>
      </header>
      {mayUpload && (
        <div
          class={`dropzone${over ? ' over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            void upload(Array.from(e.dataTransfer?.files ?? []));
          }}
        >
          <label for="media-upload">Upload files (or drop them here)</label>
          <input
            id="media-upload"
            type="file"
            multiple
            onChange={(e) => {
              const input = e.currentTarget;
              void upload(Array.from(input.files ?? [])).then(() => (input.value = ''));
            }}
          />
          {progress !== undefined && (
            <progress max={1} value={progress} aria-label="Upload progress">
              {Math.round(progress * 100)}%
            </progress>
          )}
        </div>
      )}
      <ErrorNotice error={error?.error} what={error?.what ?? ''} action={error?.action} />
      {files && files.length === 0 && <p>No file yet.</p>}
      {files && (
        <ul class="cards">
          {files.map((f) => (
            <FileCard
              key={f.id}
              file={f}
              mayEdit={mayUpload}
              mayDelete={mayDelete}
              onChanged={() => setReloads((n) => n + 1)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
