import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { session } from './api';
import { Studio } from './shell';
import { SessionEnded } from './session-ended';
import { SignIn } from './sign-in';
import './styles/base.css';
import './styles/lists.css';
import './styles/editor.css';
import './styles/history.css';
// Last: its narrow-screen rules override the others.
import './styles/layout.css';

/** Takes a sign-in link's code out of the address (it is for one use, and must not stay in the history). */
function linkCode(): string | undefined {
  const m = /^#sign-in=([\w-]+)$/.exec(location.hash);
  if (m) history.replaceState(history.state, '', location.pathname + location.search);
  return m?.[1];
}

function App() {
  const [ready, setReady] = useState(false);
  const [linkError, setLinkError] = useState<unknown>();
  const [, setTick] = useState(0);
  useEffect(() => {
    const off = session.onChange(() => setTick((n) => n + 1));
    const code = linkCode();
    // A sign-in link opens a session; else a reload keeps one: the refresh cookie gives a new access token.
    const start = code ? session.signInWithCode(code).catch(setLinkError) : session.renew();
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
  // A session that ended under the page keeps it, with what it holds, until the user signs in again.
  if (!session.jwt && !session.ended) return <SignIn linkError={linkError} />;
  return (
    <>
      <Studio />
      {session.ended && <SessionEnded />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
