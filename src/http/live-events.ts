import { createEventStream } from 'h3';
import type { DocumentEvent } from '../documents/events.js';
import type { HttpModule } from './app.js';
import { methodNotAllowed } from './respond.js';
import { LIVE_EVENTS_PATH } from './route-paths.js';

/**
 * `GET /_folio/events`: a Server-Sent Events stream of document events (`entry.create`, `entry.update`,
 * `entry.delete`, `entry.publish`, `entry.unpublish`, `entry.draft-discard`), so a
 * static-site dev server can refresh. Each message's data is `{ event, uid, model, documentId, locale, status }`.
 * A caller only hears about the types it may `find` (content is private by default, and even documentIds
 * and statuses say something); it authenticates as on the REST API, once, when the stream opens.
 */
export const liveEventsModule: HttpModule = {
  async handle({ event, method, path, project, access, principal }) {
    if (path !== LIVE_EVENTS_PATH) return undefined;
    if (method !== 'GET') return methodNotAllowed(event, ['GET']);
    const caller = await principal();
    const stream = createEventStream(event);
    const off = project.events.on((e: DocumentEvent) => {
      if (!access.can(caller, `${e.uid}.find`)) return;
      void stream.push({
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
      });
    });
    stream.onClosed(async () => {
      off();
      await stream.close();
    });
    // A first message sends the headers at once, so clients know the stream is open.
    void stream.push({ event: 'ready', data: JSON.stringify({ event: 'ready' }) });
    return stream.send();
  },
};
