import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { addComponent } from './helpers/project.js';
import { axeViolations, CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/** The article the tests edit: its documentId, once seeded. */
let id = '';

/**
 * What a user types is never lost without a word: every way out of a form with changes asks first, a save says
 * what it did beside its buttons, in view, and a refused save marks each field it is about.
 */
describe.skipIf(!existsSync(CHROMIUM))('Folio Studio keeps what you type', () => {
  const studio = studioSession({
    prepare: (contentDir) => {
      // A zone entry and a list item with rules of their own: their problems must show at their own fields.
      addComponent(contentDir, 'quote', {
        title: { type: 'string', required: true, maxLength: 10 },
        body: { type: 'text' },
      });
      addComponent(contentDir, 'link', {
        label: { type: 'string' },
        url: { type: 'string', regex: '^https?://' },
        note: { type: 'string', private: true },
      });
    },
    seed: async (s) => {
      const made = await s.api('/api/articles', {
        method: 'POST',
        body: { data: { title: 'Kept article', secretNote: 'only on disk' } },
      });
      id = made.body.data.documentId;
    },
  });
  let errors: string[] = [];
  const page = () => studio.page;
  const editorUrl = () => `${studio.s.url}/admin/content/articles/${id}`;
  const fileOf = () =>
    JSON.parse(readFileSync(join(studio.s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8'));
  /** While set, a reload's question is the test's to answer; else a page left with changes is left. */
  let holdReload = false;
  const open = async (p: Page, url = editorUrl()) => {
    await p.goto(url);
    await p.locator('#field-title').waitFor();
  };
  const dialog = (p: Page) => p.getByRole('dialog', { name: 'Leave without saving?' });

  it('asks before an in-app link leaves a form with changes, and stays or leaves as told', async () => {
    errors = consoleErrors(page());
    page().on('dialog', (d) => void (d.type() === 'beforeunload' && !holdReload && d.accept()));
    await open(page());
    await page().locator('#field-title').fill('Typed, not saved');
    const nav = page().getByRole('navigation', { name: 'Content types' });
    await nav.getByRole('link', { name: 'Author' }).click();
    await dialog(page()).waitFor();
    expect(await dialog(page()).textContent()).toContain('“Kept article” are not saved');
    expect(await axeViolations(page())).toEqual([]);
    await page().getByRole('button', { name: 'Stay on this page' }).click();
    await dialog(page()).waitFor({ state: 'hidden' });
    expect(page().url()).toBe(editorUrl());
    expect(await page().locator('#field-title').inputValue()).toBe('Typed, not saved');
    // The list link in the header asks too; leaving goes there and drops the changes.
    await page()
      .getByRole('link', { name: /back to the list/ })
      .click();
    await page().getByRole('button', { name: 'Leave and discard changes' }).click();
    await page().getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    expect(fileOf().locales.en.draft.title).toBe('Kept article');
  });

  it('asks before back and forward leave a form with changes', async () => {
    await page().getByRole('link', { name: 'Kept article' }).click();
    await page().locator('#field-title').fill('Typed again');
    await page().goBack();
    await dialog(page()).waitFor();
    await page().getByRole('button', { name: 'Stay on this page' }).click();
    await expect.poll(() => page().url()).toContain(`/articles/${id}`);
    expect(await page().locator('#field-title').inputValue()).toBe('Typed again');
    await page().goBack();
    await page().getByRole('button', { name: 'Leave and discard changes' }).click();
    await page().getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    await expect.poll(() => page().url()).toBe(`${studio.s.url}/admin/content/articles`);
  });

  it('asks the browser’s question before a reload or a closed tab, and none once saved', async () => {
    await open(page());
    // Typed as a person types: the browser asks only on a page the user has interacted with.
    await page().locator('#field-title').click();
    await page().locator('#field-title').fill('');
    await page().keyboard.type('Typed before a reload');
    const asked: string[] = [];
    holdReload = true;
    page().once('dialog', (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    await page()
      .reload({ timeout: 2000 })
      .catch(() => undefined);
    holdReload = false;
    expect(asked).toEqual(['beforeunload']);
    expect(await page().locator('#field-title').inputValue()).toBe('Typed before a reload');
    await page().getByRole('button', { name: 'Save draft' }).click();
    await page().getByRole('region', { name: 'Save and publish' }).getByText('Draft saved.').waitFor();
    // Saved: nothing is asked any more.
    await page().getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Author' }).click();
    await page().getByRole('heading', { name: 'Author', level: 1 }).waitFor();
    expect(fileOf().locales.en.draft.title).toBe('Typed before a reload');
  });

  it('keeps the action bar in view at the bottom of a long form, with the outcome beside the buttons', async () => {
    await open(page());
    await page().getByRole('button', { name: 'Add Seo' }).click();
    for (let i = 0; i < 3; i++) await page().getByRole('button', { name: 'Add an entry to Links' }).click();
    await page().evaluate(() => window.scrollTo(0, 0));
    const bar = page().getByRole('region', { name: 'Save and publish' });
    const inView = async () => {
      const box = (await bar.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= page().viewportSize()!.height;
    };
    expect(await page().evaluate(() => document.documentElement.scrollHeight > innerHeight * 1.5)).toBe(true);
    expect(await inView()).toBe(true);
    expect(await bar.textContent()).toContain('Unsaved changes');
    await page().locator('#field-description').fill('Long enough to scroll');
    await bar.getByRole('button', { name: 'Save draft' }).click();
    await bar.getByText('Draft saved.').waitFor();
    expect(await inView()).toBe(true);
  });

  it('offers no save with nothing to save, and saves with Ctrl+S', async () => {
    await open(page());
    const bar = page().getByRole('region', { name: 'Save and publish' });
    await bar.getByText('No unsaved changes').waitFor();
    expect(await bar.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
    await page().locator('#field-description').fill('Saved from the keyboard');
    expect(await bar.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);
    await page().keyboard.press('Control+s');
    await bar.getByText('Draft saved.').waitFor();
    await expect.poll(() => fileOf().locales.en.draft.description).toBe('Saved from the keyboard');
    await bar.getByText('No unsaved changes').waitFor();
  });

  it('marks each problem at its own field, in components and zone entries too, before sending', async () => {
    const writes: string[] = [];
    page().on(
      'request',
      (r) => ['PUT', 'POST'].includes(r.method()) && r.url().includes('/api/articles') && writes.push(r.url()),
    );
    await open(page(), `${studio.s.url}/admin/content/articles/new`);
    await page().getByRole('button', { name: 'Add Seo' }).click();
    await page().getByRole('button', { name: 'Add an entry to Links' }).click();
    await page().locator('#field-links\\.0\\.url').fill('ftp://not-a-web-address');
    // A private field inside a component cannot be shown, and the component is written whole: the form says so.
    expect(await page().locator('#field-links').textContent()).toContain('Note is private');
    await page().getByLabel('Component to add').selectOption({ label: 'quote' });
    await page().getByRole('button', { name: 'Add to Blocks' }).click();
    await page().getByRole('button', { name: 'Publish', exact: true }).click();
    const bar = page().getByRole('region', { name: 'Save and publish' });
    await expect.poll(() => bar.locator('.outcome').textContent()).toContain('Nothing was saved');
    expect(await bar.locator('.outcome').textContent()).toContain('Nothing was saved: 5 fields need attention.');
    const at = (path: string) =>
      page()
        .locator(`#field-${path.replaceAll('.', '\\.')}-error`)
        .textContent();
    expect(await at('title')).toBe('Required to publish.');
    expect(await at('seo.metaTitle')).toBe('Required to publish.');
    expect(await at('seo.metaDescription')).toBe('Required to publish.');
    expect(await at('links.0.url')).toBe('Must match the pattern “^https?://” to publish.');
    expect(await at('blocks.0.title')).toBe('Required to publish.');
    expect(await page().locator('#field-seo\\.metaTitle').getAttribute('aria-invalid')).toBe('true');
    // The first field with a problem has the focus.
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('field-title');
    expect(writes).toEqual([]);
    expect(await axeViolations(page())).toEqual([]);
    // Fixed, a problem goes at once; the others stay.
    await page().locator('#field-seo\\.metaTitle').fill('A title');
    await page().locator('#field-seo\\.metaTitle-error').waitFor({ state: 'detached' });
    expect(await at('seo.metaDescription')).toBe('Required to publish.');
  });

  it('puts every problem the API answers at its field, however deep', async () => {
    await open(page(), `${studio.s.url}/admin/content/articles/new`);
    await page().locator('#field-title').fill('Answered by the server');
    await page().getByRole('button', { name: 'Add Seo' }).click();
    await page().getByRole('button', { name: 'Add an entry to Links' }).click();
    await page().getByLabel('Component to add').selectOption({ label: 'quote' });
    await page().getByRole('button', { name: 'Add to Blocks' }).click();
    await page().locator('#field-seo\\.metaTitle').fill('Fine here');
    // Problems the browser cannot foresee (a rule changed on the server meanwhile), answered as Strapi answers them.
    const problems = [
      { path: ['seo', 'metaDescription'], message: 'seo.metaDescription must be at least 50 characters' },
      { path: ['links', '0', 'url'], message: 'links.0.url is taken' },
      { path: ['blocks', '0', 'title'], message: 'blocks.0.title must be unique' },
      { path: ['body', '2', 'children', '0', 'url'], message: 'must be a link' },
    ];
    await page().route(`**/api/articles?*`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            json: {
              data: null,
              error: {
                status: 400,
                name: 'ValidationError',
                message: '4 errors occurred',
                details: { errors: problems },
              },
            },
          })
        : route.continue(),
    );
    await page().getByRole('button', { name: 'Save draft' }).click();
    await page().getByText('Nothing was saved: 4 problems found by the server.').waitFor();
    const at = (path: string) =>
      page()
        .locator(`#field-${path.replaceAll('.', '\\.')}-error`)
        .textContent();
    expect(await at('seo.metaDescription')).toBe('Must be at least 50 characters');
    expect(await at('links.0.url')).toBe('Is taken');
    expect(await at('blocks.0.title')).toBe('Must be unique');
    expect(await at('body')).toBe('2.children.0.url: Must be a link');
    await page().unroute(`**/api/articles?*`);
    // The browser logs the refused request it was answered: an error of this test's making, not the Studio's.
    errors.length = 0;
  });

  it('shows a private field as set, never as an empty box, and replaces or clears it only when asked', async () => {
    await open(page());
    const field = page().getByRole('group', { name: 'Secret note' });
    await field.getByText('Set (hidden)').waitFor();
    expect(await page().getByRole('textbox', { name: 'Secret note' }).count()).toBe(0);
    // Saving other fields keeps it.
    await page().locator('#field-description').fill('Other field');
    await page().getByRole('button', { name: 'Save draft' }).click();
    await page().getByText('Draft saved.').waitFor();
    expect(fileOf().locales.en.draft.secretNote).toBe('only on disk');
    await field.getByRole('button', { name: 'Replace Secret note' }).click();
    await page().getByRole('textbox', { name: 'Secret note' }).fill('replaced in the Studio');
    await page().getByRole('button', { name: 'Save draft' }).click();
    await page().getByText('Draft saved.').waitFor();
    await expect.poll(() => fileOf().locales.en.draft.secretNote).toBe('replaced in the Studio');
    await page().getByRole('group', { name: 'Secret note' }).getByText('Set (hidden)').waitFor();
    await page().getByRole('button', { name: 'Clear Secret note' }).click();
    await page().getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => fileOf().locales.en.draft.secretNote).toBeNull();
    await page().getByRole('group', { name: 'Secret note' }).getByText('Not set').waitFor();
  });

  it('works at 390 pixels wide: a folded menu, a list that scrolls, nothing wider than the screen', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await page().goto(`${studio.s.url}/admin`);
      await page().getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      const nav = page().getByRole('navigation', { name: 'Content types' });
      expect(await nav.isVisible()).toBe(false);
      const menu = page().getByRole('button', { name: 'Menu' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      expect(await axeViolations(page())).toEqual([]);
      await nav.getByRole('link', { name: 'Article' }).click();
      await page().locator('tbody tr').first().waitFor();
      expect(await nav.isVisible()).toBe(false);
      const wide = () => page().evaluate(() => document.documentElement.scrollWidth);
      expect(await wide()).toBeLessThanOrEqual(390);
      expect(await axeViolations(page())).toEqual([]);
      await page()
        .getByRole('link', { name: /Kept article|Typed before a reload/ })
        .first()
        .click();
      await page().locator('#field-title').waitFor();
      expect(await wide()).toBeLessThanOrEqual(390);
      await page()
        .getByRole('region', { name: 'Save and publish' })
        .getByRole('button', { name: 'Publish', exact: true })
        .waitFor();
      expect(await axeViolations(page())).toEqual([]);
    } finally {
      await page().setViewportSize({ width: 1280, height: 720 });
    }
    expect(errors).toEqual([]);
  });
});
