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

/** Alt text and caption typed into the library are never lost without a question, as in the editor. */
describe.skipIf(!existsSync(CHROMIUM))('Folio Studio’s media library keeps what you type', () => {
  const studio = studioSession({
    seed: (s) =>
      upload(s, [
        { name: 'kept.png', type: 'image/png', data: png(20, 20) },
        { name: 'other.png', type: 'image/png', data: png(30, 20) },
      ]),
  });
  const dialog = () => studio.page.getByRole('dialog', { name: 'Leave without saving?' });
  const card = () => studio.page.locator('.card', { hasText: 'kept.png' });
  /** The library, opened from the menu: the app's own history entry, which back leaves. */
  const library = async (phone = false) => {
    await studio.page.goto(`${studio.s.url}/admin`);
    if (phone) await studio.page.getByRole('button', { name: 'Menu' }).click();
    await studio.page.getByRole('link', { name: 'Media library' }).click();
    await card().waitFor();
  };
  const stored = async () => {
    const [file] = await (
      await fetch(`${studio.s.url}/api/upload/files?filters[name]=kept.png`, { headers: studio.s.auth })
    ).json();
    return { alternativeText: file.alternativeText, caption: file.caption };
  };

  it('asks before a link, back or a reload leaves unsaved alt text or caption; a search keeps them', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    await library();
    await card().getByLabel('Alt text').fill('A red square');
    await card().getByLabel('Caption').fill('Kept, not yet saved');
    await card().getByText('Unsaved changes').waitFor();
    // A menu link asks; staying keeps both.
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Home' }).click();
    await dialog().waitFor();
    expect(await dialog().textContent()).toContain('kept.png');
    expect(await axeViolations(page)).toEqual([]);
    // Answered, the question is gone at once: what is typed next goes to the page, not to a dialog still open.
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    expect(await dialog().isVisible()).toBe(false);
    expect(await card().getByLabel('Alt text').inputValue()).toBe('A red square');
    // A search that hides the card and one that shows it again keep what was typed.
    await page.getByLabel('Search by name').fill('other');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 file matches.').waitFor();
    await card().waitFor({ state: 'detached' });
    await page.getByLabel('Search by name').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(await card().getByLabel('Caption').inputValue()).toBe('Kept, not yet saved');
    // The browser's back asks too.
    await page.goBack();
    await dialog().waitFor();
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect.poll(() => page.url()).toBe(`${studio.s.url}/admin/media`);
    // A reload asks the browser's question (on a page the user typed into).
    await card().getByLabel('Caption').click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    await page.reload({ timeout: 2000 }).catch(() => undefined);
    expect(asked).toEqual(['beforeunload']);
    expect(await card().getByLabel('Caption').inputValue()).toBe('Kept, not yet saved!');
    // Saved, nothing is asked any more.
    await card().getByRole('button', { name: 'Save kept.png' }).click();
    await card().getByText('Saved.').waitFor();
    expect(await stored()).toEqual({ alternativeText: 'A red square', caption: 'Kept, not yet saved!' });
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('asks on a phone too, from the folded menu, and leaving discards what was typed', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    await page.setViewportSize({ width: 360, height: 740 });
    // What the file holds before (what the test above saved): this test stands on its own when that one fails.
    const before = await stored();
    try {
      await library(true);
      await card().getByLabel('Alt text').fill('Typed on a phone');
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Home' }).click();
      await dialog().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Leave and discard changes' }).click();
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await page.goBack();
      await card().waitFor();
      expect(await card().getByLabel('Alt text').inputValue()).toBe(before.alternativeText ?? '');
      expect(await stored()).toEqual(before);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    expect(errors).toEqual([]);
  });
});
