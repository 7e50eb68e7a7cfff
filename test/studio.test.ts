import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { AuthService } from '../src/auth/service.js';
import { watchProject } from '../src/watch/watcher.js';
import { png, RED_PNG } from './helpers/media.js';
import { makeProject, startTestServer, type TestServer } from './helpers/project.js';
import { axeViolations, CHROMIUM, closeContexts, grant, STUDIO_ACTIONS, studioBrowser } from './helpers/studio.js';

const MODEL_READ = [
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
];

const SESSION = ['plugin::users-permissions.user.me', 'plugin::users-permissions.auth.logout'];

/** Adds a role to the project's permissions.json. */
function addRole(contentDir: string, role: string, permissions: string[]) {
  const file = join(contentDir, 'permissions.json');
  const perms = JSON.parse(readFileSync(file, 'utf8'));
  perms.roles[role] = { name: role, description: '', permissions };
  writeFileSync(file, `${JSON.stringify(perms, null, 2)}\n`);
}

/** Uploads a small PNG through the upload API: its file id. */
async function uploadImage(s: TestServer): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(RED_PNG)], { type: 'image/png' }), 'red.png');
  const res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: s.auth, body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }[])[0].id;
}

/**
 * Folio Studio end to end, in Debian's Chromium: a user signs in with a password and edits articles through
 * the public API, and the files on disk are what the editor did. Skipped where Chromium is not installed.
 */
