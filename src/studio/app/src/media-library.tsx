import { useEffect, useRef, useState } from 'preact/hooks';
import { api, query, session, sessionOrEnded } from './api';
import { FileCard, storedTexts, type FileTexts, type LibraryFile } from './media-card';
import type { Model } from './model';
import { ErrorNotice } from './notices';
import { useLeaveGuard } from './router';

/** The orders the library can be shown in, as the upload API sorts. */
const SORTS: [string, string][] = [
  ['createdAt:desc', 'Newest first'],
  ['createdAt:asc', 'Oldest first'],
  ['name:asc', 'Name, A to Z'],
  ['name:desc', 'Name, Z to A'],
  ['size:desc', 'Largest first'],
  ['size:asc', 'Smallest first'],
];

/** The kinds of file the library can be narrowed to, by the start of their MIME type. */
const KINDS: [string, string][] = [
  ['', 'Every kind'],
  ['image/', 'Images'],
  ['video/', 'Videos'],
  ['audio/', 'Audio'],
  ['application/', 'Documents and other files'],
];

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

/**
 * The media library: every file as a card (searched by name, narrowed by kind, sorted on the server), and upload
 * by picking or dropping files, with progress.
 */
export function MediaLibrary({ model }: { model: Model }) {
  const [files, setFiles] = useState<LibraryFile[] | undefined>();
  const [error, setError] = useState<{ error: unknown; what: string; action: string } | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [over, setOver] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState(SORTS[0][0]);
  const [kind, setKind] = useState('');
  /** Alt texts and captions typed and not saved, by file id (with the file's name, for the question). */
  const [unsaved, setUnsavedState] = useState<Map<number, { name: string; texts: FileTexts }>>(new Map());
  // As in the editor: the guard reads what was typed the moment before, rendered or not.
  const unsavedNow = useRef(unsaved);
  const setUnsaved = (next: Map<number, { name: string; texts: FileTexts }>) => {
    unsavedNow.current = next;
    setUnsavedState(next);
  };
  /** Records what was typed for `file`: nothing once it is what the file holds. */
  const type = (file: LibraryFile, texts: FileTexts | undefined) => {
    const next = new Map(unsavedNow.current);
    const stored = storedTexts(file);
    if (!texts || (texts.alternativeText === stored.alternativeText && texts.caption === stored.caption))
      next.delete(file.id);
    else next.set(file.id, { name: file.name, texts });
    setUnsaved(next);
  };
  useLeaveGuard(() => {
    const names = [...unsavedNow.current.values()].map((t) => `“${t.name}”`);
    if (!names.length) return undefined;
    const of = names.length === 1 ? names[0] : names.length === 2 ? names.join(' and ') : `${names.length} files`;
    return `Your changes to the alt text or caption of ${of} are not saved.`;
  });
  const mayUpload = model.can('plugin::upload.content-api.upload');
  const mayDelete = model.can('plugin::upload.content-api.destroy');

  useEffect(() => {
    document.title = 'Media library · Folio Studio';
  }, []);
  useEffect(() => {
    let live = true;
    const params = { sort, _q: search, 'filters[mime][$startsWith]': kind || undefined };
    api<LibraryFile[]>('GET', `/api/upload/files${query(params)}`).then(
      (list) => live && setFiles(list),
      (err) =>
        live && setError({ error: err, what: 'read the media library', action: 'plugin::upload.content-api.find' }),
    );
    return () => {
      live = false;
    };
  }, [reloads, search, sort, kind]);

  const upload = async (list: File[]) => {
    if (!list.length) return;
    setProgress(0);
    try {
      await sessionOrEnded();
      await uploadWithProgress(list, setProgress);
      setError(undefined);
    } catch (err) {
      setError({ error: err, what: 'upload', action: 'plugin::upload.content-api.upload' });
    } finally {
      setProgress(undefined);
      setReloads((n) => n + 1);
    }
  };

  const narrowed = search !== '' || kind !== '';
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
      <div class="tools">
        <form
          role="search"
          aria-label="Search the media library"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(typed.trim());
          }}
        >
          <label for="media-search">Search by name</label>
          <input id="media-search" type="search" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          <button type="submit">Search</button>
        </form>
        <label>
          Kind{' '}
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {KINDS.map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Sort{' '}
          <select value={sort} onChange={(e) => setSort(e.currentTarget.value)}>
            {SORTS.map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={error?.error} what={error?.what ?? ''} action={error?.action} />
      <p class="message" role="status">
        {files && (narrowed ? `${files.length} ${files.length === 1 ? 'file matches' : 'files match'}.` : '')}
      </p>
      {files && files.length === 0 && <p>{narrowed ? 'No file matches.' : 'No file yet.'}</p>}
      {files && files.length > 0 && (
        <ul class="cards" aria-label="Files">
          {files.map((f) => (
            <FileCard
              key={f.id}
              file={f}
              mayEdit={mayUpload}
              mayDelete={mayDelete}
              typed={unsaved.get(f.id)?.texts}
              onType={(texts) => type(f, texts)}
              onSaved={(texts) => {
                // The card shows what was saved until the list is read again.
                setFiles((list) =>
                  list?.map((x) =>
                    x.id === f.id ? { ...x, alternativeText: texts.alternativeText, caption: texts.caption } : x,
                  ),
                );
                type(f, undefined);
              }}
              onChanged={() => {
                type(f, undefined);
                setReloads((n) => n + 1);
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
