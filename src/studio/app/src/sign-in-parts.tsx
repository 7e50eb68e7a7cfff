import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, session } from './api';

/** The password sign-in form (`prefix` keeps its ids apart from another form's on the page). */
export function PasswordForm({ prefix = '', title }: { prefix?: string; title: string }) {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = (name: string) => `${prefix}${name}`;
  return (
    <form
      class="password"
      aria-labelledby={id('password-title')}
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
      <h2 id={id('password-title')}>{title}</h2>
      <label for={id('identifier')}>E-mail or username</label>
      <input
        id={id('identifier')}
        autocomplete="username"
        value={identifier}
        onInput={(e) => setIdentifier(e.currentTarget.value)}
      />
      <label for={id('password')}>Password</label>
      <input
        id={id('password')}
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
  );
}

/**
 * Whether the server offers the owner's one-click link: the command that started it (which prints the links), or
 * false (asked once per page; undefined until answered).
 */
export function useOwnerLink(): string | false | undefined {
  const [command, setCommand] = useState<string | false | undefined>();
  useEffect(() => {
    void session.ownerLinkCommand().then(setCommand);
  }, []);
  return command;
}

/**
 * The owner's sign-in link, on a server on the user's own machine: where to find it, and a button that prints a
 * new one in the terminal. `children` say how to use it here; `notice` is what became of a link just opened.
 */
export function OwnerLinkOffer(props: { prefix?: string; children: ComponentChildren; notice?: string }) {
  const [printed, setPrinted] = useState('');
  const titleId = `${props.prefix ?? ''}owner-title`;
  return (
    <section class="owner-link" aria-labelledby={titleId}>
      <h2 id={titleId}>On your own machine</h2>
      {props.children}
      {props.notice && (
        <p class="notice error" role="alert">
          {props.notice}
        </p>
      )}
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
  );
}
