import { useEffect, useState } from 'preact/hooks';
import { api } from './api';

/** Whether the project is in a git repository, with Folio's merge driver set up (`GET /_folio/git/state`). */
export interface GitState {
  repository: boolean;
  mergeDriver: boolean;
  /** The command that sets it up, as the server was started (`npx folio git setup` or `folio git setup`). */
  command: string;
}

/** The project's git state, read once per screen (undefined until answered; a failed read counts as set up). */
export function useGitState(): GitState | undefined {
  const [state, setState] = useState<GitState | undefined>();
  useEffect(() => {
    let live = true;
    api<{ data: GitState }>('GET', '/_folio/git/state').then(
      (r) => live && setState(r.data),
      () => live && setState({ repository: true, mergeDriver: true, command: '' }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/**
 * What git lacks for the project's history, and the exact commands that set it up (run in the project's folder):
 * nothing when it is set up.
 */
export function GitSetupBanner({ state }: { state: GitState }) {
  if (state.repository && state.mergeDriver) return null;
  return (
    <section class="notice warning git-setup" aria-labelledby="git-setup-title">
      <h2 id="git-setup-title">{state.repository ? 'Git is not set up for Folio' : 'This project is not in git'}</h2>
      {state.repository ? (
        <p>
          Git merges this project’s document files line by line, which can break them when branches merge. Set up
          Folio’s merge driver, in the project’s folder:
        </p>
      ) : (
        <p>
          Its documents have no history until the project is a git repository and its content is committed. In the
          project’s folder:
        </p>
      )}
      <code class="command">{state.repository ? state.command : `git init && ${state.command}`}</code>
      {!state.repository && (
        <p>
          Then commit <code>content/</code>, or serve with <code>npx folio serve --commit</code>, which commits each
          save.
        </p>
      )}
    </section>
  );
}
