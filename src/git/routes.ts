import { defineRoutes, type RouteModule } from '../http-kit/route.js';
import type { Follower } from './pull.js';

/** The action a token must hold to ask a replica to pull (a push hook's token holds it alone). */
export const PULL_ACTION = 'plugin::folio.git.pull';

/**
 * A document's history (`/_folio/history/...`, each route checks the caller's `find` on the type, and a
 * restore its `update` too), whether git is set up for it (`/_folio/git/state`), and on a replica following a
 * remote (`--pull`), `POST /_folio/git/pull`.
 */
export function gitRoutes(follower: () => Follower | undefined): RouteModule[] {
  const load = async () => (await import('./http.js')).historyHandlers;
  const history = defineRoutes({
    routes: [
      { method: 'GET', path: '/_folio/history/:type/:documentId', handler: 'list', exactCase: true },
      { method: 'GET', path: '/_folio/history/:type/:documentId/:commit', handler: 'one', exactCase: true },
      {
        method: 'POST',
        path: '/_folio/history/:type/:documentId/:commit/restore',
        handler: 'restore',
        exactCase: true,
      },
    ],
    load,
  });
  const state = defineRoutes({
    routes: [{ method: 'GET', path: '/_folio/git/state', handler: 'state', exactCase: true }],
    load: async () => (await import('./state-http.js')).gitStateHandlers,
  });
  const pull = defineRoutes({
    routes: [{ method: 'POST', path: '/_folio/git/pull', handler: 'pull', action: PULL_ACTION, exactCase: true }],
    load: async () => (await import('./http.js')).pullHandlers(follower),
    enabled: () => follower() !== undefined,
  });
  return [history, state, pull];
}
