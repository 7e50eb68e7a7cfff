import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What some tests need from the machine, found as `.ci/run` finds it, so the tests and CI agree on what is there.
 * A test that cannot run without one is skipped where it is missing; under `CI=true` such a skip fails the run
 * unless test/allowed-skips.ts lists it (helpers/skip-guard.ts).
 */

/** The path `command -v <name>` prints (the shell's own lookup on PATH), or '' when there is none. */
export function commandPath(name: string): string {
  const found = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : '';
}

/** Chromium, which the Studio's browser tests drive ('' where it is not installed). */
export const CHROMIUM = commandPath('chromium');

/** util-linux `script`, which gives the terminal tests a real pseudo-terminal. */
export const hasScript = commandPath('script') !== '' && spawnSync('script', ['--version']).status === 0;

/** Whether this process may mount a file system (root with the rights a container may withhold). */
export const canMount = ((): boolean => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'folio-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
