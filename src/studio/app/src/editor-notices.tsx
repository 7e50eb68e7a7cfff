import type { ContentType } from './model';
import { Link } from './router';
import type { Doc } from './status';

/** A document this address names that does not exist. */
export function NotFound(props: { type: ContentType; documentId?: string; locale?: string; listHref?: string }) {
  const { type, documentId, locale, listHref } = props;
  return (
    <section>
      <h1>{type.displayName} not found</h1>
      <p>
        There is no {type.displayName} {documentId}
        {locale ? ` in ${locale}` : ''}. {listHref && <Link href={listHref}>Back to the list</Link>}
      </p>
    </section>
  );
}

/** The document was changed or deleted outside this editor while it was open. */
export function ChangedNotice(props: { changed: 'updated' | 'deleted'; onReload(): void; onDismiss(): void }) {
  const { changed } = props;
  return (
    <div class="notice warning" role="alert">
      <p>
        {changed === 'deleted'
          ? 'This document was deleted outside this editor.'
          : 'This document was changed outside this editor (by someone else, the CLI or a change to its file).'}
      </p>
      {changed === 'updated' && (
        <button type="button" onClick={props.onReload}>
          Reload it (drops your unsaved changes)
        </button>
      )}
      <button type="button" onClick={props.onDismiss}>
        Keep editing
      </button>
    </div>
  );
}

/** This locale has no version of the document yet; another locale's can fill the form. */
export function MissingLocaleNotice(props: {
  type: ContentType;
  source: Doc;
  localeName(code: string | undefined): string | undefined;
  locale?: string;
  onCopy(d: Doc): void;
}) {
  const { type, source, localeName, locale } = props;
  return (
    <div class="notice info">
      <p>
        This {type.displayName} has no {localeName(locale)} version yet: saving this form creates it.
      </p>
      <button type="button" onClick={() => props.onCopy(source)}>
        Fill it from {localeName(String(source.locale))}
      </button>
    </div>
  );
}

/** Errors the API gave for no field of the form. */
export function GeneralErrors({ general }: { general: [string, string][] }) {
  if (!general.length) return null;
  return (
    <ul class="field-error">
      {general.map(([name, text]) => (
        <li>
          {name ? `${name}: ` : ''}
          {text}
        </li>
      ))}
    </ul>
  );
}

/** The fields the Studio does not edit, shown as they are stored (a save keeps them). */
export function KeptFields({ kept, doc }: { kept: string[]; doc: Doc | undefined }) {
  if (!kept.length) return null;
  return (
    <details class="kept">
      <summary>Fields this version of the Studio does not edit ({kept.join(', ')})</summary>
      <p>They are kept as they are when you save. Edit them with the CLI or in the files for now.</p>
      <pre>{JSON.stringify(Object.fromEntries(kept.map((n) => [n, doc?.[n] ?? null])), null, 2)}</pre>
    </details>
  );
}
