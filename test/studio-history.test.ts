import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { type TestServer } from './helpers/project.js';
import { git } from './helpers/git.js';
import { axeViolations, CHROMIUM, studioSession } from './helpers/studio.js';

/**
 * Folio Studio's history of a document (from git): who changed it, when and with what message, the document as a
 * commit held it and its fields that differ now, and a restore of the draft to it; at desktop and phone widths.
 */
describe.skipIf(!CHROMIUM)("Folio Studio: a document's history", () => {
  let s: TestServer;
  let page: Page;
  let id = '';
  let first = '';
  const errors: string[] = [];

  const session = studioSession({
    seed: async (server) => {
      const dir = server.dir;
      writeFileSync(join(dir, '.gitignore'), '.folio/\n');
      await git(dir, 'init', '-q', '-b', 'main');
      await git(dir, 'config', 'user.name', 'Ada Lovelace');
      await git(dir, 'config', 'user.email', 'ada@example.com');
      const made = await server.api('/api/articles', { method: 'POST', body: { data: { title: 'One', views: 1 } } });
      id = made.body.data.documentId;
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-qm', 'First words');
      first = await git(dir, 'rev-parse', 'HEAD');
      await server.api(`/api/articles/${id}`, { method: 'PUT', body: { data: { title: 'Two', views: 2 } } });
      await git(dir, 'commit', '-qam', 'Better words');
    },
  });
  beforeAll(() => {
    ({ s, page } = session);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  });

  it('lists who changed the document, when and why, from its editor', async () => {
    await page.goto(`${s.url}/admin/content/articles/${id}`);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const rows = page.getByRole('table').first().getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toContain('Better words');
    expect(await rows.nth(1).innerText()).toContain('Ada Lovelace');
    expect(await rows.nth(2).innerText()).toContain('First words');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows the document as a commit held it and what differs now', async () => {
    await page
      .getByRole('link', { name: /^View the version of/ })
      .last()
      .click();
    await page.getByRole('heading', { name: /^As of .*, by Ada Lovelace$/ }).waitFor();
    expect(page.url()).toContain(`commit=${first}`);
    const diff = page.getByRole('table').nth(1);
    const title = diff.getByRole('row', { name: /^Title \(draft\)/ });
    expect(await title.getByRole('cell').allInnerTexts()).toEqual(['One', 'Two']);
    expect(
      await diff
        .getByRole('row', { name: /^Views \(published\)/ })
        .getByRole('cell')
        .allInnerTexts(),
    ).toEqual(['1', '2']);
    expect(await page.locator('.history-fields').innerText()).toMatch(/Title\s+One/);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('button', { name: 'Restore this version' }).scrollIntoViewIfNeeded();
    expect(await page.getByRole('button', { name: 'Restore this version' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("restores the draft to that commit's values, and says so in the editor", async () => {
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await page
      .getByRole('status')
      .getByText(/Restored from [0-9a-f]{7} \(.*\) as the draft: publish it when it is right\./)
      .waitFor();
    expect(page.url()).toBe(`${s.url}/admin/content/articles/${id}?locale=en`);
    await expect.poll(() => page.locator('#field-title').inputValue()).toBe('One');
    const file = JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));
    expect(file.locales.en.draft).toMatchObject({ title: 'One', views: 1 });
    expect(file.locales.en.published).toMatchObject({ title: 'Two', views: 2 });
    expect(errors).toEqual([]);
  });
});
