import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { registerStranger } from './helpers/auth.js';

/**
 * ReDoS (issue 31: "cap the length of every value a regex runs on before it runs"):
 * `POST /_folio/uid/generate` (issue 35) slugifies the target field's value with @sindresorhus/slugify, whose
 * decamelize step (`/([A-Z]+)([A-Z][a-z\d]+)/g` and its neighbours) is quadratic on a run of capitals. Only the
 * 1 MB body limit bounds the value; the lint rule sees Folio's regexes, not a dependency's. 80,000 capitals take
 * seconds of the event loop, a megabyte about twenty minutes. Any caller who may create or update the type
 * (a user who registered a minute ago, in the fixture's permissions) stops the server for everybody.
 */
describe('the uid generator on a long run of capitals', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  beforeAll(async () => {
    made = makeProject();
    serve = await spawnServe(made.dir);
  }, 60_000);
  afterAll(async () => {
    // The server may still be slugifying: killed, not asked.
    await serve?.stop();
    made?.cleanup();
  });

  it('keeps answering others while it makes a uid from a title', async () => {
    const jwt = await registerStranger(serve.base);
    let settled = false;
    // Not awaited: the answer comes after minutes.
    void fetch(`${serve.base}/_folio/uid/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        contentTypeUID: 'api::article.article',
        field: 'slug',
        data: { title: `${'A'.repeat(900_000)}a` },
      }),
    }).then(
      () => (settled = true),
      () => (settled = true),
    );
    // Other clients' health checks, one after another while the request is out, each given far longer than a
    // request takes.
    const answers: Array<number | string> = [];
    for (let i = 0; i < 200 && !settled && !answers.includes('no answer'); i++)
      answers.push(
        await fetch(`${serve.base}/_health`, { signal: AbortSignal.timeout(15_000) }).then(
          (r) => r.status,
          () => 'no answer',
        ),
      );
    expect(answers).not.toContain('no answer');
  });

  it('makes a uid the field takes from a long title: its start, cut to the maxLength', async () => {
    const registered = await fetch(`${serve.base}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'writer', email: 'writer@example.com', password: 'Passw0rd!' }),
    });
    const { jwt } = (await registered.json()) as { jwt: string };
    const generate = async (title: string) => {
      const res = await fetch(`${serve.base}/_folio/uid/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify({ contentTypeUID: 'api::article.article', field: 'slug', data: { title } }),
      });
      return ((await res.json()) as { data: string }).data;
    };
    const uid = await generate(`Spring ${'word '.repeat(100_000)}`);
    // 256: a uid field's length when its schema names none; never ending on the separator it was cut at.
    expect(uid).toMatch(/^spring(-word)+$/);
    expect(uid.length).toBeLessThanOrEqual(256);
    expect(uid.length).toBeGreaterThan(250);
    const created = await fetch(`${serve.base}/api/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Spring', slug: uid } }),
    });
    expect(created.status).toBe(201);
    // Taken now: the next one is as long at most, with its suffix.
    const next = await generate(`Spring ${'word '.repeat(100_000)}`);
    expect(next).toMatch(/^spring(-word)+-1$/);
    expect(next.length).toBeLessThanOrEqual(256);
  });
});
