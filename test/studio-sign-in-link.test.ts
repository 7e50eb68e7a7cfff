import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { AuthService } from '../src/auth/service.js';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { CHROMIUM, closeContexts, studioBrowser } from './helpers/studio.js';

/** `folio serve --studio-as <user>`: a one-time link that opens Folio Studio signed in, in a real browser. */
describe.skipIf(!CHROMIUM)('Folio Studio sign-in link', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  let browser: Browser;
  beforeAll(async () => {
    made = makeProject();
    const file = join(made.contentDir, 'permissions.json');
    const perms = JSON.parse(readFileSync(file, 'utf8'));
    perms.roles.authenticated.permissions.push(
      'plugin::content-type-builder.content-types.getContentTypes',
      'plugin::content-type-builder.components.getComponents',
    );
    writeFileSync(file, JSON.stringify(perms, null, 2));
    await new AuthService(made.dir).createUser({ username: 'dev', email: 'dev@example.com', password: 'dev-pass-123' });
    serve = await spawnServe(made.dir, ['--studio-as', 'dev@example.com']);
    browser = await studioBrowser();
  }, 60_000);
  afterAll(async () => {
    await closeContexts(browser);
    await serve?.stop();
    made.cleanup();
  });

  it('prints a link that signs the user in once, and then no more', async () => {
    // The line of dev's link (the owner's, which a loopback server prints too, is another).
    await expect.poll(() => serve.stdout()).toContain('signs dev in once');
    const link = /(http:\/\/\S+\/admin\/#sign-in=[\w-]+) +\(signs dev in once/.exec(serve.stdout())![1];
    const first = await browser.newPage();
    await first.goto(link);
    await first.getByText('Signed in as dev').waitFor({ timeout: 10_000 });
    await first.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Article' }).waitFor();
    // The code leaves the address bar (and the history) at once.
    expect(first.url()).not.toContain('sign-in=');

    const second = await (await browser.newContext()).newPage();
    await second.goto(link);
    await second.getByRole('alert').filter({ hasText: 'expired or was used already' }).waitFor({ timeout: 10_000 });
    expect(await second.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
  });

  it('answers a forged code with a 400 and no session', async () => {
    const res = await fetch(`${serve.base}/_folio/studio/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'not-a-code' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect((await fetch(`${serve.base}/_folio/studio/sign-in`)).status).toBe(405);
  });

  it('refuses to start for a user that does not exist', async () => {
    await expect(spawnServe(made.dir, ['--studio-as', 'nobody'])).rejects.toThrow(/--studio-as: No user nobody/);
  });
});
