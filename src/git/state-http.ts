import { forbidden } from '../errors.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler } from '../http-kit/route.js';
import { driverProblem, inGitCheckout, setupCommand } from './setup.js';

/**
 * `GET /_folio/git/state`: whether the project is in a git repository and its merge driver is set up, and the
 * command that sets it up as the server was started (`{ data: { repository, mergeDriver, command } }`), so the
 * Studio says that command instead of a history that fails. Not for the public role; it says nothing of where the
 * repository or the driver is.
 */
export const gitStateHandlers: Record<'state', RouteHandler> = {
  async state({ event, project, principal }) {
    if ((await principal()).kind === 'public') throw forbidden();
    const repository = inGitCheckout(project.root);
    const mergeDriver = repository && (await driverProblem(project.root)) === undefined;
    return sendJson(event, 200, { data: { repository, mergeDriver, command: setupCommand() } });
  },
};
