import type { Command } from 'commander';
import { relative, sep } from 'node:path';
import { loadProject, type GlobalOptions } from '../context.js';
import { printJson, printTable } from '../output.js';
import { typeSummary } from '../../schema/types.js';

export function registerTypes(program: Command, globals: () => GlobalOptions) {
  const types = program.command('types').description('content-types of the project');
  types
    .command('list')
    .description('list content-types with their routes and document counts')
    .action(async () => {
      const opts = globals();
      const project = await loadProject(opts);
      const list = [...project.schemas.contentTypes.values()].map((ct) => ({
        ...typeSummary(ct),
        route: `/api/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`,
        documents: project.documents.index.count(ct.uid),
      }));
      // Schema files that did not load (broken, renamed, or pointing at one that did not) are listed with why.
      const loaded = new Set(
        [...project.schemas.contentTypes.values()].map((ct) => relative(project.contentDir, ct.file)),
      );
      const broken = new Map<string, string[]>();
      for (const p of project.schemas.problems)
        if (p.file.startsWith(`types${sep}`) && !loaded.has(p.file))
          broken.set(p.file, [
            ...(broken.get(p.file) ?? []),
            p.attribute ? `attribute "${p.attribute}": ${p.message}` : p.message,
          ]);
      const notLoaded = [...broken].map(([file, messages]) => ({
        file: file.split(sep).join('/'),
        problem: messages.join('; '),
      }));
      if (opts.json) return printJson([...list, ...notLoaded]);
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
      for (const b of notLoaded) process.stdout.write(`${b.file}: not loaded: ${b.problem}\n`);
    });
}
