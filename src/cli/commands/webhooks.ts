import type { Command } from 'commander';
import { loadProject, type GlobalOptions } from '../context.js';
import { CliError, printJson, printTable } from '../output.js';

export function registerWebhooks(program: Command, globals: () => GlobalOptions) {
  const webhooks = program.command('webhooks').description('webhooks configured in content/folio.json');
  webhooks
    .command('list')
    .description('list webhooks with their events')
    .action(async () => {
      const opts = globals();
      const project = await loadProject(opts);
      const list = project.config.webhooks;
      if (opts.json) return printJson(list);
      if (!list.length) {
        process.stdout.write(
          'No webhooks. Add one to content/folio.json: "webhooks": [{ "name": "site", "url": "https://…", "events": ["entry.publish"] }]\n',
        );
        return;
      }
      printTable(
        ['name', 'url', 'events', 'enabled'],
        list.map((w) => [w.name, w.url, w.events.join(','), w.enabled ? 'yes' : 'no']),
      );
    });
  webhooks
    .command('test [name]')
    .description('send a trigger-test event to one webhook (or all) and show the answers')
    .addHelpText(
      'after',
      `
Example:
  folio webhooks test site`,
    )
    .action(async (name: string | undefined) => {
      const opts = globals();
      const project = await loadProject(opts);
      const hooks = project.config.webhooks.filter((w) => name === undefined || w.name === name);
      if (!hooks.length)
        throw new CliError(name ? `No webhook named "${name}" (see "folio webhooks list")` : 'No webhooks configured');
      const { deliver } = await import('../../webhooks/deliver.js');
      let failed = 0;
      const results = [];
      for (const hook of hooks) {
        const r = await deliver(
          hook,
          'trigger-test',
          { event: 'trigger-test', createdAt: new Date().toISOString() },
          { retryDelays: [] },
        );
        if (!r.ok) failed++;
        results.push({ name: hook.name, url: hook.url, ...r });
        if (!opts.json)
          process.stdout.write(
            `${hook.name}: ${r.ok ? 'ok' : 'FAILED'} (${r.status !== undefined ? `HTTP ${r.status}` : r.error})\n`,
          );
      }
      if (opts.json) printJson(results);
      if (failed) process.exitCode = 1;
    });
}
