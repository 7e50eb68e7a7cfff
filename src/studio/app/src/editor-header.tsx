import type { ContentType, Model } from './model';
import { Link, navigate } from './router';

/** The editor's title (the entry's own), its type with the way back to its list, and its locale with a switch. */
export function EditorHeader(props: {
  model: Model;
  type: ContentType;
  title: string;
  locale?: string;
  /** The locales the document has (the others are marked missing). */
  present?: string[];
  localeHref(code: string): string;
  listHref?: string;
  /** The document's history (from git), once it exists. */
  historyHref?: string;
  /** When the draft on screen was last changed. */
  updatedAt?: string;
}) {
  const { model, type, title, locale, present, listHref, historyHref } = props;
  return (
    <header class="bar editor-head">
      <div class="titles">
        {listHref ? (
          <Link href={listHref} class="crumb">
            <span aria-hidden="true">← </span>
            {type.displayName}
            <span class="visually-hidden">: back to the list</span>
          </Link>
        ) : (
          <span class="crumb">Single type</span>
        )}
        <h1 id="editor-title">{title}</h1>
        {props.updatedAt && (
          <p class="meta">
            Last changed{' '}
            <time dateTime={props.updatedAt}>
              {new Date(props.updatedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
            </time>
          </p>
        )}
      </div>
      {historyHref && (
        <Link href={historyHref} class="history-link">
          History
        </Link>
      )}
      {locale && model.locales.length > 1 ? (
        <label class="locale">
          Locale{' '}
          <select
            value={locale}
            onChange={(e) => {
              const to = e.currentTarget.value;
              // The switch shows this locale until the move is made (the user may choose to stay).
              e.currentTarget.value = locale;
              navigate(props.localeHref(to));
            }}
          >
            {model.locales.map((l) => (
              <option value={l.code}>
                {l.name}
                {present && !present.includes(l.code) ? ' (missing)' : ''}
              </option>
            ))}
          </select>
        </label>
      ) : (
        locale && <span class="locale">Locale: {locale}</span>
      )}
    </header>
  );
}
