import { useEffect, useState } from 'preact/hooks';
import { session } from './api';
import { Editor } from './editor';
import { History } from './history';
import { Home, NoModelNotice } from './home';
import { LeaveDialog } from './leave-dialog';
import { MediaLibrary } from './media-library';
import { CollectionList } from './list';
import { loadModel, type ContentType, type Model } from './model';
import { leave, Link, navigate, useLocation } from './router';

const hrefOf = (t: ContentType) => `/admin/content/${t.kind === 'singleType' ? t.singularName : t.pluralName}`;

/** The menu: the types the role may read, the media library, and who is signed in. */
function Menu(props: { model: Model | undefined; current: ContentType | undefined; path: string; onGo(): void }) {
  const { model, current, path, onGo } = props;
  const group = (title: string, types: ContentType[]) =>
    types.length > 0 && (
      <>
        <h2>{title}</h2>
        <ul>
          {types.map((t) => (
            <li>
              <Link href={hrefOf(t)} aria-current={t === current ? 'page' : undefined} onClick={onGo}>
                {t.displayName}
              </Link>
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <>
      <ul>
        <li>
          <Link href="/admin" aria-current={path === '/admin' ? 'page' : undefined} onClick={onGo}>
            Home
          </Link>
        </li>
      </ul>
      {model && (
        <>
          {group(
            'Collections',
            model.readable.filter((t) => t.kind === 'collectionType'),
          )}
          {group(
            'Single types',
            model.readable.filter((t) => t.kind === 'singleType'),
          )}
          {model.readable.length === 0 && (
            <p class="empty">
              No content-type to show. <Link href="/admin">Home</Link> says why.
            </p>
          )}
          {model.can('plugin::upload.content-api.find') && (
            <>
              <h2>Media</h2>
              <ul>
                <li>
                  <Link href="/admin/media" aria-current={path === '/admin/media' ? 'page' : undefined} onClick={onGo}>
                    Media library
                  </Link>
                </li>
              </ul>
            </>
          )}
        </>
      )}
      <p class="who">
        {model?.owner ? (
          <>
            Signed in as the project’s owner <span class="kind">(every permission)</span>
          </>
        ) : (
          <>Signed in as {session.user?.username}</>
        )}{' '}
        <button type="button" onClick={() => leave(() => void session.signOut().then(() => navigate('/admin')))}>
          Sign out
        </button>
      </p>
    </>
  );
}

/** The signed-in Studio: the menu (folded behind a button on narrow screens) and the screen the address names. */
export function Studio() {
  const { path, params } = useLocation();
  const [model, setModel] = useState<Model | undefined>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState(false);
  // Read again when another user signs in under an ended session: what they may do is theirs.
  const userId = session.user?.id;
  useEffect(() => {
    loadModel().then(setModel, setError);
  }, [userId]);

  const [, section, slug, id] = path.split('/').slice(1);
  const type = model?.readable.find((t) => (t.kind === 'singleType' ? t.singularName : t.pluralName) === slug);
  let screen;
  if (error) screen = <NoModelNotice error={error} />;
  else if (!model) screen = <p>Loading…</p>;
  else if (path === '/admin/media') screen = <MediaLibrary model={model} />;
  else if (!slug) screen = <Home model={model} />;
  else if (!type)
    screen = (
      <p class="notice info">
        There is no type “{slug}” that your role may read. <Link href="/admin">Home</Link> lists those it may.
      </p>
    );
  else if (section === 'history' && id) screen = <History type={type} model={model} documentId={id} params={params} />;
  else if (type.kind === 'singleType') screen = <Editor type={type} model={model} params={params} />;
  else if (id === undefined) screen = <CollectionList type={type} model={model} params={params} />;
  else screen = <Editor type={type} model={model} documentId={id === 'new' ? undefined : id} params={params} />;

  return (
    <div class={`layout${open ? ' menu-open' : ''}`}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href="/admin" class="brand">
          Folio Studio
        </Link>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={open}
          aria-controls="menu"
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
      </header>
      <nav class="sidebar" id="menu" aria-label="Content types">
        <p class="brand">Folio Studio</p>
        <Menu model={model} current={type} path={path} onGo={() => setOpen(false)} />
      </nav>
      <main id="main" tabIndex={-1}>
        {model?.readOnly && (
          <p class="notice info read-only" role="note">
            This server is read-only: you can read the content here, not change it.
          </p>
        )}
        {screen}
      </main>
      <LeaveDialog />
    </div>
  );
}
