import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { AuthService } from '../src/auth/service.js';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { axeViolations, CHROMIUM, closeContexts, consoleErrors, studioBrowser } from './helpers/studio.js';

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
    const errors = consoleErrors(second);
    await second.goto(link);
    // Said beside the way to a new link, not under the password form; and asked without a refused request.
    const offer = second.getByRole('region', { name: 'On your own machine' });
    const said = offer.getByRole('alert').filter({ hasText: 'expired or was used already' });
    await said.waitFor({ timeout: 10_000 });
    expect(await said.textContent()).toBe('This sign-in link has expired or was used already. Print a new one:');
    const print = offer.getByRole('button', { name: 'Print a new link in the terminal' });
    expect(await said.evaluate((e, b) => !!(e.compareDocumentPosition(b!) & 4), await print.elementHandle())).toBe(
      true,
    );
    expect(await second.getByRole('form', { name: 'With an account' }).getByRole('alert').count()).toBe(0);
    expect(await second.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect(await axeViolations(second)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('says a used link at the top where the server offers no owner link, without a refused request', async () => {
    const closed = await spawnServe(made.dir, ['--studio-as', 'dev', '--no-owner-link']);
    try {
      await expect.poll(() => closed.stdout()).toContain('signs dev in once');
      const link = /(http:\/\/\S+\/admin\/#sign-in=[\w-]+) +\(signs dev in once/.exec(closed.stdout())![1];
      const used = await fetch(`${closed.base}/_folio/studio/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: link.split('=')[1] }),
      });
      expect(used.status).toBe(200);
      const page = await (await browser.newContext()).newPage();
      const errors = consoleErrors(page);
      await page.goto(link);
      await page
        .getByRole('alert')
        .filter({ hasText: 'This sign-in link has expired or was used already. Ask whoever runs folio serve' })
        .waitFor();
      expect(await page.getByRole('region', { name: 'On your own machine' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await closed.stop();
    }
  });

  it('answers whether a code would sign in, without using it', async () => {
    const printed = await spawnServe(made.dir, ['--studio-as', 'dev', '--no-owner-link']);
    try {
      await expect.poll(() => printed.stdout()).toContain('signs dev in once');
      const code = /#sign-in=([\w-]+) +\(signs dev in once/.exec(printed.stdout())![1];
      const post = async (body: unknown) => {
        const res = await fetch(`${printed.base}/_folio/studio/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, cookie: res.headers.get('set-cookie'), body: await res.json() };
      };
      for (let i = 0; i < 2; i++)
        expect(await post({ code, check: true })).toEqual({
          status: 200,
          cookie: null,
          body: { data: { usable: true } },
        });
      expect((await post({ code })).status).toBe(200);
      expect(await post({ code, check: true })).toEqual({
        status: 200,
        cookie: null,
        body: { data: { usable: false } },
      });
      expect((await post({ code: 'not-a-code', check: true })).body).toEqual({ data: { usable: false } });
      expect((await post({ check: true })).status).toBe(400);
    } finally {
      await printed.stop();
    }
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
