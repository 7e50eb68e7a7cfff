import type { Command } from 'commander';
import { loadProject, type GlobalOptions } from '../context.js';
import { printJson, printTable } from '../output.js';

export function registerTypes(program: Command, globals: () => GlobalOptions) {
  const types = program.command('types').description('content-types of the project');
  types
    .command('list')
    .description('list content-types with their routes and document counts')
    .action(async () => {
      const opts = globals();
      const project = await loadProject(opts);
      const list = [...project.schemas.contentTypes.values()].map((ct) => ({
        uid: ct.uid,
        kind: ct.kind,
        singularName: ct.singularName,
        pluralName: ct.pluralName,
        displayName: ct.displayName,
        draftAndPublish: ct.draftAndPublish,
        localized: ct.localized,
        route: `/api/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`,
        documents: project.documents.index.count(ct.uid),
      }));
      if (opts.json) return printJson(list);
      printTable(
        ['uid', 'kind', 'route', 'd&p', 'i18n', 'documents'],
        list.map((t) => [
          t.uid,
          t.kind,
          t.route,
          t.draftAndPublish ? 'yes' : 'no',
          t.localized ? 'yes' : 'no',
          String(t.documents),
        ]),
      );
    });
}
