import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { type TestServer } from './helpers/project.js';
import { CHROMIUM, studioSession } from './helpers/studio.js';

/**
 * After a save, the Studio reads the document back; what the editor types while that read is on its way stays in
 * the form (it used to be replaced by the document as saved), and the next save writes it.
 */
describe.skipIf(!CHROMIUM)('Folio Studio: typing while a save is read back', () => {
  let s: TestServer;
  let page: Page;

  const session = studioSession();
  beforeAll(() => ({ s, page } = session));

  it('keeps what was typed during the read-back, and saves it next', async () => {
    const created = await s.api('/api/articles?status=draft', { method: 'POST', body: { data: { title: 'Before' } } });
    const id = created.body.data.documentId;
    await page.goto(`${s.url}/admin/content/articles/${id}`);
    await page.locator('#field-title').fill('Saved title');
    // The read that follows the save is held back until the editor has typed more.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let saved = false;
    await page.route(`**/api/articles/${id}?*`, async (route) => {
      if (saved && route.request().method() === 'GET') await held;
      await route.continue();
    });
    page.on('response', (r) => {
      if (r.request().method() === 'PUT' && r.url().includes(id)) saved = true;
    });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    await page.locator('#field-description').fill('Typed meanwhile');
    release();
    await expect.poll(() => page.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);
    await page.unroute(`**/api/articles/${id}?*`);
    expect(await page.locator('#field-description').inputValue()).toBe('Typed meanwhile');
    expect(await page.locator('#field-title').inputValue()).toBe('Saved title');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const file = join(s.contentDir, 'documents', 'articles', `${id}.json`);
    await expect
      .poll(() => JSON.parse(readFileSync(file, 'utf8')).locales.en.draft)
      .toMatchObject({ title: 'Saved title', description: 'Typed meanwhile' });
  });
});
