import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { ALLOWED_SKIPS } from '../allowed-skips.js';

/**
 * A reporter that makes skipped tests visible, and under `CI=true` fails the run on a skip test/allowed-skips.ts
 * does not list: a test that needs something the machine lacks must not pass CI by not running.
 * Runs narrowed by a name pattern (`-t`) skip the other tests on purpose and are not checked.
 */
export class SkipGuard implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest) {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (this.filtered) return;
    const skipped = modules.flatMap((m) =>
      [...m.children.allTests()]
        .filter((t) => t.result().state === 'skipped')
        .map((t) => ({ file: m.relativeModuleId.split('/').pop() ?? m.moduleId, name: t.fullName })),
    );
    if (!skipped.length) return;
    const listed = (s: { file: string; name: string }) =>
      ALLOWED_SKIPS.find((a) => a.file === s.file && s.name.startsWith(a.test));
    const unlisted = skipped.filter((s) => !listed(s));
    const lines = skipped.map((s) => `  ${s.file} > ${s.name}: ${listed(s)?.reason ?? 'NOT LISTED'}`);
    const ci = process.env.CI === 'true' || process.env.CI === '1';
    process.stderr.write(`\n${skipped.length} skipped test(s):\n${lines.join('\n')}\n`);
    if (ci && unlisted.length) {
      process.stderr.write(
        `\nCI=true: ${unlisted.length} skipped test(s) not in test/allowed-skips.ts. ` +
          'Install what they need (see .ci/run), or list them there with the reason they cannot run.\n',
      );
      process.exitCode = 1;
    }
  }
}
