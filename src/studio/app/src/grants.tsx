/** The signed-in user's role, as content/permissions.json names it: set when the Studio reads what it may do. */
let role: string | undefined;

export const setRole = (r: string | undefined) => {
  role = r;
};

/** An action as a shell takes it: a shorthand with `*` is quoted. */
const shellWord = (action: string) => (/^[\w:.-]+$/.test(action) ? action : `'${action}'`);

/** The `folio permissions grant` line that gives the user's role `actions`, or undefined without a known role. */
export function grantLine(actions: string[]): string | undefined {
  if (!role || !actions.length) return undefined;
  return `folio permissions grant --role ${role} ${actions.map(shellWord).join(' ')}`;
}

/**
 * The line to run for what the role lacks, with the way to run it: in the project's folder, by anyone who may
 * change its permissions.json (a running server takes the change at once).
 */
export function GrantHint({ actions }: { actions: string[] }) {
  const line = grantLine(actions);
  if (!line) return null;
  return (
    <p class="grant">
      To allow it, run this in the project’s folder, then reload this page: <code class="command">{line}</code>
    </p>
  );
}
