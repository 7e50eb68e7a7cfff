import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitProject } from './helpers/git.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * Review finding on `folio serve --commit` (issue 33: "an author line cannot be forged into another identity"). A
 * write's commit is authored by the caller's username and e-mail, and both are whatever the caller registered:
 * e-mail confirmation is off by default, so nobody checked the address. Where registration is open (the fixture's
 * public role registers, its authenticated role writes articles), a stranger registers as the checkout's owner
 * and the history cannot tell their commits from the owner's own.
 */
describe('review: commit authors taken from unconfirmed accounts', () => {
  let repo: Awaited<ReturnType<typeof makeGitProject>>;
  let server: ServeProcess;
  beforeAll(async () => {
    repo = await makeGitProject();
    server = await spawnServe(repo.dir, ['--commit']);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    repo?.cleanup();
  });

  it("does not commit a stranger's write under the checkout owner's name and e-mail", async () => {
    const owner = await repo.git('log', '-1', '--format=%an <%ae>');
    expect(owner).toBe('Test Owner <owner@example.com>');
    const registered = await fetch(`${server.base}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'Test Owner', email: 'owner@example.com', password: 'Passw0rd!' }),
    });
    expect(registered.status).toBe(200);
    const { jwt } = (await registered.json()) as { jwt: string };
    const before = await repo.git('rev-parse', 'HEAD');
    const created = await fetch(`${server.base}/api/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Prices go up tomorrow' } }),
    });
    expect(created.status).toBe(201);
    await expect.poll(() => repo.git('rev-parse', 'HEAD'), { timeout: 15_000 }).not.toBe(before);
    expect(await repo.git('log', '-1', '--format=%an <%ae>')).not.toBe(owner);
  });
});