describe.skipIf(!CHROMIUM)('Folio Studio in a browser', () => {
  let s: TestServer;
  let browser: Browser;
  let watcher: { close(): Promise<void> } | undefined;
  let made: ReturnType<typeof makeProject>;
  let page: Page;
  const fileOf = (id: string) => join(s.contentDir, 'documents', 'articles', `${id}.json`);

  beforeAll(async () => {
    made = makeProject();
    grant(made.contentDir, 'authenticated', STUDIO_ACTIONS);
    addRole(made.contentDir, 'reader', [
      ...MODEL_READ,
      ...SESSION,
      'api::article.article.find',
      'api::article.article.findOne',
    ]);
    addRole(made.contentDir, 'nomodel', [...SESSION, 'api::article.article.find']);
    const auth = new AuthService(made.dir);
    await auth.createUser({
      username: 'editor',
      email: 'editor@example.com',
      password: 'editor-pass-1',
      role: 'authenticated',
    });
    await auth.createUser({
      username: 'reader',
      email: 'reader@example.com',
      password: 'reader-pass-1',
      role: 'reader',
    });
    await auth.createUser({
      username: 'nomodel',
      email: 'nomodel@example.com',
      password: 'nomodel-pass',
      role: 'nomodel',
    });
    s = await startTestServer({ dir: made.dir });
    // As `folio serve` does: hand edits of content/ reach the server, and its live events.
    watcher = await watchProject(s.project);
    for (const title of ['Alpha article', 'Beta article'])
      expect((await s.api('/api/articles', { method: 'POST', body: { data: { title } } })).status).toBe(201);
    browser = await studioBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => process.stderr.write(`browser: ${e.message}\n`));
  }, 60_000);
  afterAll(async () => {
    await closeContexts(browser);
    await watcher?.close();
    await s?.stop();
    made.cleanup();
  });

  it('serves the built app at /admin with its content types, and the app for any path under it', async () => {
    const index = await fetch(`${s.url}/admin`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await index.text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${s.url}${script}`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    const deep = await fetch(`${s.url}/admin/content/articles/whatever`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${s.url}/admin/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${s.url}/admin`, { method: 'POST' })).status).toBe(405);
  });

  it('signs in with a password and lists the articles with their status', async () => {
    await page.goto(`${s.url}/admin`);
    await page.getByLabel('E-mail or username').fill('editor@example.com');
    await page.getByLabel('Password').fill('editor-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Article' }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.filter({ hasText: 'Alpha article' }).locator('.status').textContent()).toBe('published');
    // Search is the server's `_q`.
    await page.getByLabel('Search', { exact: true }).fill('Beta');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Beta article');
    expect(page.url()).toContain('q=Beta');
  });

  it('creates an article, saves a draft and publishes it: the file and the REST answer agree', async () => {
    await page.getByRole('link', { name: 'Create new Article' }).click();
    await page.getByLabel('title').fill('Written in the Studio');
    await page.getByRole('button', { name: 'Generate from title' }).click();
    expect(await page.getByLabel('slug').inputValue()).toBe('written-in-the-studio');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    await page.waitForURL(/\/admin\/content\/articles\/[a-z0-9]{24}/);
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    await page.locator('.action-bar .status', { hasText: 'draft' }).waitFor();
    let file = JSON.parse(readFileSync(fileOf(id), 'utf8'));
    expect(file.locales.en.draft).toMatchObject({ title: 'Written in the Studio', slug: 'written-in-the-studio' });
    expect(file.locales.en.published).toBeUndefined();
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);

    await page.getByLabel('views').fill('12');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published.').waitFor();
    await page.locator('.action-bar .status', { hasText: 'published' }).waitFor();
    file = JSON.parse(readFileSync(fileOf(id), 'utf8'));
    expect(file.locales.en.published).toMatchObject({ title: 'Written in the Studio', views: 12 });
    const rest = await s.api(`/api/articles/${id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ documentId: id, title: 'Written in the Studio', views: 12 });

    // A draft edit after publishing shows as modified, in the editor and in the list.
    await page.getByLabel('description').fill('Changed after publishing');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.locator('.action-bar .status', { hasText: 'modified' }).waitFor();
    expect((await s.api(`/api/articles/${id}`)).body.data.description).toBeNull();
  });

  it('shows a problem at its field before sending, and keeps what was typed', async () => {
    const writes: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && writes.push(r.url()));
    await page.getByLabel('views').fill('-5');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const error = page.locator('#field-views-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('0 or more to publish.');
    expect(writes).toEqual([]);
    expect(await page.getByLabel('views').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('views').inputValue()).toBe('-5');
    expect(await page.getByLabel('description').inputValue()).toBe('Changed after publishing');
  });

  it('says so when the open document changes on disk, and reloads it on demand', async () => {
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const file = JSON.parse(readFileSync(fileOf(id), 'utf8'));
    file.locales.en.draft.title = 'Edited by hand';
    file.locales.en.draft.updatedAt = new Date().toISOString();
    writeFileSync(fileOf(id), `${JSON.stringify(file, null, 2)}\n`);
    const notice = page.getByRole('alert').filter({ hasText: 'changed outside this editor' });
    await notice.waitFor({ timeout: 15_000 });
    await notice.getByRole('button', { name: /Reload it/ }).click();
    await expect.poll(() => page.getByLabel('title').inputValue()).toBe('Edited by hand');
  });
  it('discards a draft and unpublishes from the editor', async () => {
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    await page.locator('.action-bar .status', { hasText: 'modified' }).waitFor();
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page.getByText('Draft discarded.').waitFor();
    expect(await page.getByLabel('title').inputValue()).toBe('Written in the Studio');
    const discarded = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en;
    expect(discarded.draft.title).toBe(discarded.published.title);
    await page.locator('.action-bar .status', { hasText: 'published' }).waitFor();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText('Unpublished: the draft is kept.').waitFor();
    await page.locator('.action-bar .status', { hasText: 'draft' }).waitFor();
    expect((await s.api(`/api/articles/${id}`)).status).toBe(404);
    expect(JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.published).toBeUndefined();
    // The editor's own writes raise no notice.
    expect(await page.getByText('changed outside this editor').count()).toBe(0);
  });

  it('sorts by column and pages through the list on the server', async () => {
    for (let i = 1; i <= 20; i++)
      await s.api('/api/articles?status=draft', { method: 'POST', body: { data: { title: `Bulk ${i}` } } });
    await page.getByRole('link', { name: 'Back to the list' }).click();
    const rows = page.locator('tbody tr');
    await page.getByText('Page 1 of 2 (23 in all)').waitFor();
    expect(await rows.count()).toBe(20);
    await page.getByRole('button', { name: 'title' }).click();
    await expect.poll(() => page.locator('th[aria-sort="ascending"]').textContent()).toContain('Title');
    await expect.poll(() => rows.first().locator('td').nth(1).textContent()).toBe('Alpha article');
    await page.getByRole('button', { name: 'title' }).click();
    await expect.poll(() => rows.first().locator('td').nth(1).textContent()).toBe('Written in the Studio');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2 (23 in all)').waitFor();
    expect(await rows.count()).toBe(3);
    expect(page.url()).toContain('page=2');
    await expect.poll(() => rows.last().locator('td').nth(1).textContent()).toBe('Alpha article');
  });

  it('keeps the session over a reload (refresh cookie) and edits a single type', async () => {
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Content types' });
    await nav.getByRole('link', { name: 'Global' }).click();
    await page.getByLabel('Site name').fill('Studio site');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const rest = await s.api('/api/global');
    expect(rest.body.data.siteName).toBe('Studio site');
  });

  it('passes an automated accessibility check on the list and the editor', async () => {
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Article' }).click();
    await page.locator('tbody tr').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create new Article' }).click();
    await page.getByLabel('title').waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('#field-title-error').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows a role only the types it may read; signs in with the keyboard alone', async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    other.setDefaultTimeout(10_000);
    await other.goto(`${s.url}/admin`);
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(other)).toEqual([]);
    await other.keyboard.press('Tab');
    await other.keyboard.type('reader');
    await other.keyboard.press('Tab');
    await other.keyboard.type('reader-pass-1');
    await other.keyboard.press('Enter');
    const nav = other.getByRole('navigation', { name: 'Content types' });
    await nav.getByRole('link', { name: 'Article' }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Home', 'Article']);

    // A role that may only read sees no write buttons; the API refuses a forged write all the same.
    await nav.getByRole('link', { name: 'Article' }).click();
    await other.locator('tbody tr').first().waitFor();
    expect(await other.getByRole('link', { name: /Create new/ }).count()).toBe(0);
    expect(await other.locator('tbody input[type=checkbox]').count()).toBe(0);
    await other.locator('tbody tr').first().getByRole('link').click();
    await other.getByText('Your role may read this Article but not change it.').waitFor();
    expect(await other.locator('#field-title').isDisabled()).toBe(true);
    for (const name of ['Save draft', 'Publish', 'Unpublish', 'Delete'])
      expect(await other.getByRole('button', { name, exact: true }).count()).toBe(0);
    const id = /articles\/([a-z0-9]{24})/.exec(other.url())![1];
    const login = await s.api('/api/auth/local', {
      method: 'POST',
      anonymous: true,
      body: { identifier: 'reader', password: 'reader-pass-1' },
    });
    const forged = await s.api(`/api/articles/${id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${login.body.jwt}` },
      body: { data: { title: 'Forged' } },
    });
    expect(forged.status).toBe(403);
    await context.close();
  });

  it('tells a role without the model permissions which ones it lacks', async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    other.setDefaultTimeout(10_000);
    await other.goto(`${s.url}/admin`);
    await other.getByLabel('E-mail or username').fill('nomodel');
    await other.getByLabel('Password').fill('nomodel-pass');
    await other.getByRole('button', { name: 'Sign in' }).click();
    const alert = other.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('plugin::content-type-builder.content-types.getContentTypes');
    await context.close();
  });
  it('links an author and ordered tags with the relation pickers', async () => {
    const author = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Ann Writer' } } });
    const tags: string[] = [];
    for (const name of ['first-tag', 'second-tag'])
      tags.push((await s.api('/api/tags', { method: 'POST', body: { data: { name } } })).body.data.documentId);
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.getByLabel('title').fill('With relations');
    await page.getByLabel('Add an Author').fill('Ann');
    await page.getByRole('button', { name: 'Ann Writer' }).click();
    for (const name of ['first-tag', 'second-tag']) {
      await page.getByLabel('Add a Tag').fill(name);
      await page.getByRole('button', { name, exact: true }).click();
    }
    await page.getByRole('button', { name: 'Move up second-tag' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const draft = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft;
    expect(draft.author).toBe(author.body.data.documentId);
    expect(draft.tags).toEqual([tags[1], tags[0]]);
    // The saved relations come back in the editor, in their order.
    await page.reload();
    await expect
      .poll(() => page.locator('.linked li > span:first-child').allTextContents())
      .toEqual(['Ann Writer', 'second-tag', 'first-tag']);
    await page.getByRole('button', { name: 'Remove first-tag' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft.tags).toEqual([tags[1]]);
  });
  it('edits a component, a repeatable component and a dynamic zone, and keeps what it does not show', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('With components');
    await page.getByRole('button', { name: 'Add seo' }).click();
    await page.locator('#field-seo\\.metaTitle').fill('SEO title');
    await page.getByRole('button', { name: 'Add an entry to links' }).click();
    await page.getByRole('button', { name: 'Add an entry to links' }).click();
    await page.locator('#field-links\\.0\\.label').fill('First link');
    await page.locator('#field-links\\.1\\.label').fill('Second link');
    await page.getByRole('button', { name: 'Move up Link 2' }).click();
    expect(await page.locator('#field-links\\.0\\.label').inputValue()).toBe('Second link');
    await page.getByLabel('Component to add').selectOption('shared.quote');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    await page.getByLabel('Component to add').selectOption('shared.rich-text');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    await page.locator('#field-blocks\\.0\\.title').fill('A quote');
    await page.locator('#field-blocks\\.1\\.body').fill('Some *Markdown*');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const draft = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft;
    expect(draft.seo).toMatchObject({ metaTitle: 'SEO title' });
    expect(draft.links.map((l: { label: string }) => l.label)).toEqual(['Second link', 'First link']);
    expect(draft.blocks).toMatchObject([
      { __component: 'shared.quote', title: 'A quote' },
      { __component: 'shared.rich-text', body: 'Some *Markdown*' },
    ]);

    // A file set by another client stays when the Studio saves the component that holds it.
    const media = await uploadImage(s);
    await s.api(`/api/articles/${id}?status=draft`, {
      method: 'PUT',
      body: { data: { seo: { metaTitle: 'SEO title', shareImage: media } } },
    });
    const stored = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft.seo.shareImage;
    expect(stored).toBeTruthy();
    await page.reload();
    await page.locator('#field-seo\\.metaTitle').fill('SEO title 2');
    await page.getByRole('button', { name: 'Remove Rich text 2' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const after = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft;
    expect(after.seo).toMatchObject({ metaTitle: 'SEO title 2', shareImage: stored });
    expect(after.blocks).toHaveLength(1);
  });
  it('uploads a cover, shows it, and picks a file from the library', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('With a cover');
    await page
      .getByLabel('Upload a file')
      .first()
      .setInputFiles({
        name: 'cover.png',
        mimeType: 'image/png',
        buffer: png(40, 30),
      });
    const cover = page.locator('fieldset.media', { hasText: 'cover' });
    await cover.locator('.files img').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const rest = await s.api(`/api/articles/${id}?status=draft&populate=cover`);
    expect(rest.body.data.cover).toMatchObject({ name: 'cover.png', mime: 'image/png' });
    expect(JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft.cover).toBeTruthy();

    await cover.getByRole('button', { name: 'Remove cover.png' }).click();
    await cover.getByRole('button', { name: 'Choose from the library' }).click();
    await cover
      .getByRole('list', { name: 'Media library' })
      .getByRole('button', { name: /red\.png/ })
      .click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect
      .poll(async () => (await s.api(`/api/articles/${id}?status=draft&populate=cover`)).body.data.cover?.name)
      .toBe('red.png');
  });
  it('switches locale, shows the locales a document lacks, and creates the French version from English', async () => {
    const created = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Hello in English', description: 'An English text', views: 3 } },
    });
    const id = created.body.data.documentId;
    await page.goto(`${s.url}/admin/content/articles/${id}?locale=en`);
    const switcher = page.getByLabel('Locale');
    await expect
      .poll(() => switcher.locator('option').allTextContents())
      .toEqual(['English (en)', 'French (fr) (missing)']);
    await switcher.selectOption('fr');
    await page.getByText('has no French (fr) version yet').waitFor();
    expect(await page.locator('#field-title').inputValue()).toBe('');
    // Fields shared by all locales show their value at once.
    expect(await page.locator('#field-views').inputValue()).toBe('3');
    await page.getByRole('button', { name: 'Fill it from English (en)' }).click();
    expect(await page.locator('#field-description').inputValue()).toBe('An English text');
    await page.locator('#field-title').fill('Bonjour en français');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const locales = JSON.parse(readFileSync(fileOf(id), 'utf8')).locales;
    expect(locales.fr.draft).toMatchObject({ title: 'Bonjour en français', description: 'An English text' });
    expect(locales.en.draft.title).toBe('Hello in English');
    await expect.poll(() => switcher.locator('option').allTextContents()).toEqual(['English (en)', 'French (fr)']);
  });
  it('publishes, unpublishes and deletes documents in bulk from the list', async () => {
    await page.goto(`${s.url}/admin/content/articles?q=Bulk%202`);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const ids = await Promise.all(
      ['Bulk 2', 'Bulk 20'].map(async (title) => {
        const found = await s.api(`/api/articles?status=draft&filters[title][$eq]=${encodeURIComponent(title)}`);
        return found.body.data[0].documentId as string;
      }),
    );
    await page.getByLabel('Select every document on this page').check();
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await page.getByText('Published 2 of 2.').waitFor();
    await expect.poll(() => rows.locator('.status').allTextContents()).toEqual(['published', 'published']);
    for (const id of ids) expect((await s.api(`/api/articles/${id}`)).status).toBe(200);
    await page.getByLabel('Select Bulk 20').check();
    await page.getByRole('button', { name: 'Unpublish selected' }).click();
    await page.getByText('Unpublished 1 of 1.').waitFor();
    expect((await s.api(`/api/articles/${ids[1]}`)).status).toBe(404);
    await page.getByLabel('Select every document on this page').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('button', { name: 'Delete 2 for good' }).click();
    await page.getByText('Deleted 2 of 2.').waitFor();
    await expect.poll(() => rows.count()).toBe(0);
    for (const id of ids) expect(existsSync(fileOf(id))).toBe(false);
  });

  it('deletes the open document after a confirmation', async () => {
    const created = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Short-lived' } } });
    const id = created.body.data.documentId;
    await page.goto(`${s.url}/admin/content/articles/${id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(existsSync(fileOf(id))).toBe(true);
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText('Deleted the Article (en).').waitFor();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    expect(existsSync(fileOf(id))).toBe(false);
  });
  it('fills a new uid from its target field until it is edited, and previews Markdown, sanitised', async () => {
    await page.goto(`${s.url}/admin/content/articles/new`);
    await page.locator('#field-title').fill('Ça marche très bien');
    expect(await page.locator('#field-slug').inputValue()).toBe('ca-marche-tres-bien');
    await page.locator('#field-slug').fill('my-own-slug');
    await page.locator('#field-title').fill('Another title');
    expect(await page.locator('#field-slug').inputValue()).toBe('my-own-slug');
    await page.getByLabel('Component to add').selectOption('shared.rich-text');
    await page.getByRole('button', { name: 'Add to blocks' }).click();
    await page.locator('#field-blocks\\.0\\.body').fill('Some **bold** <img src=x onerror="window.hacked=1">');
    await page.getByRole('button', { name: 'Preview body' }).click();
    const preview = page.getByRole('region', { name: 'Preview of body' });
    await preview.locator('strong', { hasText: 'bold' }).waitFor();
    expect(await preview.locator('img').getAttribute('onerror')).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  });
  it('filters the list on scalar fields, on the server', async () => {
    await page.goto(`${s.url}/admin/content/articles`);
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    await page.getByLabel('Filter on').selectOption('views');
    await page.getByLabel('Condition').selectOption({ label: 'is more than' });
    await page.getByLabel('Value').fill('10');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Written in the Studio');
    await page.getByLabel('Filter on').selectOption('title');
    await page.getByLabel('Condition').selectOption({ label: 'contains' });
    await page.getByLabel('Value').fill('nothing like this');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByRole('button', { name: 'Remove filter title contains nothing like this' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(decodeURIComponent(page.url())).toContain('["views","$gt","10"]');
  });
  it('manages the media library: upload by picking and by dropping, alt text and caption, delete', async () => {
    await page.getByRole('link', { name: 'Media library' }).click();
    await page.getByRole('heading', { name: 'Media library' }).waitFor();
    await page.getByLabel('Upload files (or drop them here)').setInputFiles({
      name: 'picked.png',
      mimeType: 'image/png',
      buffer: png(20, 20),
    });
    const card = page.locator('.card', { hasText: 'picked.png' });
    await card.waitFor();
    // A drop on the zone uploads too.
    const drop = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(
        new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a])], 'dropped.pdf', {
          type: 'application/pdf',
        }),
      );
      return dt;
    });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: drop });
    await page.locator('.card', { hasText: 'dropped.pdf' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await card.getByLabel('Alt text').fill('A small red square');
    await card.getByLabel('Caption').fill('Red');
    await card.getByRole('button', { name: 'Save picked.png' }).click();
    await card.getByText('Saved.').waitFor();
    const files = (await s.api('/api/upload/files')).body as {
      id: number;
      name: string;
      alternativeText: string;
      caption: string;
    }[];
    const picked = files.find((f) => f.name === 'picked.png')!;
    expect(picked).toMatchObject({ alternativeText: 'A small red square', caption: 'Red' });

    await card.getByRole('button', { name: 'Delete picked.png' }).click();
    await card.getByRole('button', { name: 'Delete picked.png for good' }).click();
    await expect.poll(() => page.locator('.card', { hasText: 'picked.png' }).count()).toBe(0);
    expect((await s.api(`/api/upload/files/${picked.id}`)).status).toBe(404);
  });
  it('edits blocks (paragraphs, headings, lists), keeping the formatting of blocks it does not change', async () => {
    const bold = { type: 'paragraph', children: [{ type: 'text', text: 'Strong words', bold: true }] };
    const created = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'With blocks', body: [bold] } },
    });
    const id = created.body.data.documentId;
    await page.goto(`${s.url}/admin/content/articles/${id}`);
    await page.getByRole('textbox', { name: 'Text of block 1' }).locator('strong').waitFor();
    for (const [kind, text, block] of [
      ['Heading 2', 'A heading', 'Text of block 2'],
      ['Bulleted list', 'one\ntwo', 'Text of block 3'],
    ]) {
      await page.getByLabel('Block to add').selectOption({ label: kind });
      await page.getByRole('button', { name: 'Add a block to body' }).click();
      await page.getByRole('textbox', { name: block }).click();
      for (const [i, line] of text.split('\n').entries()) {
        if (i) await page.keyboard.press('Enter');
        await page.keyboard.type(line);
      }
    }
    await page.getByRole('button', { name: 'Move up block 2' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    expect(JSON.parse(readFileSync(fileOf(id), 'utf8')).locales.en.draft.body).toEqual([
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'A heading' }] },
      bold,
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: 'one' }] },
          { type: 'list-item', children: [{ type: 'text', text: 'two' }] },
        ],
      },
    ]);
  });
  it('links from the other side of a relation (an author’s articles)', async () => {
    const author = await s.api('/api/authors', { method: 'POST', body: { data: { name: 'Other Side' } } });
    const article = await s.api('/api/articles?status=draft', {
      method: 'POST',
      body: { data: { title: 'Linked from the author' } },
    });
    await page.goto(`${s.url}/admin/content/authors/${author.body.data.documentId}`);
    await page.getByLabel('Add an Article').fill('Linked from');
    await page.getByRole('button', { name: 'Linked from the author' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const id = article.body.data.documentId;
    await expect
      .poll(async () => (await s.api(`/api/articles/${id}?status=draft&populate=author`)).body.data.author?.name)
      .toBe('Other Side');
  });
});
