import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AuthService } from '../../src/auth/service.js';
import { makeProject, startTestServer, type TestServer } from './project.js';
import { CHROMIUM } from './requirements.js';

/** Chromium as `command -v chromium` finds it ('' where it is not installed: the browser tests are then skipped). */
export { CHROMIUM } from './requirements.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let launched: Promise<Browser> | undefined;

/**
 * The features Playwright's launch disables (its `chromiumSwitches`). Chromium keeps only the last
 * `--disable-features` of its command line, so the one `studioBrowser` adds repeats them; it checks the two agree.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Ours besides: the omnibox popup, a WebUI page that headless Chromium otherwise loads for every page the tests
 * open, in a renderer of its own that no test sees (most of the CPU a new page costs).
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The `--disable-features` values on the command line of the Chromium this process started (none without /proc). */
function launchedDisabledFeatures(): string[][] {
  const pids = existsSync('/proc') ? readdirSync('/proc').filter((name) => /^\d+$/.test(name)) : [];
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args.includes('--remote-debugging-pipe')) continue;
      return args.filter((a) => a.startsWith('--disable-features=')).map((a) => a.split('=')[1].split(','));
    } catch {
      // A process that ended meanwhile.
    }
  }
  return [];
}

/**
 * The worker's Chromium, launched on first use and shared by the test files the worker runs (Vitest runs them
 * with `isolate: false`): each file works in contexts of its own and closes them with `closeContexts`. Playwright
 * kills the browser when the worker process exits.
 */
export function studioBrowser(): Promise<Browser> {
  launched ??= chromium
    .launch({
      executablePath: CHROMIUM,
      // No GPU process: the tests read the page, never its pixels, and a software GPU costs the cores they share.
      args: ['--disable-gpu', `--disable-features=${DISABLED_FEATURES.join(',')}`],
    })
    .then((browser) => {
      browser.on('disconnected', () => (launched = undefined));
      const [playwrights] = launchedDisabledFeatures();
      const lost = (playwrights ?? []).filter((feature) => !DISABLED_FEATURES.includes(feature));
      if (lost.length) {
        void browser.close();
        throw new Error(`Playwright now disables ${lost.join(', ')}: add them to PLAYWRIGHT_DISABLED_FEATURES`);
      }
      return browser;
    });
  return launched;
}

/** Closes every context (and so every page) open in the shared browser: what a test file opened, at its end. */
export async function closeContexts(browser: Browser | undefined) {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** What the Studio needs to read the model, and what an editor of the blog fixture may do besides its types. */
export const STUDIO_ACTIONS = [
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.destroy',
  'plugin::i18n.locales.listLocales',
];

/** Gives a role of the project's permissions.json more actions. */
export function grant(contentDir: string, role: string, actions: string[]) {
  const file = join(contentDir, 'permissions.json');
  const perms = JSON.parse(readFileSync(file, 'utf8'));
  perms.roles[role].permissions.push(...actions);
  writeFileSync(file, `${JSON.stringify(perms, null, 2)}\n`);
}

/** An account of the authenticated role (which the fixture lets write every type), with the Studio's actions. */
export async function makeEditor(dir: string): Promise<{ identifier: string; password: string }> {
  grant(join(dir, 'content'), 'authenticated', STUDIO_ACTIONS);
  const account = { identifier: 'editor@example.com', password: 'editor-pass-1' };
  await new AuthService(dir).createUser({
    username: 'editor',
    email: account.identifier,
    password: account.password,
    role: 'authenticated',
  });
  return account;
}

/**
 * A page of a new browser context, signed in to the Studio at `url` with a password: through the API, which leaves
 * the session where the Studio's sign-in form leaves it (the refresh token in an httpOnly cookie), so the Studio
 * opens signed in. The form itself is studio.test.ts's.
 */
export async function signedIn(browser: Browser, url: string, account: { identifier: string; password: string }) {
  const context = await browser.newContext();
  const login = await context.request.post(`${url}/api/auth/local`, {
    headers: { 'x-strapi-refresh-cookie': 'httpOnly' },
    data: account,
  });
  if (!login.ok()) throw new Error(`Signing in as ${account.identifier}: ${login.status()}`);
  // What the Studio's own sign-in leaves besides the cookie: the hint that a reload should renew the session.
  await context.addInitScript(() => {
    if (sessionStorage.getItem('hinted')) return;
    sessionStorage.setItem('hinted', '1');
    localStorage.setItem('folio-studio:signed-in', '1');
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => process.stderr.write(`browser: ${e.message}\n`));
  await page.goto(`${url}/admin`);
  await page.getByRole('navigation', { name: 'Content types' }).getByRole('link').first().waitFor();
  return page;
}

/** Accessibility problems axe-core finds in the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag, which the Studio's content security policy refuses; once a page.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } })
      .axe;
    return (await axe.run()).violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** What `studioSession` opens: the project, its server, and a page signed in to the Studio as an editor. */
export interface StudioSession {
  made: ReturnType<typeof makeProject>;
  s: TestServer;
  browser: Browser;
  page: Page;
}

/**
 * A signed-in Studio over a fresh project for one describe block (registers its beforeAll and afterAll):
 * `prepare` changes the project's files before the server starts, `seed` adds content through the API after.
 */
export function studioSession(
  opts: { prepare?: (contentDir: string) => void; seed?: (s: TestServer) => Promise<void> } = {},
): StudioSession {
  const session = {} as StudioSession;
  beforeAll(async () => {
    session.made = makeProject();
    opts.prepare?.(session.made.contentDir);
    const account = await makeEditor(session.made.dir);
    session.s = await startTestServer({ dir: session.made.dir });
    await opts.seed?.(session.s);
    session.browser = await studioBrowser();
    session.page = await signedIn(session.browser, session.s.url, account);
  }, 60_000);
  afterAll(async () => {
    await closeContexts(session.browser);
    await session.s?.stop();
    session.made?.cleanup();
  });
  return session;
}

/** Collects what the page logs as errors (console errors, failed loads, uncaught exceptions), for "none" checks. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
