import { ApiError } from './api';
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
  const text =
    error instanceof ApiError && error.status === 401
      ? 'Your session has ended: sign in again.'
      : `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`;
  return (
    <p class="notice error" role="alert">
      {text}
    </p>
  );
}
