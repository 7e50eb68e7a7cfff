import { useEffect } from 'preact/hooks';
import { ApiError } from './api';
import { OwnerLinkOffer, PasswordForm, useOwnerLink } from './sign-in-parts';

/**
 * The sign-in page: a password form, and how to get in without one. On a server on the user's own machine
 * `folio serve` prints a one-click link for the project's owner, and a new link can be printed there at any time.
 */
export function SignIn({ linkError }: { linkError?: unknown }) {
  const ownerLink = useOwnerLink();
  const expired = linkError instanceof ApiError && linkError.status === 400;
  const notice = linkError instanceof Error ? linkError.message : linkError ? String(linkError) : '';
  // Started by npm (`npm start` in Folio's checkout), `folio` may be on no PATH: npx finds the project's own.
  const folio = ownerLink && /^np[mx] /.test(ownerLink) ? 'npx folio' : 'folio';
  useEffect(() => {
    document.title = 'Sign in · Folio Studio';
  }, []);
  return (
    <main class="signin">
      <h1>Folio Studio</h1>
      {/* What became of a link just opened, said beside the way to a new one where there is one. */}
      {notice && ownerLink === false && (
        <p class="notice error" role="alert">
          {notice}
          {expired && (
            <>
              {' '}
              Ask whoever runs <code>folio serve</code> for a new one.
            </>
          )}
        </p>
      )}
      {ownerLink && (
        <OwnerLinkOffer notice={expired ? `${notice} Print a new one:` : notice}>
          <p>Open the sign-in link printed in the terminal where this server runs, started with:</p>
          <p>
            <code class="command">{ownerLink}</code>
          </p>
          <p>
            It signs you in as the project’s owner, once, within 5 minutes. Each start of the command prints a new link,
            as does the button below.
          </p>
        </OwnerLinkOffer>
      )}
      <PasswordForm title="With an account" />
      <details class="help">
        <summary>No account?</summary>
        <p>Someone who can run the project’s CLI creates one, in the project’s folder:</p>
        <p>
          <code class="command">{folio} users create --role editor</code>
        </p>
        <p>
          Its role decides what it may do here: the example project’s <code>editor</code> role has what the Studio
          needs; <code>{folio} permissions list</code> shows each role’s. On the machine that runs the server,{' '}
          <code>{folio} serve --studio-as &lt;user&gt;</code> also prints a one-time sign-in link for a user.
        </p>
      </details>
    </main>
  );
}
