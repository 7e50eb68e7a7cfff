import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { png } from './helpers/media.js';
import { axeViolations, CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/** The phone widths the Studio is made for: a small Android phone and an iPhone. */
const WIDTHS = [360, 390];

/**
 * Whether the page is wider than the window, and which elements reach past the edge they should keep to, with how
 * far: the window's, or in the main column its padding's (a button running into the margin looks cut off too).
 */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; past: string }> {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const mainEdge = main
      ? main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight)
      : innerWidth;
    const past = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => e.checkVisibility() && !e.closest('.table-scroll, code.command, .visually-hidden, .skip'))
      // The action bar spans the margin on purpose; the column itself is measured against the window.
      .filter((e) => !e.closest('.action-bar') && e.tagName !== 'MAIN')
      .map((e) => {
        const edge = e.closest('main') ? mainEdge : innerWidth;
        return [e, Math.round((e.getBoundingClientRect().right - edge) * 10) / 10] as const;
      })
      .filter(([, by]) => by > 0.5)
      .map(([e, by]) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className} +${by}px`)
      .slice(0, 5)
      .join(', ');
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, past };
  });
}

/** Every screen of the Studio at phone widths: nothing wider than the window, nothing past its edge. */
describe.skipIf(!CHROMIUM)('Folio Studio at phone widths', () => {
  let id = '';
  const studio = studioSession({
    seed: async (s) => {
      const made = await s.api('/api/articles', {
        method: 'POST',
        body: { data: { title: 'An article with a rather long title to wrap on a phone' } },
      });
      id = made.body.data.documentId;
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(png(40, 30))], { type: 'image/png' }), 'a-long-file-name.png');
      expect((await fetch(`${s.url}/api/upload`, { method: 'POST', headers: s.auth, body: form })).status).toBe(201);
    },
  });

  it('fits every screen in 360 and 390 pixels, without scrolling sideways', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    const screens: [string, string][] = [
      ['/admin', 'Home'],
      ['/admin/content/articles', 'Article'],
      [`/admin/content/articles/${id}`, 'An article with a rather long title to wrap on a phone'],
      ['/admin/content/articles/new', 'New Article'],
      ['/admin/content/global', 'Global'],
      ['/admin/media', 'Media library'],
      // Outside git, with the banner that says how to set it up.
      [`/admin/history/articles/${id}`, 'History'],
    ];
    /** What reaches past the window, by width and screen: none is the goal. */
    const wide: unknown[] = [];
    const check = async (p: Page, width: number, screen: string) => {
      const at = await overflow(p);
      if (at.scrollWidth > at.innerWidth || at.past) wide.push({ width, screen, ...at });
    };
    try {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const [path, heading] of screens) {
          await page.goto(`${studio.s.url}${path}`);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          // The form and the cards are shown once read.
          if (path.startsWith('/admin/content/articles/')) await page.locator('#field-title').waitFor();
          if (path === '/admin/media') await page.locator('.card').first().waitFor();
          if (path.startsWith('/admin/history/')) await page.locator('.git-setup').waitFor();
          await check(page, width, path);
        }
        // The menu, unfolded.
        await page.getByRole('button', { name: 'Menu' }).click();
        await check(page, width, 'the menu');
        expect(await axeViolations(page)).toEqual([]);
      }
      // The sign-in page, in a context without a session.
      const other = await studio.browser.newPage({ viewport: { width: 360, height: 800 } });
      const otherErrors = consoleErrors(other);
      await other.goto(`${studio.s.url}/admin`);
      await other.getByRole('heading', { name: 'Folio Studio', level: 1 }).waitFor();
      await other.getByText('No account?').click();
      for (const width of WIDTHS) {
        await other.setViewportSize({ width, height: 800 });
        await check(other, width, 'sign-in');
      }
      expect(await axeViolations(other)).toEqual([]);
      expect(otherErrors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    expect(wide).toEqual([]);
    expect(errors).toEqual([]);
  });
});
