import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { png } from './helpers/media.js';
import { type TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, studioSession } from './helpers/studio.js';

/** Image blocks in the Studio's blocks editor: added from the media library or uploaded, shown, kept. */
describe.skipIf(!CHROMIUM)('Folio Studio: image blocks', () => {
  let s: TestServer;
  let page: Page;

  const session = studioSession({
    seed: async (server) => {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(png(30, 20))], { type: 'image/png' }), 'library.png');
      const sent = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: server.auth, body: form });
      expect(sent.status).toBe(201);
    },
  });
  beforeAll(() => ({ s, page } = session));

  it('adds an image block from the library and one uploaded, saved as Strapi image blocks', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('With pictures');
    const blockKind = page.getByLabel('Block to add');
    await blockKind.selectOption({ label: 'Image' });
    await page.getByRole('button', { name: 'Add a block to body' }).click();
    // No block until its image is chosen.
    expect(await page.locator('fieldset.blocks .items > li').count()).toBe(0);
    await page.getByRole('button', { name: 'Choose from the library (body.new-image)' }).click();
    await page
      .getByRole('list', { name: 'Media library (body.new-image)' })
      .getByRole('button', { name: /library\.png/ })
      .click();
    await page.locator('.image-block', { hasText: 'library.png' }).waitFor();
    await page.getByRole('button', { name: 'Add a block to body' }).click();
    await page
      .getByLabel('Upload a file (body.new-image)')
      .setInputFiles({ name: 'uploaded.png', mimeType: 'image/png', buffer: png(10, 10) });
    await page.locator('.image-block', { hasText: 'uploaded.png' }).waitFor();
    expect(await page.getByLabel('Upload a file (body.new-image)').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const body = JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales.en
      .draft.body;
    expect(body).toHaveLength(2);
    for (const [i, name] of ['library.png', 'uploaded.png'].entries()) {
      expect(body[i]).toMatchObject({
        type: 'image',
        image: { name, mime: 'image/png', url: expect.stringMatching(/^\/uploads\//) },
        children: [{ type: 'text', text: '' }],
      });
    }
    expect(body[0].image.width).toBe(30);
    expect((await s.api(`/api/articles/${id}?status=draft`)).body.data.body).toEqual(body);

    // Read again, the blocks show their pictures and are kept as they are by a save.
    await page.reload();
    const shown = page.locator('.image-block', { hasText: 'library.png' }).locator('img');
    await shown.waitFor();
    expect(await shown.getAttribute('src')).toMatch(/^\/uploads\//);
    await page.getByRole('button', { name: 'Move down block 1' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect
      .poll(
        () =>
          JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales.en.draft
            .body,
      )
      .toEqual([body[1], body[0]]);
  });
});
