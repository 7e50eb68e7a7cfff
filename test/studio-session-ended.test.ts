import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { AuthService } from '../src/auth/service.js';
import { signInCodes } from '../src/studio/sign-in-link.js';
import { axeViolations, CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/**
 * A session that ends under an open form (signed out in another tab, or ended on the server) never costs what was
 * typed: the page says so and stays, and takes up again once the user signs in, in another tab or in place.
 */
describe.skipIf(!CHROMIUM)('Folio Studio when the session ends under an open form', () => {
  let id = '';
  const studio = studioSession({
    seed: async (s) => {
      const made = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Kept while away' } } });
      id = made.body.data.documentId;
    },
  });
  const draft = () =>
    JSON.parse(readFileSync(join(studio.s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales.en.draft;
  const ended = (p: Page) => p.getByRole('dialog', { name: 'Your session has ended' });
  /** A one-time sign-in link for the editor, as `folio serve --studio-as editor` prints. */
  const link = () => {
    const user = new AuthService(studio.s.project.root).listUsers().find((u) => u.username === 'editor')!;
    return `${studio.s.url}/admin/#sign-in=${signInCodes(studio.s.project.root).issue(user.id)}`;
  };

  it('keeps the form through a sign-out in another tab, and saves once signed in again there', async () => {
    const a = studio.page;
    const errors = consoleErrors(a);
    await a.goto(`${studio.s.url}/admin/content/articles/${id}`);
    await a.locator('#field-description').fill('Typed in tab A');
    const b = await a.context().newPage();
    const bErrors = consoleErrors(b);
    await b.goto(`${studio.s.url}/admin`);
    await b.getByRole('button', { name: 'Sign out' }).click();
    await b.getByRole('button', { name: 'Sign in' }).waitFor();

    // Tab A learns it at once, and keeps what was typed.
    await ended(a).waitFor();
    // In front, as the user would bring it (a page in the background gets few frames, and clicks wait for them).
    await a.bringToFront();
    expect(await ended(a).textContent()).toContain('What you typed is kept');
    expect(await axeViolations(a)).toEqual([]);
    expect(await a.locator('#field-description').inputValue()).toBe('Typed in tab A');
    // Put aside, it comes back with the next save, which sends nothing (it would be refused).
    await ended(a).getByRole('button', { name: 'Not now' }).click();
    await ended(a).waitFor({ state: 'hidden' });
    await a.getByRole('button', { name: 'Save draft' }).click();
    await ended(a).waitFor();
    await ended(a).getByRole('button', { name: 'Not now' }).click();
    await a.getByText('Your session has ended: what you typed is kept.').waitFor();
    await a.getByRole('button', { name: 'Sign in again' }).click();
    await ended(a).waitFor();

    // Signed in again in tab B with a new link: tab A carries on by itself.
    await b.goto(link());
    await b.getByRole('button', { name: 'Sign out' }).waitFor();
    await ended(a).waitFor({ state: 'hidden' });
    await a.bringToFront();
    expect(await a.locator('#field-description').inputValue()).toBe('Typed in tab A');
    await a.getByRole('button', { name: 'Save draft' }).click();
    await a.getByRole('region', { name: 'Save and publish' }).getByText('Draft saved.').waitFor();
    expect(draft().description).toBe('Typed in tab A');
    await b.close();
    // Tab A heard of the sign-out and the sign-in from tab B: it sent nothing the server refused.
    expect(errors).toEqual([]);
    expect(bErrors).toEqual([]);
  });

  it('signs in again in place, from the save that found the session ended, and saves what was typed', async () => {
    const a = studio.page;
    const errors = consoleErrors(a);
    await a.goto(`${studio.s.url}/admin/content/articles/${id}`);
    await a.locator('#field-description').fill('Typed before the session ended');
    // The session ends without another tab saying so: its cookie is gone, and the server refuses the access token.
    await a.context().clearCookies();
    await a.route('**/api/articles/*', (route) =>
      route.fulfill({
        status: 401,
        json: {
          data: null,
          error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials' },
        },
      }),
    );
    await a.getByRole('button', { name: 'Save draft' }).click();
    await ended(a).waitFor();
    await a.unroute('**/api/articles/*');
    const dialog = ended(a);
    // On a phone, too: the dialog fits the window.
    await a.setViewportSize({ width: 360, height: 740 });
    const box = (await dialog.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 360).toBe(true);
    expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await axeViolations(a)).toEqual([]);
    await a.setViewportSize({ width: 1280, height: 720 });
    await dialog.getByLabel('E-mail or username').fill('editor@example.com');
    await dialog.getByLabel('Password').fill('editor-pass-1');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await a.locator('#field-description').inputValue()).toBe('Typed before the session ended');
    await a.getByRole('button', { name: 'Save draft' }).click();
    await a.getByRole('region', { name: 'Save and publish' }).getByText('Draft saved.').waitFor();
    expect(draft().description).toBe('Typed before the session ended');
    // The refusals the test made (the save's 401, the renewal without a cookie), and no other.
    expect(
      errors.filter((e) => !/status of 401 .*\/api\/articles\/|status of 400 .*\/api\/auth\/refresh\)/.test(e)),
    ).toEqual([]);
  });
});
