import { FolioError, applicationError } from '../errors.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { clientAddress } from '../http-kit/client.js';
import type { RouteHandler } from '../http-kit/route.js';
import { sendJson } from '../http-kit/respond.js';
import { printable } from '../printable.js';

/** How much of a message the log shows: the body limit bounds it already, a log line need not hold a megabyte. */
const SHOWN = 2000;

const text = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(String).join(', ') : '');

/**
 * The e-mail plugin's `send` (`POST /api/email`, for a role granted `plugin::email.email.send`): Folio sends no
 * e-mail, as for account e-mails it writes the message to the server's log, and answers `{}` as Strapi does once
 * its provider took the message. The log is the terminal where the server prints its own lines (the owner's
 * sign-in links among them): a message is one line of text there, its line breaks and control characters escaped,
 * and each client address sends at most `users.ratelimit` messages a window, as for the account routes.
 */
export const emailHandlers = (log: (message: string) => void): Record<'send', RouteHandler> => {
  let limiter: { key: string; counts: RateLimiter } | undefined;
  return {
    send(req) {
      const rate = req.project.config.users.ratelimit;
      if (rate.enabled) {
        // A new window when folio.json changes the limit.
        const key = `${rate.max}/${rate.interval}`;
        if (limiter?.key !== key) limiter = { key, counts: new RateLimiter(rate.max, rate.interval) };
        const r = limiter.counts.hit(clientAddress(req.event.node.req, req.project.config.server));
        for (const [k, v] of Object.entries(r.headers)) req.event.node.res.setHeader(k, v);
        if (r.limited) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.', {});
      }
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const to = text(body.to);
      if (!to) throw applicationError('No recipient(s) are given');
      const content = text(body.text) || text(body.html);
      // Cut before escaping, so the bounds hold however many characters are escaped.
      const line = (s: string, max: number) => printable(s.slice(0, max));
      log(
        `e-mail to ${line(to, 200)} (Folio sends none; here it is): ${line(text(body.subject), 200)}: ` +
          line(content, SHOWN),
      );
      return sendJson(req.event, 200, {});
    },
  };
};
