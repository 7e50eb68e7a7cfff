import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './helpers/project.js';
import { hasScript, inTerminal } from './helpers/terminal.js';
import { runFolio } from './helpers/cli.js';

/** Progress shows once work lasts FOLIO_PROGRESS_AFTER_MS: 0 here, so that the small example shows it. */
const now = (args: string) => `FOLIO_PROGRESS_AFTER_MS=0 node ${BIN} ${args}`;

describe('progress on a terminal', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-progress-'));
    // Set up in this process (see helpers/cli.ts): what runs in a terminal, or on a pipe, is what is checked.
    expect((await runFolio(['init', dir, '--example', 'blog', '-q'])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(!hasScript)(
    'validate, export and field migrations draw a progress line on stderr',
    async () => {
      const validate = await inTerminal(now(`validate --dir ${dir}`), []);
      expect(validate.code, validate.out).toBe(0);
      expect(validate.out).toMatch(/checking documents \[[#.]+\] \d+\/\d+ \d+\.\ds/);
      expect(validate.out).toMatch(/ok: \d+ documents/);
      const exported = await inTerminal(now(`export --out ${join(dir, 'out')} --dir ${dir}`), []);
      expect(exported.code, exported.out).toBe(0);
      expect(exported.out).toMatch(/exporting to \S+ \[[#.]+\] \d+\/\d+/);
      const renamed = await inTerminal(now(`types rename-field category description summary --dir ${dir}`), []);
      expect(renamed.code, renamed.out).toBe(0);
      expect(renamed.out).toMatch(/renaming description in categories \[[#.]+\] \d+\/\d+/);
    },
    60_000,
  );

  it.skipIf(!hasScript)(
    '--json and --quiet on a terminal draw none',
    async () => {
      for (const flag of ['--json', '--quiet']) {
        const r = await inTerminal(now(`validate ${flag} --dir ${dir}`), []);
        expect(r.code, r.out).toBe(0);
        expect(r.out).not.toContain('checking documents');
      }
    },
    60_000,
  );

  it('nothing is drawn when stderr is not a terminal (validate, export)', () => {
    const r = spawnSync('node', [BIN, 'validate', '--dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, FOLIO_PROGRESS_AFTER_MS: '0' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^ok: \d+ documents/);
    const exported = spawnSync('node', [BIN, 'export', '--out', join(dir, 'piped'), '--dir', dir], {
      encoding: 'utf8',
      env: { ...process.env, FOLIO_PROGRESS_AFTER_MS: '0' },
    });
    expect(exported.status).toBe(0);
    expect(exported.stderr).toMatch(/^exported \d+ files to \S+\n$/);
  });
});
