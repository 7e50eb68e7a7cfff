import { afterEach, describe, expect, it } from 'vitest';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * The owner's one-click sign-in (issue 34) as an attacker tries it. The owner is a local
 * account with every permission, meant to be reachable only from the user's own machine, only through one-time
 * links printed in the server's terminal.
 */

const LINK = /\/admin\/#sign-in=([\w-]+)/g;
const codes = (serve: ServeProcess) => [...serve.stdout().matchAll(LINK)].map((m) => m[1]);

let made: ReturnType<typeof makeProject> | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  made?.cleanup();
  serve = undefined;
  made = undefined;
});

describe('the owner link on a server behind the documented TLS proxy', () => {
  // docs/SECURITY.md and docs/deployment.md: "keep folio serve on localhost behind a TLS proxy" with
  // server.trustProxy. Such a server listens on a loopback address, yet every request it gets is the internet's.
  it('prints no owner link at start when server.trustProxy says a proxy fronts it', async () => {
    made = makeProject({ config: { server: { trustProxy: true } } });
    serve = await spawnServe(made.dir);
    // The ready banner is printed whole before the health check answers.
    expect((await fetch(`${serve.base}/_health`)).status).toBe(204);
    expect(codes(serve)).toEqual([]);
    expect(serve.stdout()).toContain('No owner sign-in link: server.trustProxy says a proxy');
  });

  it('lets no anonymous client from the internet print a fresh owner link into the server log', async () => {
    made = makeProject({ config: { server: { trustProxy: true } } });
    serve = await spawnServe(made.dir);
    await expect.poll(() => serve!.stdout()).toContain('/admin');
    const before = codes(serve).length;
    // What the documented nginx configuration forwards for an anonymous visitor of https://cms.example.com.
    const res = await fetch(`${serve.base}/_folio/studio/owner-link`, {
      method: 'POST',
      headers: {
        host: 'cms.example.com',
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
      },
    });
    expect(res.status).toBe(404);
    expect(codes(serve).length).toBe(before);
  });
});

describe('the owner link asked for by other pages', () => {
  const ask = (headers: Record<string, string>) =>
    fetch(`${serve!.base}/_folio/studio/owner-link`, { method: 'POST', headers });

  it("prints a link for the Studio's own sign-in page only, never for another site's", async () => {
    made = makeProject();
    serve = await spawnServe(made.dir);
    await expect.poll(() => codes(serve!).length).toBe(1);
    const evil: Array<Record<string, string>> = [
      { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost:1' },
    ];
    expect(await Promise.all(evil.map(async (h) => (await ask(h)).status))).toEqual([403, 403, 403]);
    // Through a proxy, whoever asks: as if no link were offered.
    expect((await ask({ 'x-forwarded-for': '203.0.113.7', 'sec-fetch-site': 'same-origin' })).status).toBe(404);
    expect(codes(serve).length).toBe(1);
    expect((await ask({ 'sec-fetch-site': 'same-origin' })).status).toBe(202);
    expect((await ask({ origin: serve.base })).status).toBe(202);
    await expect.poll(() => codes(serve!).length).toBe(3);
  });
});

describe('the owner account and the password routes', () => {
  it('signs nobody in as the owner through forgot-password and reset-password', async () => {
    made = makeProject();
    serve = await spawnServe(made.dir);
    // The owner is made on first use: the ready banner's link.
    await expect.poll(() => codes(serve!).length).toBe(1);
    const forgot = await fetch(`${serve.base}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@folio.localhost' }),
    });
    expect(forgot.status).toBe(200);
    // Account e-mails go to the server's log: whoever reads it (a log service, a CI job) has the code.
    const mailed = () => /reset your password: code ([0-9a-f]+)/.exec(serve!.stderr())?.[1];
    await expect
      .poll(mailed, { timeout: 5000 })
      .toBeTruthy()
      .catch(() => undefined);
    const code = mailed();
    if (code === undefined) return; // no reset started for the owner: what this test wants
    const reset = await fetch(`${serve.base}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, password: 'chosen-by-attacker', passwordConfirmation: 'chosen-by-attacker' }),
    });
    const body = (await reset.json()) as { jwt?: string };
    const drafts = body.jwt
      ? (await fetch(`${serve.base}/api/tags?status=draft`, { headers: { authorization: `Bearer ${body.jwt}` } }))
          .status
      : undefined;
    // A JWT of the owner (every permission) from a password route: the owner "is never signed into with a password".
    expect({ reset: reset.status, ownerJwtReadsDrafts: drafts }).toEqual({
      reset: 400,
      ownerJwtReadsDrafts: undefined,
    });
  });
});
