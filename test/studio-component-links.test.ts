import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { png } from './helpers/media.js';
import { type TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, studioSession } from './helpers/studio.js';

/** A component that links authors and holds a photo, added to the fixture's article (a list, and its zone). */
function addCreditComponent(contentDir: string) {
  const credit = {
    collectionName: 'components_shared_credits',
    info: { displayName: 'Credit' },
    options: {},
    attributes: {
      role: { type: 'string' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
      reviewers: { type: 'relation', relation: 'manyToMany', target: 'api::author.author' },
      photo: { type: 'media', multiple: false, allowedTypes: ['images'] },
      note: { type: 'blocks' },
    },
  };
  writeFileSync(join(contentDir, 'components', 'shared', 'credit.json'), JSON.stringify(credit, null, 2));
  const file = join(contentDir, 'types', 'article.json');
  const article = JSON.parse(readFileSync(file, 'utf8'));
  article.attributes.credits = { type: 'component', repeatable: true, component: 'shared.credit' };
  article.attributes.blocks.components.push('shared.credit');
  writeFileSync(file, JSON.stringify(article, null, 2));
}

/** Uploads a file through the upload API: its id. */
async function upload(s: TestServer, name: string, type: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type }), name);
  const res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: s.auth, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }[])[0].id;
}

const POPULATE = [
  'populate[seo][populate][shareImage]=true',
  'populate[credits][populate][author]=true',
  'populate[credits][populate][reviewers]=true',
  'populate[credits][populate][photo]=true',
  'populate[blocks][on][shared.slider][populate][files]=true',
  'populate[blocks][on][shared.credit][populate][author]=true',
  'populate[blocks][on][shared.media][populate][file]=true',
].join('&');

/**
 * Media and relations inside components (single, repeatable, and dynamic-zone entries) edited in Folio Studio
 * with the pickers of top-level fields, and saved in the shapes the REST API takes inside components.
 */
