import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { REPO } from './helpers/project.js';

interface LockEntry {
  version?: string;
  engines?: { node?: string };
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
}

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const installed = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), ...entry }));

/** The oldest release of each line `engines` admits: 20.19.0, 22.13.0, 24.0.0. */
const oldest = pkg.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);

/**
 * `npm install` in a checkout prints no warning on the Node versions the README names: what npm would warn
 * about is in the lockfile (each package's engines, and which have install scripts), checked here for every
 * line `engines` admits rather than by an install on each.
 */
describe('a quiet npm install', () => {
  it('the README names the Node versions package.json admits', () => {
    expect(oldest).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain('Node.js 20.19 or later, 22.13 or later, or 24 and later');
  });

  it.each([...oldest, process.versions.node])('every package installed supports Node %s (no EBADENGINE)', (node) => {
    // Packages for another platform (os/cpu) are not installed, so npm does not check them.
    const refused = installed
      .filter((p) => !p.os && !p.cpu && p.engines?.node && !semver.satisfies(node, p.engines.node))
      .map((p) => `${p.name}@${p.version} wants node ${p.engines!.node}`);
    expect(refused).toEqual([]);
  });

  it("every dependency's install script is allowed or denied in allowScripts (no install-scripts warning)", () => {
    const unreviewed = installed
      .filter((p) => p.hasInstallScript && !(p.name in (pkg.allowScripts ?? {})))
      .map((p) => p.name);
    expect(unreviewed).toEqual([]);
    // swagger-ui-dist's telemetry stays off.
    expect(pkg.allowScripts?.['@scarf/scarf']).toBe(false);
  });
});
