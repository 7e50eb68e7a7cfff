import { ApiError } from './api';

/** An API error said plainly; a 403 names the permission the role lacks, as content/permissions.json spells it. */
export function ErrorNotice({ error, what, action }: { error: unknown; what: string; action?: string }) {
  if (!error) return null;
  let text: string;
  if (error instanceof ApiError && error.status === 403)
    text = `Your role may not ${what}${action ? `: it needs the permission “${action}”` : ''}. Ask an administrator.`;
  else if (error instanceof ApiError && error.status === 401) text = 'Your session has ended: sign in again.';
  else text = `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`;
  return (
    <p class="notice error" role="alert">
      {text}
    </p>
  );
}
