import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { png } from './helpers/media.js';
import type { TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/** Uploads files through the API as `name`, in this order (the newest is the last). */
async function upload(s: TestServer, files: Array<{ name: string; type: string; data: Uint8Array }>) {
  for (const f of files) {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
    const res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: s.auth, body: form });
    expect(res.status).toBe(201);
  }
}

/** The media library found, ordered and measured as people look for files: by name, kind, date and size. */
describe.skipIf(!existsSync(CHROMIUM))('Folio Studio’s media library', () => {
  const studio = studioSession({
    seed: (s) =>
      upload(s, [
        { name: 'six.txt', type: 'text/plain', data: new TextEncoder().encode('abcdef') },
        { name: 'beach-cover.png', type: 'image/png', data: png(40, 30) },
        { name: 'alpine-cover.png', type: 'image/png', data: png(200, 150) },
      ]),
  });
  const names = () => studio.page.locator('.card .name').allTextContents();

  it('searches by name, narrows by kind, sorts, and says each size as it is', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    await page.getByRole('link', { name: 'Media library' }).click();
    await page.getByRole('heading', { name: 'Media library', level: 1 }).waitFor();
    await expect.poll(names).toEqual(['alpine-cover.png', 'beach-cover.png', 'six.txt']);
    // A 6-byte file is 6 bytes, not "0 KB"; an image says its dimensions.
    const six = page.locator('.card', { hasText: 'six.txt' });
    await expect.poll(() => six.locator('.kind').textContent()).toBe('6 bytes');
    expect(await page.locator('.card', { hasText: 'alpine-cover.png' }).locator('.kind').textContent()).toMatch(
      /^(\d+ bytes|[\d.]+ KB), 200 × 150 px$/,
    );
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Search by name').fill('cover');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(names).toEqual(['alpine-cover.png', 'beach-cover.png']);
    await page.getByText('2 files match.').waitFor();
    await page.getByLabel('Sort').selectOption({ label: 'Name, Z to A' });
    await expect.poll(names).toEqual(['beach-cover.png', 'alpine-cover.png']);
    await page.getByLabel('Sort').selectOption({ label: 'Largest first' });
    await expect.poll(names).toEqual(['alpine-cover.png', 'beach-cover.png']);

    await page.getByLabel('Search by name').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Kind').selectOption({ label: 'Images' });
    await expect.poll(names).toEqual(['alpine-cover.png', 'beach-cover.png']);
    await page.getByLabel('Kind').selectOption({ label: 'Every kind' });
    await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
    await expect.poll(names).toEqual(['six.txt', 'beach-cover.png', 'alpine-cover.png']);
    await page.getByLabel('Search by name').fill('nothing like it');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No file matches.').waitFor();
    expect(errors).toEqual([]);
  });
});
