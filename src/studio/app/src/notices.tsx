import { ApiError, session } from './api';
import { GrantHint } from './grants';

/**
 * An API error said plainly; a 403 names the permission the role lacks, as content/permissions.json spells it,
 * with the `folio permissions grant` line that gives it.
 */
export function ErrorNotice({ error, what, action }: { error: unknown; what: string; action?: string }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 403)
    return (
      <div class="notice error" role="alert">
        <p>
          Your role may not {what}
          {action ? `: it needs the permission “${action}”` : ''}.
        </p>
        {action && <GrantHint actions={[action]} />}
      </div>
    );
  if (error instanceof ApiError && error.status === 401)
    // Once signed in again, the action can simply be tried again: the notice has nothing left to say.
    return session.jwt ? null : (
      <p class="notice error" role="alert">
        Your session has ended: what you typed is kept.{' '}
        <button type="button" onClick={() => session.remind()}>
          Sign in again
        </button>
      </p>
    );
  const text = `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`;
  return (
    <p class="notice error" role="alert">
      {text}
    </p>
  );
}
