import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Locator, type Page } from 'playwright-core';
import { type TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, studioSession } from './helpers/studio.js';

const t = (text: string, flags: Record<string, true> = {}) => ({ type: 'text', text, ...flags });

/** Blocks as Strapi's own editor writes them: every flag, links with the empty texts around them, code. */
const WRITTEN_ELSEWHERE = [
  {
    type: 'paragraph',
    children: [
      t('Strong', { bold: true }),
      t(' and '),
      t('all of them', { bold: true, italic: true, underline: true, strikethrough: true }),
      t(' with '),
      t('code()', { code: true }),
      t(''),
      { type: 'link', url: 'https://strapi.io', children: [t('a '), t('link', { italic: true })] },
      t(''),
    ],
  },
  { type: 'heading', level: 3, children: [t('Heading '), t('underlined', { underline: true })] },
  {
    type: 'list',
    format: 'ordered',
    children: [
      { type: 'list-item', children: [t('first', { strikethrough: true })] },
      { type: 'list-item', children: [t(''), { type: 'link', url: '/relative', children: [t('second')] }, t('')] },
    ],
  },
  { type: 'quote', children: [t('Quoted', { italic: true })] },
  { type: 'code', language: 'javascript', children: [t('const a = 1;')] },
  { type: 'paragraph', children: [t('Plain')] },
];

/** Saves the draft, and waits until the editor has read it back (its fields are then the saved document's). */
async function saveDraft(page: Page) {
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByText('Draft saved.').waitFor();
  await page.getByRole('region', { name: 'Save and publish' }).getByText('No unsaved changes').waitFor();
}

/**
 * Puts the selection in a block's text of one line: `length` characters from `start`, reached with the arrow keys
 * from the nearer end of the line.
 */
async function select(page: Page, box: Locator, start: number, length = 0) {
  const fromEnd = (await box.textContent())!.length - start;
  await box.click();
  await page.keyboard.press(fromEnd < start ? 'End' : 'Home');
  for (let i = 0; i < Math.min(start, fromEnd); i++)
    await page.keyboard.press(fromEnd < start ? 'ArrowLeft' : 'ArrowRight');
  for (let i = 0; i < length; i++) await page.keyboard.press('Shift+ArrowRight');
}

/**
 * Inline formatting in the Studio's blocks editor (ProseMirror): bold, italic, underline, strikethrough, inline
 * code and links made, changed and removed with the toolbar and the keyboard, saved as Strapi's blocks format;
 * blocks written elsewhere come back unchanged.
 */
