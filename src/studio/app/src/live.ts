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
let stream: AbortController | undefined;
let closing: ReturnType<typeof setTimeout> | undefined;

/**
 * Hears `/_folio/events` (Server-Sent Events) as the signed-in user, while anything listens. It is read with
 * fetch rather than EventSource, which cannot send the Authorization header; a dropped stream is opened again.
 */
export function onLiveEvent(fn: Listener): () => void {
  listeners.add(fn);
  clearTimeout(closing);
  if (!stream) {
    stream = new AbortController();
    void run(stream.signal);
  }
  return () => {
    listeners.delete(fn);
    // Moving from one screen to the next lets go of the stream and takes it again at once: it stays open.
    if (!listeners.size)
      closing = setTimeout(() => {
        stream?.abort();
        stream = undefined;
      }, 5000);
  };
}

async function run(signal: AbortSignal) {
  while (!signal.aborted) {
    // Without a session (it ended under this page) there is nothing to hear until the user signs in again.
    await session.signedIn(signal);
    if (signal.aborted) return;
    try {
      const headers = { authorization: `Bearer ${session.jwt ?? ''}` };
      const res = await fetch('/_folio/events', { headers, signal });
      // An expired access token is renewed; a session that cannot be is waited for, above.
      if (res.status === 401 && (await session.renew())) continue;
      if (res.ok && res.body) await read(res.body);
    } catch {
      // The server went away, or the stream was closed.
    }
    if (!signal.aborted) await new Promise((r) => setTimeout(r, 2000));
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
