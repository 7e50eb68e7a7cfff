import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { AuthService } from '../src/auth/service.js';
import { signInCodes } from '../src/studio/sign-in-link.js';
import { png } from './helpers/media.js';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, makeEditor, signedIn, closeContexts, studioBrowser } from './helpers/studio.js';

/**
 * Folio Studio on `folio serve --read-only`: an editor whose role may write signs in, reads everything and is
 * offered no write (the permissions route lists none), with a notice that the server is read-only.
 */
describe.skipIf(!CHROMIUM)('Folio Studio on a read-only server', () => {
  let s: TestServer;
  let browser: Browser;
  let made: ReturnType<typeof makeProject>;
  let account: { identifier: string; password: string };
  let articleId: string;

  beforeAll(async () => {
    made = makeProject();
    account = await makeEditor(made.dir);
    // The content is written by a writing server first; the read-only one serves it.
    const writer = await startTestServer({ dir: made.dir });
    const created = await writer.api('/api/articles', { method: 'POST', body: { data: { title: 'Read me' } } });
    articleId = created.body.data.documentId;
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png(10, 10))], { type: 'image/png' }), 'kept.png');
    expect((await fetch(`${writer.url}/api/upload`, { method: 'POST', headers: writer.auth, body: form })).status).toBe(
      201,
    );
    await writer.stop();
    s = await startTestServer({ dir: made.dir, app: { readOnly: true } });
    browser = await studioBrowser();
  }, 60_000);
  afterAll(async () => {
    await closeContexts(browser);
    await s?.stop();
    made.cleanup();
  });

  it('lists no write action and says the server is read-only, on the permissions route', async () => {
    const login = await s.api('/api/auth/local', {
      method: 'POST',
      anonymous: true,
      body: { identifier: account.identifier, password: account.password },
    });
    expect(login.status).toBe(200);
    const mine = await s.api('/_folio/studio/permissions', { headers: { authorization: `Bearer ${login.body.jwt}` } });
    expect(mine.status).toBe(200);
    expect(mine.body.meta).toEqual({ readOnly: true, role: 'authenticated' });
    expect(mine.body.data).toContain('api::article.article.find');
    expect(mine.body.data).toContain('plugin::upload.content-api.find');
    expect(mine.body.data.filter((a: string) => /\.(create|update|delete|upload|destroy)$/.test(a))).toEqual([]);
    // Logins are taken; registrations and every other write are still refused.
    const register = await s.api('/api/auth/local/register', {
      method: 'POST',
      anonymous: true,
      body: { username: 'newcomer', email: 'new@example.com', password: 'newcomer-pass' },
    });
    expect(register.status).toBe(403);
  });

  it('shows the notice and no create, save, publish, delete, bulk or upload control; a write is refused', async () => {
    const page = await signedIn(browser, s.url, account);
    const notice = page.getByRole('note').filter({ hasText: 'This server is read-only' });
    await notice.waitFor();
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Article' }).click();
    await page.locator('tbody tr', { hasText: 'Read me' }).waitFor();
    expect(await page.getByRole('link', { name: /Create new/ }).count()).toBe(0);
    expect(await page.locator('tbody input[type=checkbox]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /selected/ }).count()).toBe(0);

    await page.locator('tbody tr', { hasText: 'Read me' }).getByRole('link').click();
    await page.locator('#field-title').waitFor();
    expect(await page.locator('#field-title').inputValue()).toBe('Read me');
    expect(await page.locator('#field-title').isDisabled()).toBe(true);
    for (const name of ['Save draft', 'Publish', 'Unpublish', 'Discard draft', 'Delete', 'Save'])
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByText('Your role may read this').count()).toBe(0);
    expect(await notice.isVisible()).toBe(true);
    expect(await page.getByLabel('Upload a file').first().isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Media library' }).click();
    await page.locator('.card', { hasText: 'kept.png' }).waitFor();
    expect(await page.getByLabel(/Upload files/).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Save/ }).count()).toBe(0);

    const forged = await s.api(`/api/articles/${articleId}`, { method: 'PUT', body: { data: { title: 'Forged' } } });
    expect(forged.status).toBe(403);
    await page.context().close();
  });

  it('opens a session with a one-time sign-in link (`folio serve --read-only --studio-as`)', async () => {
    const auth = new AuthService(made.dir);
    const code = signInCodes(s.project.root).issue(auth.userByEmail(account.identifier)!.id);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${s.url}/admin/#sign-in=${code}`);
    await page.getByRole('note').filter({ hasText: 'This server is read-only' }).waitFor();
    expect(await page.getByText('Signed in as editor').count()).toBe(1);
    await context.close();
  });
});
