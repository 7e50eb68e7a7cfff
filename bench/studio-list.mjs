// The Studio's first list on 10,000 articles: the real `folio serve` (dist/, so `npm run build` first) and
// Debian's Chromium, signed in beforehand. Prints the time from a click on "Article" to the list shown, and
// from a page load of /admin/content/articles to the list shown. Usage: node bench/studio-list.mjs
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { generate } from './generate.mjs';

const REPO = resolve(import.meta.dirname, '..');
const { AuthService } = await import(join(REPO, 'dist', 'auth', 'service.js'));
const dir = generate(10000);
const file = join(dir, 'content', 'permissions.json');
const perms = JSON.parse(readFileSync(file, 'utf8'));
perms.roles.authenticated ??= { name: 'Authenticated', description: '', permissions: [] };
perms.roles.authenticated.permissions.push(
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
  'api::article.article.find',
  'api::article.article.findOne',
  'plugin::users-permissions.user.me',
);
perms.roles.public.permissions.push('plugin::users-permissions.auth.refresh');
writeFileSync(file, JSON.stringify(perms, null, 2));
await new AuthService(dir).createUser({ username: 'bench', email: 'bench@example.com', password: 'bench-pass-1' });

const server = spawn(process.execPath, [join(REPO, 'bin', 'folio'), 'serve', '--port', '0', '--quiet'], {
  cwd: dir,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((res) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /(http:\/\/\S+:\d+)\/api/.exec(out);
    if (m) res(m[1]);
  });
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  const nav = () => page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Article' });
  await page.goto(`${url}/admin`);
  await page.getByLabel('E-mail or username').fill('bench');
  await page.getByLabel('Password').fill('bench-pass-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await nav().waitFor();
  const click = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${url}/admin`);
    await nav().waitFor();
    const t0 = performance.now();
    await nav().click();
    await page.getByText(/Page 1 of 500/).waitFor({ timeout: 30000 });
    click.push(Math.round(performance.now() - t0));
  }
  const load = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await page.goto(`${url}/admin/content/articles`);
    await page.getByText(/Page 1 of 500/).waitFor({ timeout: 30000 });
    load.push(Math.round(performance.now() - t0));
  }
  console.log(`list after a click on Article (ms): ${click.join(', ')}`);
  console.log(`page load to the first list (ms): ${load.join(', ')}`);
} finally {
  await browser.close();
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
