import { beforeAll, describe, expect, it } from 'vitest';
import { type Page } from 'playwright-core';
import { type TestServer } from './helpers/project.js';
import { CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/**
 * "Generate from title" asks the server for a slug no other article holds, as Strapi's content manager does; a
 * slug another article has published is refused at its field.
 */
describe.skipIf(!CHROMIUM)('Folio Studio: a generated uid is free', () => {
  let s: TestServer;
  let page: Page;
  const session = studioSession({
    seed: async (server) => {
      await server.api('/api/articles', { method: 'POST', body: { data: { title: 'Taken', slug: 'taken' } } });
      await server.api('/api/articles?status=draft', {
        method: 'POST',
        body: { data: { title: 'Taken too', slug: 'taken-1' } },
      });
    },
  });
  beforeAll(() => ({ s, page } = session));

  it('picks the next free value for a new article, and keeps an article’s own slug', async () => {
    const errors = consoleErrors(page);
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.getByLabel('title').fill('Taken');
    await page.getByRole('button', { name: 'Generate from title' }).click();
    await expect.poll(() => page.getByLabel('slug').inputValue()).toBe('taken-2');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published.').waitFor();
    const list = await s.api('/api/articles?filters[slug][$eq]=taken-2');
    expect(list.body.data).toHaveLength(1);

    // The article that holds "taken" generates "taken" again: its own slug is no clash.
    const holder = (await s.api('/api/articles?filters[slug][$eq]=taken')).body.data[0].documentId;
    await page.goto(`${s.url}/admin/content/articles/${holder}`);
    await page.getByLabel('slug').fill('');
    await page.getByRole('button', { name: 'Generate from title' }).click();
    await expect.poll(() => page.getByLabel('slug').inputValue()).toBe('taken');
    expect(errors).toEqual([]);
  });

  it('refuses to publish a slug another article has published, saying so at the field', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.getByLabel('title').fill('Same address');
    await page.getByLabel('slug').fill('taken');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('#field-slug-error').textContent()).toBe('This attribute must be unique');
    // Nothing typed is lost, and the server holds no second article at that address, not even a draft.
    expect(await page.getByLabel('title').inputValue()).toBe('Same address');
    expect((await s.api('/api/articles?filters[slug][$eq]=taken')).body.data).toHaveLength(1);
    expect((await s.api('/api/articles?status=draft&filters[title][$eq]=Same address')).body.data).toEqual([]);
  });
});
