import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import type { MediaFile } from './media-field';
import { ErrorNotice } from './notices';

/** A file of the library as the upload API lists it: `size` in kilobytes (1000 bytes), two decimals, as Strapi's. */
export interface LibraryFile extends MediaFile {
  caption?: string | null;
  size: number;
  width?: number | null;
  height?: number | null;
  createdAt?: string;
}

/** A size for people: bytes under a kilobyte, else kilobytes or megabytes (of 1000, as the API counts them). */
export function formatSize(kb: number, bytes?: number): string {
  const b = bytes ?? Math.round(kb * 1000);
  if (b < 1000) return `${b} ${b === 1 ? 'byte' : 'bytes'}`;
  if (kb < 1000) return `${kb < 100 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1000;
  return `${mb < 100 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/**
 * A file's size. The API's kilobytes keep two decimals, too coarse for a file of a few bytes: the size of one under
 * 10 KB is read from its own answer (a HEAD request), exact.
 */
function FileSize({ file }: { file: LibraryFile }) {
  const [bytes, setBytes] = useState<number | undefined>();
  useEffect(() => {
    if (file.size >= 10) return;
    let live = true;
    fetch(file.url, { method: 'HEAD' })
      .then((res) => {
        const length = Number(res.headers.get('content-length'));
        if (live && res.ok && Number.isFinite(length)) setBytes(length);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [file.url, file.size]);
  return <>{formatSize(file.size, bytes)}</>;
}

/** What the library's form holds of a file's texts, as typed. */
export interface FileTexts {
  alternativeText: string;
  caption: string;
}

/** A file's texts as stored. */
export const storedTexts = (file: LibraryFile): FileTexts => ({
  alternativeText: file.alternativeText ?? '',
  caption: file.caption ?? '',
});

/**
 * One file: its preview, alt text and caption (saved through `POST /api/upload?id=`), and delete. What is typed
 * is the library's (`typed`, undefined when nothing is), so a search that hides the card keeps it.
 */
export function FileCard(props: {
  file: LibraryFile;
  mayEdit: boolean;
  mayDelete: boolean;
  typed: FileTexts | undefined;
  onType(texts: FileTexts): void;
  onSaved(texts: FileTexts): void;
  onChanged(): void;
}) {
  const { file, mayEdit, mayDelete, onChanged } = props;
  const texts = props.typed ?? storedTexts(file);
  const [state, setState] = useState('');
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState(false);
  const id = `file-${file.id}`;
  const type = (change: Partial<FileTexts>) => {
    setState('');
    props.onType({ ...texts, ...change });
  };
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
        <a href={file.url}>{file.name}</a>
      </p>
      <p class="kind">
        <FileSize file={file} />
        {file.width && file.height ? `, ${file.width} × ${file.height} px` : ''}
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const sent = texts;
          try {
            await api('POST', `/api/upload?id=${file.id}`, {
              fileInfo: { alternativeText: sent.alternativeText || null, caption: sent.caption || null },
            });
            props.onSaved(sent);
            setState('Saved.');
            setError(undefined);
          } catch (err) {
            setError(err);
          }
        }}
      >
        <fieldset class="plain" disabled={!mayEdit}>
          <label for={`${id}-alt`}>Alt text</label>
          <input
            id={`${id}-alt`}
            value={texts.alternativeText}
            onInput={(e) => type({ alternativeText: e.currentTarget.value })}
          />
          <label for={`${id}-caption`}>Caption</label>
          <input id={`${id}-caption`} value={texts.caption} onInput={(e) => type({ caption: e.currentTarget.value })} />
          {mayEdit && (
            <button type="submit">
              Save<span class="visually-hidden"> {file.name}</span>
            </button>
          )}
        </fieldset>
      </form>
      <p role="status">{props.typed ? 'Unsaved changes' : state}</p>
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
