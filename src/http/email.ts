import { applicationError } from '../errors.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';

/** How much of a message the log shows: the body limit bounds it already, a log line need not hold a megabyte. */
const SHOWN = 2000;

const text = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(String).join(', ') : '');

/**
 * The e-mail plugin's `send` (`POST /api/email`, for a role granted `plugin::email.email.send`): Folio sends no
 * e-mail, as for account e-mails it writes the message to the server's log, and answers `{}` as Strapi does once
 * its provider took the message.
 */
export const emailHandlers = (log: (message: string) => void): Record<'send', RouteHandler> => ({
  send(req) {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const to = text(body.to);
    if (!to) throw applicationError('No recipient(s) are given');
    const content = text(body.text) || text(body.html);
    log(
      `e-mail to ${to.slice(0, 200)} (Folio sends none; here it is): ${text(body.subject).slice(0, 200)}: ` +
        content.slice(0, SHOWN),
    );
    return sendJson(req.event, 200, {});
  },
});