describe.skipIf(!CHROMIUM)('Folio Studio: inline formatting in blocks', () => {
  let s: TestServer;
  let page: Page;
  const draftOf = (id: string) =>
    JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales.en.draft;

  const session = studioSession();
  beforeAll(() => ({ s, page } = session));

  it('loads the editor on demand (not in the first screen, which stays under 300 KB gzipped)', async () => {
    const html = await (await fetch(`${s.url}/admin`)).text();
    const first = [...html.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(first.some((a) => a.endsWith('.js'))).toBe(true);
    let gzipped = 0;
    for (const asset of first) {
      const body = Buffer.from(await (await fetch(`${s.url}${asset}`)).arrayBuffer());
      gzipped += gzipSync(body, { level: 9 }).length;
      expect(body.toString('utf8')).not.toContain('ProseMirror');
    }
    expect(gzipped).toBeLessThan(300 * 1024);
  });

  it('shows formatting written elsewhere and saves it back unchanged, beside an edited block', async () => {
    const created = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Written elsewhere', body: WRITTEN_ELSEWHERE } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;
    expect(draftOf(id).body).toEqual(WRITTEN_ELSEWHERE);
    await page.goto(`${s.url}/admin/content/articles/${id}`);
    const first = page.getByRole('textbox', { name: 'Text of block 1' });
    await first.locator('strong', { hasText: 'Strong' }).waitFor();
    expect(await first.locator('a[href="https://strapi.io"] em').textContent()).toBe('link');
    expect(await first.locator('strong em u s').textContent()).toBe('all of them');
    expect(await first.locator('code').textContent()).toBe('code()');
    expect(await page.getByRole('textbox', { name: 'Text of block 3' }).locator('.item').count()).toBe(2);

    // Sent whole (moved down and back) with no edit, and then with another block edited: the rest is unchanged.
    await page.getByRole('button', { name: 'Move down block 1' }).click();
    await page.getByRole('button', { name: 'Move up block 2' }).click();
    await saveDraft(page);
    expect(draftOf(id).body).toEqual(WRITTEN_ELSEWHERE);
    const plain = page.getByRole('textbox', { name: 'Text of block 6' });
    await plain.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' text');
    await saveDraft(page);
    await expect.poll(() => draftOf(id).body[5]).toEqual({ type: 'paragraph', children: [t('Plain text')] });
    expect(draftOf(id).body.slice(0, 5)).toEqual(WRITTEN_ELSEWHERE.slice(0, 5));
  });

  it('makes bold, italic, underline, strikethrough, code and links with the keyboard and the toolbar', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('Formatted here');
    await page.getByRole('button', { name: 'Add a block to body' }).click();
    const box = page.getByRole('textbox', { name: 'Text of block 1' });
    await box.click();
    await page.keyboard.type('Plain bold italic under strike code link end');
    const toolbar = page.getByRole('toolbar', { name: 'Text formatting of body' });
    await select(page, box, 6, 4);
    await page.keyboard.press('Control+b');
    await select(page, box, 6, 11);
    await page.keyboard.press('Control+i');
    await select(page, box, 18, 5);
    await toolbar.getByRole('button', { name: 'Underline' }).click();
    await expect
      .poll(() => toolbar.getByRole('button', { name: 'Underline' }).getAttribute('aria-pressed'))
      .toBe('true');
    await select(page, box, 24, 6);
    await toolbar.getByRole('button', { name: 'Strikethrough' }).click();
    await select(page, box, 31, 4);
    await page.keyboard.press('Control+e');
    await select(page, box, 36, 4);
    await page.keyboard.press('Control+k');
    const url = page.getByLabel('Link URL');
    await expect.poll(() => url.evaluate((e) => e === document.activeElement)).toBe(true);
    // An address the API would refuse is said so at once; a bare domain is taken as https.
    await url.fill('javascript:alert(1)');
    await url.press('Enter');
    await page.locator('#field-body-link-url-error').waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await url.fill('example.com/a');
    expect(await axeViolations(page)).toEqual([]);
    await url.press('Enter');
    await saveDraft(page);
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    expect(draftOf(id).body).toEqual([
      {
        type: 'paragraph',
        children: [
          t('Plain '),
          t('bold', { bold: true, italic: true }),
          t(' italic', { italic: true }),
          t(' '),
          t('under', { underline: true }),
          t(' '),
          t('strike', { strikethrough: true }),
          t(' '),
          t('code', { code: true }),
          t(' '),
          { type: 'link', url: 'https://example.com/a', children: [t('link')] },
          t(' end'),
        ],
      },
    ]);

    // Changed: the link's URL, then bold taken off; removed: the link.
    const again = page.getByRole('textbox', { name: 'Text of block 1' });
    await select(page, again, 38);
    await toolbar.getByRole('button', { name: 'Link' }).click();
    expect(await page.getByLabel('Link URL').inputValue()).toBe('https://example.com/a');
    await page.getByLabel('Link URL').fill('https://example.com/b');
    await page.getByRole('button', { name: 'Apply link' }).click();
    await select(page, again, 6, 4);
    await expect.poll(() => toolbar.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Control+b');
    await saveDraft(page);
    await expect
      .poll(() => draftOf(id).body[0].children)
      .toEqual([
        t('Plain '),
        t('bold italic', { italic: true }),
        t(' '),
        t('under', { underline: true }),
        t(' '),
        t('strike', { strikethrough: true }),
        t(' '),
        t('code', { code: true }),
        t(' '),
        { type: 'link', url: 'https://example.com/b', children: [t('link')] },
        t(' end'),
      ]);
    await select(page, again, 37);
    await page.keyboard.press('Control+k');
    await page.getByRole('button', { name: 'Remove link' }).click();
    await saveDraft(page);
    await expect.poll(() => draftOf(id).body[0].children.slice(-1)).toEqual([t(' link end')]);
  });

  it('formats headings, list items and quotes', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('Formatted kinds');
    for (const kind of ['Heading 2', 'Bulleted list', 'Quote']) {
      await page.getByLabel('Block to add').selectOption({ label: kind });
      await page.getByRole('button', { name: 'Add a block to body' }).click();
    }
    await page.getByRole('textbox', { name: 'Text of block 1' }).click();
    await page.keyboard.type('Title here');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+i');
    await page.getByRole('textbox', { name: 'Text of block 2' }).click();
    await page.keyboard.type('one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Control+u');
    await page.getByRole('textbox', { name: 'Text of block 3' }).click();
    await page.keyboard.type('Said so');
    await page.keyboard.press('Control+a');
    // The toolbar works from the keyboard too: the text keeps its selection while a button has the focus.
    await page.getByRole('toolbar', { name: 'Text formatting of body' }).getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('Enter');
    await saveDraft(page);
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    expect(draftOf(id).body).toEqual([
      { type: 'heading', level: 2, children: [t('Title here', { italic: true })] },
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [t('one')] },
          { type: 'list-item', children: [t('two', { underline: true })] },
        ],
      },
      { type: 'quote', children: [t('Said so', { bold: true })] },
    ]);
    // A heading made a paragraph keeps its formatting.
    await page.getByLabel('Kind of block 1').selectOption({ label: 'Paragraph' });
    await saveDraft(page);
    await expect
      .poll(() => draftOf(id).body[0])
      .toEqual({ type: 'paragraph', children: [t('Title here', { italic: true })] });
    // A list made a quote is one text, its items a line each, formatting kept.
    await page.getByLabel('Kind of block 2').selectOption({ label: 'Quote' });
    await saveDraft(page);
    await expect
      .poll(() => draftOf(id).body[1])
      .toEqual({ type: 'quote', children: [t('one\n'), t('two', { underline: true })] });
  });
});
