import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import { flash } from './flash';
import { GitSetupBanner, useGitState } from './git-setup';
import { labelOf, readable } from './labels';
import type { ContentType, Model } from './model';
import { Link, navigate } from './router';

/** One commit of a document's file (`GET /_folio/history/:type/:documentId`). */
interface Entry {
  commit: string;
  /** The e-mail only for a caller who may read users' addresses. */
  author: { name: string; email?: string };
  date: string;
  message: string;
}

/** A field that differs between the document at a commit and now. */
interface Change {
  path: string;
  then: unknown;
  now: unknown;
}

type Version = Record<string, unknown>;
type Body = { locales?: Record<string, Record<string, Version>> } & Record<string, unknown>;

/** The address of a document's history in the Studio (`commit`: one of its commits, shown). */
export const historyHref = (type: ContentType, documentId: string, params: { locale?: string; commit?: string }) =>
  `/admin/history/${type.kind === 'singleType' ? type.singularName : type.pluralName}/${documentId}${query(params)}`;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A value on one line, shortened: what a cell of the history shows of a field. */
function shown(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * A document's history from git: who changed it, when and why (each commit's message), the document as a commit
 * held it, its fields that differ now, and a restore of the locale's draft to that commit's values (a save like
 * any other: committed too when the server commits).
 */
export function History(props: { type: ContentType; model: Model; documentId: string; params: URLSearchParams }) {
  const { type, model, documentId, params } = props;
  const locale = type.localized
    ? (params.get('locale') ?? model.locales.find((l) => l.isDefault)?.code ?? undefined)
    : undefined;
  const commit = params.get('commit') ?? undefined;
  const slug = type.kind === 'singleType' ? type.singularName : type.pluralName;
  const base = `/_folio/history/${slug}/${documentId}`;
  const [entries, setEntries] = useState<Entry[] | undefined>();
  const [shownAt, setShownAt] = useState<(Entry & { document: Body; changes: Change[] }) | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // Outside a repository there is no history to ask for: the banner says how to start one.
  const git = useGitState();
  const inGit = git?.repository;

  useEffect(() => {
    setProblem(undefined);
    if (!inGit) return;
    api<{ data: Entry[] }>('GET', `${base}${query({ limit: 100 })}`).then(
      (r) => setEntries(r.data),
      (err: Error) => setProblem(err.message),
    );
  }, [base, inGit]);
  useEffect(() => {
    setShownAt(undefined);
    if (!commit || !inGit) return;
    api<{ data: Entry & { document: Body; changes: Change[] } }>('GET', `${base}/${commit}`).then(
      (r) => setShownAt(r.data),
      (err: Error) => setProblem(err.message),
    );
  }, [base, commit, inGit]);

  const editorHref = `/admin/content/${slug}${type.kind === 'singleType' ? '' : `/${documentId}`}${query({ locale })}`;
  const mayRestore = model.can(`${type.uid}.update`) && !model.readOnly;
  const restore = async (at: Entry) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await api('POST', `${base}/${at.commit}/restore${query({ locale })}`);
      flash.set(
        `Restored from ${at.commit.slice(0, 7)} (${when(at.date)})` +
          `${type.draftAndPublish ? ' as the draft: publish it when it is right.' : '.'}`,
      );
      navigate(editorHref, { force: true });
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const prefix = locale ? `locales.${locale}.` : '';
  const changes = (shownAt?.changes ?? []).filter((c) => c.path.startsWith(prefix));
  const slotThen = shownAt && (locale ? shownAt.document.locales?.[locale] : shownAt.document);
  const versionThen = (slotThen?.draft ?? slotThen?.published) as Version | undefined;
  const fieldName = (path: string) => {
    const [status, name] = path.slice(prefix.length).split('.');
    const attr = name ? type.attributes[name] : undefined;
    const label = attr ? labelOf(name, attr) : name ? readable(name) : 'the whole version';
    return type.draftAndPublish ? `${label} (${status})` : label;
  };

  return (
    <section aria-labelledby="history-title" class="history">
      <header class="bar editor-head">
        <div class="titles">
          <Link href={editorHref} class="crumb">
            <span aria-hidden="true">← </span>
            {type.displayName}
            <span class="visually-hidden">: back to the editor</span>
          </Link>
          <h1 id="history-title">History</h1>
        </div>
        {locale && <span class="locale">Locale: {locale}</span>}
      </header>
      {git && <GitSetupBanner state={git} />}
      {problem && (
        <p class="notice warning" role="alert">
          {problem}
        </p>
      )}
      {!entries && !problem && git?.repository !== false && <p>Loading…</p>}
      {entries && !entries.length && <p>No commit holds this document yet: its history starts with its first.</p>}
      {entries && entries.length > 0 && (
        <div class="table-scroll">
          <table class="history-list">
            <caption class="visually-hidden">Commits of this document, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">
                  <span class="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr aria-current={e.commit === shownAt?.commit ? 'true' : undefined}>
                  <td>
                    <time dateTime={e.date}>{when(e.date)}</time>
                  </td>
                  <td>{e.author.name}</td>
                  <td>{e.message}</td>
                  <td>
                    <Link href={historyHref(type, documentId, { locale, commit: e.commit })}>
                      View<span class="visually-hidden"> the version of {when(e.date)}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shownAt && (
        <section aria-labelledby="version-title" class="history-version">
          <h2 id="version-title">
            As of {when(shownAt.date)}, by {shownAt.author.name}
          </h2>
          <p class="message">{shownAt.message}</p>
          <h3>Changed since</h3>
          {changes.length ? (
            <table class="history-diff">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Then</th>
                  <th scope="col">Now</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((c) => (
                  <tr>
                    <th scope="row">{fieldName(c.path)}</th>
                    <td>{shown(c.then)}</td>
                    <td>{shown(c.now)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>Nothing: this is the document as it is now{locale ? ` in ${locale}` : ''}.</p>
          )}
          <h3>The document then</h3>
          {versionThen ? (
            <dl class="history-fields">
              {Object.entries(type.attributes)
                .filter(([name]) => name in versionThen)
                .map(([name, attr]) => (
                  <div>
                    <dt>{labelOf(name, attr)}</dt>
                    <dd>{shown(versionThen[name])}</dd>
                  </div>
                ))}
            </dl>
          ) : (
            <p>It had no {locale ? `${locale} ` : ''}version then.</p>
          )}
          {mayRestore && versionThen && (
            <button type="button" class="primary" disabled={busy} onClick={() => void restore(shownAt)}>
              Restore this version
            </button>
          )}
        </section>
      )}
    </section>
  );
}
