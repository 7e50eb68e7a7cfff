import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from './api';
import { GrantHint } from './grants';
import { endpoint, MODEL_PERMISSIONS, NoModelAccess, type ContentType, type Model } from './model';
import { mainField } from './relation-field';
import { Link } from './router';
import { readDocumentState, type Doc } from './status';

/** What the home page shows of one type: how many entries it has and its latest changed ones. */
interface TypeSummary {
  type: ContentType;
  total: number | undefined;
  latest: Doc[];
}

const hrefOf = (t: ContentType, d?: Doc) =>
  t.kind === 'singleType'
    ? `/admin/content/${t.singularName}`
    : `/admin/content/${t.pluralName}${d ? `/${d.documentId}${query({ locale: d.locale })}` : ''}`;

const LATEST = 5;

/** A type's entries counted, and its latest changed ones (drafts: every document has one), in one request. */
async function summarize(type: ContentType): Promise<TypeSummary> {
  // A single type's document may not exist: its state says so where a read would answer a 404.
  if (type.kind === 'singleType')
    try {
      const state = await readDocumentState(type, undefined);
      const versions = Object.entries(state.locales).map(([locale, v]) => ({
        locale,
        updatedAt: v.draft ?? v.published,
      }));
      const latest = versions
        .filter((v): v is { locale: string; updatedAt: string } => v.updatedAt !== null)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, 1)
        .map((v) => ({
          id: 0,
          documentId: '',
          publishedAt: null,
          updatedAt: v.updatedAt,
          locale: v.locale || undefined,
        }));
      return { type, total: latest.length, latest };
    } catch {
      return { type, total: undefined, latest: [] };
    }
  const name = mainField(type);
  const params: Record<string, string | number | undefined> = {
    status: type.draftAndPublish ? 'draft' : undefined,
    sort: 'updatedAt:desc',
    'fields[0]': 'updatedAt',
    'fields[1]': name,
  };
  if (type.kind === 'collectionType') params['pagination[pageSize]'] = LATEST;
  try {
    const answer = await api<{ data: Doc[] | Doc | null; meta?: { pagination?: { total: number } } }>(
      'GET',
      `${endpoint(type)}${query(params)}`,
    );
    const list = answer.data === null ? [] : Array.isArray(answer.data) ? answer.data : [answer.data];
    return { type, total: answer.meta?.pagination?.total ?? list.length, latest: list };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { type, total: 0, latest: [] };
    return { type, total: undefined, latest: [] };
  }
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The Studio's first screen: each type the role may read with its count, and the latest edits across them. */
export function Home({ model }: { model: Model }) {
  const [summaries, setSummaries] = useState<TypeSummary[] | undefined>();
  useEffect(() => {
    document.title = 'Home · Folio Studio';
    void Promise.all(model.readable.map(summarize)).then(setSummaries);
  }, [model]);
  const latest = (summaries ?? [])
    .flatMap((s) => s.latest.map((d) => ({ type: s.type, doc: d })))
    .sort((a, b) => b.doc.updatedAt.localeCompare(a.doc.updatedAt))
    .slice(0, 8);
  const labelOf = (t: ContentType, d: Doc) => {
    const name = mainField(t);
    return String((name && d[name]) || (t.kind === 'singleType' ? t.displayName : `Untitled ${t.displayName}`));
  };
  return (
    <section aria-labelledby="home-title" class="home">
      <h1 id="home-title">Home</h1>
      {model.readable.length === 0 ? (
        <EmptyModel model={model} />
      ) : (
        <>
          <h2>Content</h2>
          <ul class="type-cards">
            {model.readable.map((t) => {
              const total = summaries?.find((s) => s.type === t)?.total;
              return (
                <li>
                  <Link href={hrefOf(t)}>{t.displayName}</Link>
                  <span class="count">
                    {t.kind === 'singleType'
                      ? 'Single type'
                      : total === undefined
                        ? '…'
                        : `${total} ${total === 1 ? 'entry' : 'entries'}`}
                  </span>
                </li>
              );
            })}
          </ul>
          <h2>Latest edits</h2>
          {summaries && latest.length === 0 && <p>Nothing yet: create a first entry from the menu.</p>}
          {latest.length > 0 && (
            <ol class="latest">
              {latest.map(({ type, doc }) => (
                <li>
                  <Link href={hrefOf(type, doc)}>{labelOf(type, doc)}</Link>{' '}
                  <span class="kind">
                    {type.displayName}
                    {doc.locale ? ` (${doc.locale})` : ''}, {when(doc.updatedAt)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

/** The project has no type, or none the role may read: which, and the line that changes it. */
function EmptyModel({ model }: { model: Model }) {
  if (model.types.length === 0)
    return (
      <div class="notice info">
        <p>This project has no content-type yet. Make a first one in its folder, then reload this page:</p>
        <p>
          <code class="command">folio types create</code>
        </p>
        <p>
          It asks for the name, the kind and the fields. Or start from the example blog:{' '}
          <code>folio init my-site --example blog</code>.
        </p>
      </div>
    );
  const actions = model.types.map((t) => `${t.singularName}.*`);
  return (
    <div class="notice info">
      <p>
        This project has {model.types.length} content-type{model.types.length === 1 ? '' : 's'} (
        {model.types.map((t) => t.displayName).join(', ')}), but your role may read none of them: it needs each type’s
        actions (find, findOne, create, update, delete).
      </p>
      <GrantHint actions={actions} />
    </div>
  );
}

/** The model could not be read: the actions the role lacks, or the error. */
export function NoModelNotice({ error }: { error: unknown }) {
  if (error instanceof NoModelAccess || (error instanceof ApiError && error.status === 403)) {
    const missing = error instanceof NoModelAccess ? error.missing : MODEL_PERMISSIONS;
    return (
      <div class="notice error" role="alert">
        <p>Your role may not read the content model, so the Studio cannot show your content. It needs:</p>
        <ul>
          {missing.map((p) => (
            <li>
              <code>{p}</code>
            </li>
          ))}
        </ul>
        <GrantHint actions={missing} />
      </div>
    );
  }
  return (
    <p class="notice error" role="alert">
      Could not read the content model: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
