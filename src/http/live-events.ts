import { createEventStream } from 'h3';
import type { DocumentEvent } from '../documents/events.js';
import { FolioError } from '../errors.js';
import type { ServedProject } from '../http-kit/served-project.js';
import type { RouteHandler } from '../http-kit/route.js';
import { clientAddress } from '../http-kit/client.js';

/**
 * `GET /_folio/events`: a Server-Sent Events stream of document events (`entry.create`, `entry.update`,
 * `entry.delete`, `entry.publish`, `entry.unpublish`, `entry.draft-discard`), so a
 * static-site dev server can refresh. Each message's data is `{ event, uid, model, documentId, locale, status }`.
 * A caller only hears about the types it may `find` (content is private by default, and even documentIds
 * and statuses say something); it authenticates as on the REST API when the stream opens, and the stream ends when
 * those credentials stop holding (signed out, revoked, blocked, expired). The per-client limit counts the client's
 * address as seen through a believed proxy (`server.trustProxy`).
 */
export const liveEventsHandlers: Record<'stream', RouteHandler> = {
  async stream({ event, project, access, principal }) {
    const open = openStreams(project);
    const client = clientAddress(event.node.req, project.config.server);
    const limits = project.config.server.liveEvents;
    if (open.total >= limits.maxConnections || (open.byClient.get(client) ?? 0) >= limits.maxPerClient) {
      event.node.res.setHeader('retry-after', '30');
      throw new FolioError(429, 'RateLimitError', 'Too many live event streams are open: close one and retry', {});
    }
    const caller = await principal();
    // Counted from here: the stream holds its place until it closes, however it closes.
    open.total++;
    open.byClient.set(client, (open.byClient.get(client) ?? 0) + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      open.total--;
      const n = (open.byClient.get(client) ?? 1) - 1;
      if (n > 0) open.byClient.set(client, n);
      else open.byClient.delete(client);
    };
    event.node.res.once('close', release);
    const stream = createEventStream(event);
    const unwatch = access.watch?.(event.node.req, caller, () => void stream.close()) ?? (() => undefined);
    const off = project.events.on((e: DocumentEvent) => {
      if (!access.can(caller, `${e.uid}.find`)) return;
      // A stream whose client is gone fails its writes: that stream's end, nothing to report.
      stream
        .push({
          event: e.event,
          data: JSON.stringify({
            event: e.event,
            uid: e.uid,
            model: e.model,
            documentId: e.version.documentId,
            locale: e.version.locale,
            status: e.version.status,
            createdAt: new Date().toISOString(),
          }),
        })
        .catch(() => undefined);
    });
    stream.onClosed(async () => {
      unwatch();
      release();
      off();
      await stream.close();
    });
    // A first message sends the headers at once, so clients know the stream is open.
    stream.push({ event: 'ready', data: JSON.stringify({ event: 'ready' }) }).catch(() => undefined);
    // Answered once the stream ends, however it ends: null, not undefined, which would pass the request on to the
    // other routes, and their answer to a response already sent.
    return stream.send().then(
      () => null,
      () => null,
    );
  },
};

interface OpenStreams {
  total: number;
  byClient: Map<string, number>;
}

const streamsOf = new WeakMap<ServedProject, OpenStreams>();

/** The streams open on one project's server, in all and by client address. */
function openStreams(project: ServedProject): OpenStreams {
  let open = streamsOf.get(project);
  if (!open) streamsOf.set(project, (open = { total: 0, byClient: new Map() }));
  return open;
}