describe.skipIf(!CHROMIUM)('Folio Studio: media and relations inside components', () => {
  let s: TestServer;
  let page: Page;
  const authors: Record<string, string> = {};

  const session = studioSession({
    prepare: addCreditComponent,
    seed: async (server) => {
      for (const name of ['Ann Writer', 'Bob Reviewer', 'Cy Reviewer'])
        authors[name] = (
          await server.api('/api/authors', { method: 'POST', body: { data: { name } } })
        ).body.data.documentId;
      await upload(server, 'first.png', 'image/png', new Uint8Array(png(12, 12)));
      await upload(server, 'second.png', 'image/png', new Uint8Array(png(14, 14, [20, 200, 20])));
      await upload(server, 'notes.pdf', 'application/pdf', new Uint8Array(Buffer.from('%PDF-1.4\n')));
    },
  });
  beforeAll(() => ({ s, page } = session));

  it('uploads and picks files, and links ordered documents, inside components and zone entries', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('Credits inside');
    await page.getByRole('button', { name: 'Add seo' }).click();
    await page.locator('#field-seo\\.metaTitle').fill('Meta');
    await page.locator('#field-seo\\.metaDescription').fill('Meta description');
    // A single component's media: uploaded from the computer; the file input takes images only.
    const shareUpload = page.getByLabel('Upload a file (seo.shareImage)');
    expect(await shareUpload.getAttribute('accept')).toBe('image/*');
    await shareUpload.setInputFiles({ name: 'share.png', mimeType: 'image/png', buffer: png(16, 16) });
    await page.locator('#field-seo\\.shareImage .files img').waitFor();

    // A repeatable component's relations: one author, and ordered reviewers.
    await page.getByRole('button', { name: 'Add an entry to credits' }).click();
    await page.locator('#field-credits\\.0\\.role').fill('Words');
    await page.getByLabel('Add an Author (credits.0.author)').fill('Ann');
    await page.getByRole('button', { name: 'Ann Writer', exact: true }).click();
    for (const name of ['Bob Reviewer', 'Cy Reviewer']) {
      await page.getByLabel('Add an Author (credits.0.reviewers)').fill(name.split(' ')[0]);
      await page.getByRole('button', { name, exact: true }).click();
    }
    await page.getByRole('button', { name: 'Move up Cy Reviewer' }).click();
    // The photo's library lists images only (no PDF).
    const photo = page.locator('#field-credits\\.0\\.photo');
    await photo.getByRole('button', { name: 'Choose from the library (credits.0.photo)' }).click();
    const library = photo.getByRole('list', { name: 'Media library (credits.0.photo)' });
    await library.getByRole('button', { name: /first\.png/ }).waitFor();
    expect(await library.getByRole('button', { name: /notes\.pdf/ }).count()).toBe(0);
    await library.getByRole('button', { name: /first\.png/ }).click();
    // A blocks attribute inside a component has the same editor.
    await page.getByRole('button', { name: 'Add a block to note' }).click();
    await page.getByRole('textbox', { name: 'Text of block 1 (credits.0.note)' }).click();
    await page.keyboard.type('Noted');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+b');

    // Dynamic-zone entries: a slider's files from the library, in order, and a credit's author.
    await page.getByLabel('Component to add').selectOption('shared.slider');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    const slider = page.locator('#field-blocks\\.0\\.files');
    await slider.getByRole('button', { name: 'Choose from the library (blocks.0.files)' }).click();
    for (const name of [/second\.png/, /first\.png/])
      await slider
        .getByRole('list', { name: /Media library/ })
        .getByRole('button', { name })
        .click();
    await page.getByLabel('Component to add').selectOption('shared.credit');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    await page.getByLabel('Add an Author (blocks.1.author)').fill('Bob');
    await page.getByRole('button', { name: 'Bob Reviewer', exact: true }).click();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const rest = (await s.api(`/api/articles/${id}?status=draft&${POPULATE}`)).body.data;
    expect(rest.seo.shareImage).toMatchObject({ name: 'share.png' });
    expect(rest.credits).toHaveLength(1);
    expect(rest.credits[0]).toMatchObject({
      role: 'Words',
      author: { name: 'Ann Writer' },
      photo: { name: 'first.png' },
    });
    expect(rest.credits[0].reviewers.map((a: { name: string }) => a.name)).toEqual(['Cy Reviewer', 'Bob Reviewer']);
    expect(rest.blocks[0].__component).toBe('shared.slider');
    expect(rest.blocks[0].files.map((f: { name: string }) => f.name)).toEqual(['second.png', 'first.png']);
    expect(rest.blocks[1]).toMatchObject({ __component: 'shared.credit', author: { name: 'Bob Reviewer' } });
    // The file on disk holds documentIds, as for top-level relations.
    const draft = JSON.parse(readFileSync(join(s.contentDir, 'documents', 'articles', `${id}.json`), 'utf8')).locales.en
      .draft;
    expect(draft.credits[0].author).toBe(authors['Ann Writer']);
    expect(draft.credits[0].reviewers).toEqual([authors['Cy Reviewer'], authors['Bob Reviewer']]);
    expect(draft.credits[0].note).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Noted', bold: true }] },
    ]);

    // What was saved comes back in the editor; removing a file and a reviewer is saved too.
    await page.reload();
    const credit = page.locator('#field-credits');
    await expect
      .poll(() => credit.locator('.linked li > span:first-child').allTextContents())
      .toEqual(['Ann Writer', 'Cy Reviewer', 'Bob Reviewer']);
    expect(await page.locator('#field-seo\\.shareImage .files').textContent()).toContain('share.png');
    await page.getByRole('button', { name: 'Remove Cy Reviewer' }).click();
    await page.locator('#field-seo\\.shareImage').getByRole('button', { name: 'Remove share.png' }).click();
    await page.locator('#field-blocks\\.0\\.files').getByRole('button', { name: 'Remove second.png' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const after = (await s.api(`/api/articles/${id}?status=draft&${POPULATE}`)).body.data;
    expect(after.seo.shareImage).toBeNull();
    expect(after.credits[0].reviewers.map((a: { name: string }) => a.name)).toEqual(['Bob Reviewer']);
    expect(after.credits[0].author).toMatchObject({ name: 'Ann Writer' });
    expect(after.blocks[0].files.map((f: { name: string }) => f.name)).toEqual(['first.png']);
  });
});
