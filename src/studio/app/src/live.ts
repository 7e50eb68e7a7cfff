import { EventSourceParserStream } from 'eventsource-parser/stream';
import { session } from './api';

export interface LiveEvent {
  event: string;
  uid: string;
  documentId: string;
  locale: string | null;
  status: string | null;
}

type Listener = (e: LiveEvent) => void;

const listeners = new Set<Listener>();
let running = false;

/**
 * Hears `/_folio/events` (Server-Sent Events) as the signed-in user. It is read with fetch rather than
 * EventSource, which cannot send the Authorization header; a dropped stream is opened again.
 */
export function onLiveEvent(fn: Listener): () => void {
  listeners.add(fn);
  if (!running) {
    running = true;
    void run();
  }
  return () => listeners.delete(fn);
}

async function run() {
  for (;;) {
    try {
      if (!session.jwt) await session.renew();
      const res = await fetch('/_folio/events', { headers: { authorization: `Bearer ${session.jwt ?? ''}` } });
      if (res.status === 401) await session.renew();
      else if (res.ok && res.body) await read(res.body);
    } catch {
      // The server went away: try again shortly.
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function read(body: ReadableStream<BufferSource>) {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    try {
      const e = JSON.parse(value.data) as LiveEvent;
      if (e.event !== 'ready') for (const fn of listeners) fn(e);
    } catch {
      // Not one of Folio's messages.
    }
  }
}
