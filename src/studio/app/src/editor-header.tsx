import type { Model } from './model';
import { Link, navigate } from './router';
import type { Status } from './status';

/** The editor's title, the document's status, its locale (with a switch to the others) and the way back. */
export function EditorHeader(props: {
  model: Model;
  title: string;
  status: Status | undefined;
  showStatus: boolean;
  locale?: string;
  /** The locales the document has (the others are marked missing). */
  present?: string[];
  localeHref(code: string): string;
  listHref?: string;
}) {
  const { model, title, status, locale, present, listHref } = props;
  return (
    <header class="bar">
      <h1 id="editor-title">{title}</h1>
      {props.showStatus && status && <span class={`status ${status}`}>{status}</span>}
      {locale && model.locales.length > 1 ? (
        <label class="locale">
          Locale{' '}
          <select value={locale} onChange={(e) => navigate(props.localeHref(e.currentTarget.value))}>
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
      {listHref && <Link href={listHref}>Back to the list</Link>}
    </header>
  );
}
