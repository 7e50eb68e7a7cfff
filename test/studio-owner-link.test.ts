import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { spawnFolio } from './helpers/cli.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { axeViolations, CHROMIUM, closeContexts, consoleErrors, studioBrowser } from './helpers/studio.js';

const LINK = /http:\/\/\S+\/admin\/#sign-in=[\w-]+/g;
const lastLink = (serve: ServeProcess) => [...serve.stdout().matchAll(LINK)].at(-1)?.[0];

/** A project made by `folio init` as a new user makes it, served by a plain `folio serve`. */
async function initAndServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ dir: string; serve: ServeProcess }> {
  const parent = mkdtempSync(join(tmpdir(), 'folio-owner-'));
  const dir = join(parent, 'my-site');
  const made = await spawnFolio(['init', dir, ...args]);
  expect(made.code).toBe(0);
  const serve = await spawnServe(dir, [], env);
  await expect.poll(() => lastLink(serve)).toBeDefined();
  return { dir: parent, serve };
}

async function openLink(browser: Browser, link: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  const errors = consoleErrors(page);
  await page.goto(link);
  await page.getByText('Signed in as the project’s owner').waitFor();
  return { page, errors };
}

/** `npm install`, `folio init`, `folio serve`, one click: the Studio opens signed in as the project's owner. */
describe.skipIf(!existsSync(CHROMIUM))('Folio Studio signed in with one click', () => {
  let browser: Browser;
  const made: Array<{ dir: string; serve: ServeProcess }> = [];
  beforeAll(async () => {
    browser = await studioBrowser();
  });
  afterAll(async () => {
    await closeContexts(browser);
    for (const m of made) {
      await m.serve.stop();
      rmSync(m.dir, { recursive: true, force: true });
    }
  });

  it('opens a fresh project as its owner, and says how to make a first content-type', async () => {
    const fresh = await initAndServe([]);
    made.push(fresh);
    const { page, errors } = await openLink(browser, lastLink(fresh.serve)!);
    expect(page.url()).not.toContain('sign-in=');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await page.locator('main').textContent()).toContain('no content-type yet');
    expect(await page.locator('main code').first().textContent()).toBe('folio types create');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens the example blog as its owner, with every type, its counts and its latest edits', async () => {
    const blog = await initAndServe(['--example', 'blog']);
    made.push(blog);
    const { page, errors } = await openLink(browser, lastLink(blog.serve)!);
    const nav = page.getByRole('navigation', { name: 'Content types' });
    for (const name of ['Article', 'Author', 'Category', 'Tag', 'About', 'Global', 'Media library'])
      await nav.getByRole('link', { name, exact: true }).waitFor();
    await page.getByRole('link', { name: 'Article', exact: true }).first().waitFor();
    await expect.poll(() => page.locator('.type-cards').textContent()).toMatch(/Article\d+ entries/);
    expect(await page.locator('.latest li').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    // On a phone-sized screen: an article with its cover, a cover from the library instead, a new title, published.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Article', exact: true }).click();
    await page.getByLabel('Search', { exact: true }).fill('container queries');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: 'A practical guide to CSS container queries' }).click();
    const cover = page.locator('#field-cover');
    await cover.getByRole('img').waitFor();
    expect(await cover.textContent()).toContain('container-queries.jpg');
    await cover.getByRole('button', { name: 'Remove container-queries.jpg' }).click();
    await cover.getByRole('button', { name: /Choose from the library/ }).click();
    await cover.getByRole('button', { name: /event-loop\.jpg/ }).click();
    await page.locator('#field-title').fill('Container queries, in practice');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('region', { name: 'Save and publish' }).getByText('Published.').waitFor();
    const id = /articles\/([a-z0-9]{24})/.exec(page.url())![1];
    const published = await fetch(`${blog.serve.base}/api/articles/${id}?populate=cover`).then((r) => r.json());
    expect(published.data).toMatchObject({
      title: 'Container queries, in practice',
      cover: { name: 'event-loop.jpg' },
    });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });

    // Signed out, the sign-in page says how to get in: the command that prints links, and a new link printed now.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'On your own machine' }).waitFor();
    const offer = page.getByRole('region', { name: 'On your own machine' });
    expect(await offer.locator('code.command').textContent()).toBe('folio serve');
    expect(await page.locator('details code.command').textContent()).toBe('folio users create --role editor');
    expect(await axeViolations(page)).toEqual([]);
    const before = lastLink(blog.serve);
    await page.getByRole('button', { name: 'Print a new link in the terminal' }).click();
    await page.getByText('A new link is in the terminal').waitFor();
    await expect.poll(() => lastLink(blog.serve)).not.toBe(before);
    await page.goto(lastLink(blog.serve)!);
    await page.getByText('Signed in as the project’s owner').waitFor();
    expect(errors).toEqual([]);
  });

  it('names the command the server was started with on its sign-in page, as npm start started it', async () => {
    // What npm puts in the environment of `npm start` in Folio's checkout (its script is `node bin/folio serve`).
    const started = await initAndServe(['--example', 'blog'], {
      npm_command: 'start',
      npm_lifecycle_event: 'start',
      npm_lifecycle_script: 'node bin/folio serve',
    });
    made.push(started);
    const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    const errors = consoleErrors(page);
    await page.goto(`${started.serve.base}/admin`);
    const offer = page.getByRole('region', { name: 'On your own machine' });
    await offer.waitFor();
    expect(await offer.locator('code.command').textContent()).toBe('npm start');
    expect(await offer.textContent()).toContain('printed in the terminal where this server runs, started with');
    // Where npm started the server, `folio` may be on no PATH: the account's commands go through npx.
    await page.getByText('No account?').click();
    expect(await page.locator('details code.command').textContent()).toBe('npx folio users create --role editor');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
