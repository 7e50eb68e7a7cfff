import { useEffect, useState } from 'preact/hooks';
import { ApiError, session } from './api';

/**
 * The sign-in page: a password form, and how to get in without one. On a server on the user's own machine
 * `folio serve` prints a one-click link for the project's owner, and a new link can be printed there at any time.
 */
export function SignIn({ notice }: { notice: string }) {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);
  const [ownerLink, setOwnerLink] = useState(false);
  const [printed, setPrinted] = useState('');
  useEffect(() => {
    document.title = 'Sign in · Folio Studio';
    void session.ownerLinkAvailable().then(setOwnerLink);
  }, []);
  return (
    <main class="signin">
      <h1>Folio Studio</h1>
      {ownerLink && (
        <section class="owner-link" aria-labelledby="owner-title">
          <h2 id="owner-title">On your own machine</h2>
          <p>
            Open the sign-in link <code>folio serve</code> printed in its terminal: it signs you in as the project’s
            owner, once, within 5 minutes.
          </p>
          <button
            type="button"
            onClick={async () => {
              try {
                await session.printOwnerLink();
                setPrinted('A new link is in the terminal where folio serve runs.');
              } catch (err) {
                setPrinted(err instanceof Error ? err.message : String(err));
              }
            }}
          >
            Print a new link in the terminal
          </button>
          <p role="status">{printed}</p>
        </section>
      )}
      <form
        aria-labelledby="password-title"
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
        <h2 id="password-title">With an account</h2>
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
      <details class="help">
        <summary>No account?</summary>
        <p>Someone who can run the project’s CLI creates one, in the project’s folder:</p>
        <p>
          <code class="command">folio users create --role editor</code>
        </p>
        <p>
          Its role decides what it may do here: the example project’s <code>editor</code> role has what the Studio
          needs; <code>folio permissions list</code> shows each role’s. On the machine that runs the server,{' '}
          <code>folio serve --studio-as &lt;user&gt;</code> also prints a one-time sign-in link for a user.
        </p>
      </details>
    </main>
  );
}
