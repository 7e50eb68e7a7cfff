import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/** A live events stream that its client closes ends quietly: a browser tab closed is no server error. */
describe('closing a live events stream', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  beforeAll(async () => {
    made = makeProject();
    serve = await spawnServe(made.dir);
  });
  afterAll(async () => {
    await serve.stop();
    made.cleanup();
  });

  it('logs nothing when the client goes away', async () => {
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const res = await fetch(`${serve.base}/_folio/events`, { signal: controller.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('ready');
      controller.abort();
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(serve.stderr()).not.toContain('response failed');
    expect((await fetch(`${serve.base}/_health`)).status).toBe(204);
  });
});
