import { beforeAll, describe, expect, it } from 'vitest';
import { type Page } from 'playwright-core';
import { type TestServer } from './helpers/project.js';
import { CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/** "Generate from title" asks the server for a slug no other article holds, as Strapi's content manager does. */
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
});
