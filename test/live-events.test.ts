import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from './helpers/project.js';
import { answers, spawnServe, type ServeProcess } from './helpers/serve.js';
import { createApiToken } from '../src/auth/service.js';

/** Reads a stream's chunks as text until `until` holds for what was read. */
async function readUntil(body: ReadableStream<Uint8Array>, until: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

/**
 * `GET /_folio/events` on `folio serve` as a user runs it: clients come and go without a word in its log. Once
 * the stream is sent nothing may answer the request again (an error envelope after it logs "response failed").
 */
describe('live events streams', () => {
  let project: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  let token: string;
  beforeAll(async () => {
    project = makeProject();
    ({ accessKey: token } = await createApiToken(project.dir, { name: 'live', type: 'full-access' }));
    serve = await spawnServe(project.dir);
  });
  afterAll(async () => {
    await serve?.stop();
    project?.cleanup();
  });

  const open = async () => {
    const controller = new AbortController();
    const res = await fetch(`${serve.base}/_folio/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return { res, abort: () => controller.abort() };
  };
  const createTag = async (name: string) => {
    const res = await fetch(`${serve.base}/api/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name } }),
    });
    expect(res.status).toBe(201);
  };
  /** Lets the server see the closed connections and log whatever it would. */
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('says nothing on stderr when a client closes its stream', async () => {
    for (let i = 0; i < 3; i++) {
      const stream = await open();
      expect(await readUntil(stream.res.body!, (t) => t.includes('event: ready'))).toMatch(/event: ready/);
      stream.abort();
    }
    await settle();
    expect(serve.stderr()).toBe('');
    expect(await answers(serve.base)).toBe(true);
  });

  it('delivers events to the streams still open, and stays quiet as they close', async () => {
    const kept = await open();
    const dropped = await open();
    await readUntil(kept.res.body!, (t) => t.includes('event: ready'));
    await readUntil(dropped.res.body!, (t) => t.includes('event: ready'));
    dropped.abort();
    await settle();
    // Writes after a client left: its stream is not written to, nothing is reported.
    await createTag('after-abort');
    expect(await readUntil(kept.res.body!, (t) => t.includes('entry.create'))).toMatch(/event: entry\.create/);
    kept.abort();
    await createTag('after-all-closed');
    await settle();
    expect(serve.stderr()).toBe('');
    expect(await answers(serve.base)).toBe(true);
  });
});
