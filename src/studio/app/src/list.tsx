import { useEffect, useState } from 'preact/hooks';
import { api, query } from './api';
import { filterParams, FilterBar, parseFilters } from './filters';
import { labelOf } from './labels';
import { flash } from './flash';
import { ErrorNotice } from './notices';
import { onLiveEvent } from './live';
import { endpoint, LISTABLE, type ContentType, type Model } from './model';
import { Link, navigate } from './router';
import { statusesOf, type Doc, type Status } from './status';

const PAGE_SIZE = 20;

interface Page {
  docs: Doc[];
  statuses: Map<string, Status>;
  page: number;
  pageCount: number;
  total: number;
}

/** Shows a cell's value in a list: short, whatever its kind. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const s = String(value);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/**
 * A collection's documents, read as drafts (every document has one) with their status, a page at a time:
 * search (`_q`), sort and page are the server's, and kept in the address so a list can be shared.
 */
export function CollectionList({ type, model, params }: { type: ContentType; model: Model; params: URLSearchParams }) {
  const base = `/admin/content/${type.pluralName}`;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sort = params.get('sort') ?? 'updatedAt:desc';
  const q = params.get('q') ?? '';
  const rawFilters = params.get('f');
  const filters = parseFilters(rawFilters);
  const defaultLocale = model.locales.find((l) => l.isDefault)?.code;
  const locale = type.localized ? (params.get('locale') ?? defaultLocale) : undefined;
  const [result, setResult] = useState<Page | undefined>();
  const [error, setError] = useState<unknown>();
  const [search, setSearch] = useState(q);
  const [reloads, setReloads] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [bulk, setBulk] = useState<{ message: string; error?: unknown; action?: string } | undefined>(() => {
    const message = flash.take();
    return message ? { message } : undefined;
  });
  const [working, setWorking] = useState(false);

  const columns = Object.entries(type.attributes)
    .filter(([, a]) => LISTABLE.has(a.type) && !a.private)
    .slice(0, 4)
    .map(([name]) => name);

  const go = (changes: Record<string, string | number | undefined>) => {
    const next = { page, sort, q, f: rawFilters ?? undefined, locale: params.get('locale') ?? undefined, ...changes };
    navigate(`${base}${query({ ...next, page: next.page === 1 ? undefined : next.page })}`);
  };

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const answer = await api<{
          data: Doc[];
          meta: { pagination: { page: number; pageCount: number; total: number } };
        }>(
          'GET',
          `${endpoint(type)}${query({
            status: type.draftAndPublish ? 'draft' : undefined,
            'pagination[page]': page,
            'pagination[pageSize]': PAGE_SIZE,
            sort,
            _q: q,
            locale,
            ...filterParams(filters),
          })}`,
        );
        const statuses = await statusesOf(type, answer.data, locale);
        if (live) {
          setError(undefined);
          setResult({ docs: answer.data, statuses, ...answer.meta.pagination });
          setSelected((was) => new Set(answer.data.filter((d) => was.has(d.documentId)).map((d) => d.documentId)));
        }
      } catch (err) {
        if (live) setError(err);
      }
    })();
    return () => {
      live = false;
    };
  }, [type.uid, page, sort, q, rawFilters, locale, reloads]);

  // The list follows the files: another editor, the CLI or a git pull changes what it shows.
  useEffect(() => onLiveEvent((e) => e.uid === type.uid && setReloads((n) => n + 1)), [type.uid]);

  /** Publishes, unpublishes or deletes the selected documents one by one, and says how many it did. */
  const runBulk = async (what: 'publish' | 'unpublish' | 'delete') => {
    setWorking(true);
    setConfirming(false);
    let done = 0;
    let failure: unknown;
    for (const id of selected) {
      try {
        if (what === 'publish') await api('PUT', `${endpoint(type)}/${id}${query({ locale })}`, { data: {} });
        else if (what === 'unpublish')
          await api('POST', `/_folio/content/${type.pluralName}/${id}/unpublish${query({ locale })}`);
        else await api('DELETE', `${endpoint(type)}/${id}${query({ locale })}`);
        done++;
      } catch (err) {
        failure ??= err;
      }
    }
    const verb = { publish: 'Published', unpublish: 'Unpublished', delete: 'Deleted' }[what];
    setBulk({
      message: `${verb} ${done} of ${selected.size}.`,
      error: failure,
      action: `${type.uid}.${what === 'delete' ? 'delete' : 'update'}`,
    });
    setSelected(new Set());
    setWorking(false);
    setReloads((n) => n + 1);
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((was) => {
      const next = new Set(was);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const mayUpdate = model.can(`${type.uid}.update`);
  const mayDelete = model.can(`${type.uid}.delete`);
  const selectable = mayDelete || (type.draftAndPublish && mayUpdate);

  const [sortField, sortDir] = sort.split(':');
  const header = (name: string, label = name) => {
    const active = sortField === name;
    const dir = active && sortDir !== 'desc' ? 'desc' : 'asc';
    return (
      <th scope="col" aria-sort={active ? (sortDir === 'desc' ? 'descending' : 'ascending') : undefined}>
        <button type="button" class="sort" onClick={() => go({ sort: `${name}:${dir}`, page: 1 })}>
          {label}
          <span aria-hidden="true">{active ? (sortDir === 'desc' ? ' ▼' : ' ▲') : ''}</span>
        </button>
      </th>
    );
  };

  return (
    <section aria-labelledby="list-title">
      <header class="bar">
        <h1 id="list-title">{type.displayName}</h1>
        {model.can(`${type.uid}.create`) && (
          <Link href={`${base}/new${query({ locale: params.get('locale') ?? undefined })}`} class="button primary">
            Create new {type.displayName}
          </Link>
        )}
      </header>
      <div class="tools">
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            go({ q: search, page: 1 });
          }}
        >
          <label for="search">Search</label>
          <input id="search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          <button type="submit">Search</button>
        </form>
        {type.localized && model.locales.length > 1 && (
          <label>
            Locale{' '}
            <select value={locale} onChange={(e) => go({ locale: e.currentTarget.value, page: 1 })}>
              {model.locales.map((l) => (
                <option value={l.code}>{l.name}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <FilterBar
        type={type}
        filters={filters}
        onChange={(next) => go({ f: next.length ? JSON.stringify(next) : undefined, page: 1 })}
      />
      <ErrorNotice error={error} what={`read ${type.displayName}`} action={`${type.uid}.find`} />
      <p class="message" role="status">
        {bulk?.message}
      </p>
      <ErrorNotice error={bulk?.error} what={`change every selected ${type.displayName}`} action={bulk?.action} />
      {selected.size > 0 && (
        <div class="bulk" role="group" aria-label="Selected documents">
          <span>{selected.size} selected</span>
          {type.draftAndPublish && mayUpdate && (
            <>
              <button type="button" disabled={working} onClick={() => void runBulk('publish')}>
                Publish selected
              </button>
              <button type="button" disabled={working} onClick={() => void runBulk('unpublish')}>
                Unpublish selected
              </button>
            </>
          )}
          {!mayDelete ? null : confirming ? (
            <>
              <button type="button" class="danger" disabled={working} onClick={() => void runBulk('delete')}>
                Delete {selected.size} for good
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button type="button" disabled={working} onClick={() => setConfirming(true)}>
              Delete selected
            </button>
          )}
        </div>
      )}
      {result && (
        <>
          <div class="table-scroll" tabIndex={0} role="region" aria-label={`${type.displayName} table`}>
            <table>
              <caption class="visually-hidden">
                {type.displayName}: page {result.page} of {Math.max(1, result.pageCount)}
              </caption>
              <thead>
                <tr>
                  {selectable && (
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label="Select every document on this page"
                        checked={result.docs.length > 0 && result.docs.every((d) => selected.has(d.documentId))}
                        onChange={(e) => {
                          const on = e.currentTarget.checked;
                          setSelected(new Set(on ? result.docs.map((d) => d.documentId) : []));
                        }}
                      />
                    </th>
                  )}
                  {columns.map((c) => header(c, labelOf(c, type.attributes[c])))}
                  {type.draftAndPublish && <th scope="col">Status</th>}
                  {type.localized && header('locale', 'Locale')}
                  {header('updatedAt', 'Updated')}
                </tr>
              </thead>
              <tbody>
                {result.docs.map((d) => {
                  const href = `${base}/${d.documentId}${query({ locale: d.locale })}`;
                  const status = result.statuses.get(d.documentId) ?? 'draft';
                  return (
                    <tr key={d.documentId}>
                      {selectable && (
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Select ${cell(d[columns[0]]) || d.documentId}`}
                            checked={selected.has(d.documentId)}
                            onChange={(e) => toggle(d.documentId, e.currentTarget.checked)}
                          />
                        </td>
                      )}
                      {columns.map((c, i) => (
                        <td>{i === 0 ? <Link href={href}>{cell(d[c]) || d.documentId}</Link> : cell(d[c])}</td>
                      ))}
                      {type.draftAndPublish && (
                        <td>
                          <span class={`status ${status}`}>{status}</span>
                        </td>
                      )}
                      {type.localized && <td>{d.locale}</td>}
                      <td>{new Date(d.updatedAt).toLocaleString()}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {result.docs.length === 0 && (
            <p>
              No {type.displayName} {q ? `matches “${q}”` : 'yet'}.
            </p>
          )}
          <nav class="pages" aria-label="Pages">
            <button type="button" disabled={result.page <= 1} onClick={() => go({ page: result.page - 1 })}>
              Previous page
            </button>
            <span>
              Page {result.page} of {Math.max(1, result.pageCount)} ({result.total} in all)
            </span>
            <button
              type="button"
              disabled={result.page >= result.pageCount}
              onClick={() => go({ page: result.page + 1 })}
            >
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
