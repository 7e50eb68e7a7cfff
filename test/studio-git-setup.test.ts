import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnFolio } from './helpers/cli.js';
import { git } from './helpers/git.js';
import { setupCommand } from '../src/git/setup.js';
import { axeViolations, CHROMIUM, consoleErrors, studioSession } from './helpers/studio.js';

/**
 * A document's history where git is not set up: the Studio says the exact commands that set it up, in a banner,
 * instead of a failed request; at desktop and phone widths.
 */
describe.skipIf(!CHROMIUM)('Folio Studio where git is not set up', () => {
  let id = '';
  const studio = studioSession({
    seed: async (s) => {
      const made = await s.api('/api/articles', { method: 'POST', body: { data: { title: 'Kept in files' } } });
      id = made.body.data.documentId;
    },
  });
  const banner = () => studio.page.locator('section.git-setup');
  const openHistory = async () => {
    await studio.page.goto(`${studio.s.url}/admin/content/articles/${id}`);
    await studio.page.getByRole('link', { name: 'History' }).click();
    await studio.page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
  };

  it('answers whether git is set up, to no anonymous caller', async () => {
    expect((await fetch(`${studio.s.url}/_folio/git/state`)).status).toBe(403);
    const state = await fetch(`${studio.s.url}/_folio/git/state`, { headers: studio.s.auth }).then((r) => r.json());
    // Served by the test runner, not by an npm script that runs Folio: `folio` as a user has it on the PATH.
    expect(state).toEqual({ data: { repository: false, mergeDriver: false, command: 'folio git setup' } });
  });

  it('outside a repository, says how to start one, without a failed request', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 740 });
      await openHistory();
      await page.getByRole('heading', { name: 'This project is not in git', level: 2 }).waitFor();
      expect(await banner().locator('code.command').textContent()).toBe('git init && folio git setup');
      expect(await page.getByText('Loading…').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(errors).toEqual([]);
  });

  it('without the merge driver, names `folio git setup`, and says nothing once it ran', async () => {
    const page = studio.page;
    const errors = consoleErrors(page);
    const dir = studio.s.dir;
    writeFileSync(join(dir, '.gitignore'), '.folio/\n');
    await git(dir, 'init', '-q', '-b', 'main');
    await git(dir, 'add', '-A');
    await git(dir, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-qm', 'First');
    await openHistory();
    await page.getByRole('heading', { name: 'Git is not set up for Folio', level: 2 }).waitFor();
    expect(await banner().locator('code.command').textContent()).toBe('folio git setup');
    // The history is there below it.
    await expect.poll(() => page.getByRole('table').first().getByRole('row').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    expect((await spawnFolio(['git', 'setup'], { cwd: dir })).code).toBe(0);
    await openHistory();
    await expect.poll(() => page.getByRole('table').first().getByRole('row').count()).toBe(2);
    expect(await banner().count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('names the setup command as Folio was started: npx under an npm script that runs it', () => {
    const npm = (event: string, script: string) => ({ npm_lifecycle_event: event, npm_lifecycle_script: script });
    expect(setupCommand({})).toBe('folio git setup');
    expect(setupCommand(npm('start', 'node bin/folio serve'))).toBe('npx folio git setup');
    expect(setupCommand(npm('npx', 'folio serve --commit'))).toBe('npx folio git setup');
    expect(setupCommand(npm('test', 'vitest run --config test/vitest.config.ts'))).toBe('folio git setup');
  });
});
