/** An open `/_folio/events` stream, as a client reads it. */
export interface EventStream {
  /** What it has sent so far. */
  text(): string;
  /** Resolves once what it sent contains `part` (now or later). */
  seen(part: string): Promise<void>;
  /** Resolves when the server ends it (or the client closes it). */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `GET <base>/_folio/events` with `headers`; resolves once its `ready` message arrived, or with the answer's
 * status when the stream is refused.
 */
export async function openEvents(base: string, headers: Record<string, string>): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/_folio/events`, { headers, signal: controller.signal });
  if (res.status !== 200) throw new Error(`the stream was refused: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const waiting: Array<{ part: string; resolve: () => void }> = [];
  const seen = (part: string) =>
    new Promise<void>((resolve) => {
      if (text.includes(part)) resolve();
      else waiting.push({ part, resolve });
    });
  const ready = seen('event: ready');
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
      for (const w of waiting.filter((x) => text.includes(x.part))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  })();
  await Promise.race([ready, ended]);
  if (!text.includes('event: ready')) throw new Error('the stream ended before it was ready');
  return { text: () => text, seen, ended, close: () => controller.abort() };
}

/** Which comes first: the stream's end, or `part` in what it sends. */
export const endedOrSeen = (stream: EventStream, part: string): Promise<'ended' | 'seen'> =>
  Promise.race([stream.ended.then(() => 'ended' as const), stream.seen(part).then(() => 'seen' as const)]);
