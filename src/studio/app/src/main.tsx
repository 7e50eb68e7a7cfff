import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, session } from './api';
import { Editor } from './editor';
import { MediaLibrary } from './media-library';
import { CollectionList } from './list';
import { loadModel, MODEL_PERMISSIONS, type Model } from './model';
import { Link, navigate, useLocation } from './router';
import './styles.css';

function SignIn({ notice }: { notice: string }) {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin">
      <h1>Folio Studio</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          try {
            await session.signIn(identifier, password);
          } catch (err) {
            setError(
              err instanceof ApiError && err.status === 400
                ? 'Wrong e-mail, username or password.'
                : err instanceof Error
                  ? err.message
                  : String(err),
            );
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="identifier">E-mail or username</label>
        <input
          id="identifier"
          autocomplete="username"
          value={identifier}
          onInput={(e) => setIdentifier(e.currentTarget.value)}
        />
        <label for="password">Password</label>
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && (
          <p class="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

/** The signed-in Studio: the types the role may read, and the screen the address names. */
function Studio() {
  const { path, params } = useLocation();
  const [model, setModel] = useState<Model | undefined>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    loadModel().then(setModel, setError);
  }, []);

  const [, , slug, id] = path.split('/').slice(1);
  const type = model?.readable.find((t) => (t.kind === 'singleType' ? t.singularName : t.pluralName) === slug);
  let screen;
  if (error) {
    screen =
      error instanceof ApiError && error.status === 403 ? (
        <div class="notice error" role="alert">
          <p>Your role may not read the content model, so the Studio cannot show your content. It needs:</p>
          <ul>
            {MODEL_PERMISSIONS.map((p) => (
              <li>
                <code>{p}</code>
              </li>
            ))}
          </ul>
          <p>Ask an administrator to grant them to your role (content/permissions.json).</p>
        </div>
      ) : (
        <p class="notice error" role="alert">
          Could not read the content model: {error instanceof Error ? error.message : String(error)}
        </p>
      );
  } else if (!model) screen = <p>Loading…</p>;
  else if (path === '/admin/media') screen = <MediaLibrary model={model} />;
  else if (!slug) screen = <p>Choose a type in the menu.</p>;
  else if (!type) screen = <p>There is no type “{slug}” that your role may read.</p>;
  else if (type.kind === 'singleType') screen = <Editor type={type} model={model} params={params} />;
  else if (id === undefined) screen = <CollectionList type={type} model={model} params={params} />;
  else screen = <Editor type={type} model={model} documentId={id === 'new' ? undefined : id} params={params} />;

  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <nav class="sidebar" aria-label="Content types">
        <p class="brand">Folio Studio</p>
        {model && (
          <>
            <h2>Collections</h2>
            <ul>
              {model.readable
                .filter((t) => t.kind === 'collectionType')
                .map((t) => (
                  <li>
                    <Link href={`/admin/content/${t.pluralName}`} aria-current={t === type ? 'page' : undefined}>
                      {t.displayName}
                    </Link>
                  </li>
                ))}
            </ul>
            {model.can('plugin::upload.content-api.find') && (
              <>
                <h2>Media</h2>
                <ul>
                  <li>
                    <Link href="/admin/media" aria-current={path === '/admin/media' ? 'page' : undefined}>
                      Media library
                    </Link>
                  </li>
                </ul>
              </>
            )}
            <h2>Single types</h2>
            <ul>
              {model.readable
                .filter((t) => t.kind === 'singleType')
                .map((t) => (
                  <li>
                    <Link href={`/admin/content/${t.singularName}`} aria-current={t === type ? 'page' : undefined}>
                      {t.displayName}
                    </Link>
                  </li>
                ))}
            </ul>
          </>
        )}
        <p class="who">
          Signed in as {session.user?.username}{' '}
          <button type="button" onClick={() => void session.signOut().then(() => navigate('/admin'))}>
            Sign out
          </button>
        </p>
      </nav>
      <main id="main" tabIndex={-1}>
        {model?.readOnly && (
          <p class="notice info read-only" role="note">
            This server is read-only: you can read the content here, not change it.
          </p>
        )}
        {screen}
      </main>
    </div>
  );
}

/** Takes a sign-in link's code out of the address (it is for one use, and must not stay in the history). */
function linkCode(): string | undefined {
  const m = /^#sign-in=([\w-]+)$/.exec(location.hash);
  if (m) history.replaceState(null, '', location.pathname + location.search);
  return m?.[1];
}

function App() {
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState('');
  const [, setTick] = useState(0);
  useEffect(() => {
    const off = session.onChange(() => setTick((n) => n + 1));
    const code = linkCode();
    // A sign-in link opens a session; else a reload keeps one: the refresh cookie gives a new access token.
    const start = code ? session.signInWithCode(code).catch((err: Error) => setNotice(err.message)) : session.renew();
    void start.finally(() => setReady(true));
    return off;
  }, []);
  if (!ready)
    return (
      <main>
        <h1>Folio Studio</h1>
        <p role="status">Loading…</p>
      </main>
    );
  return session.jwt ? <Studio /> : <SignIn notice={notice} />;
}

render(<App />, document.getElementById('app')!);
