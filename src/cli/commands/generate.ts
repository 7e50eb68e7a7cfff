import type { Command } from 'commander';
import { writeFileAtomic } from '../../store/atomic.js';
import { loadProject, type GlobalOptions } from '../context.js';
import { printJson } from '../output.js';

export function registerGenerate(program: Command, globals: () => GlobalOptions) {
  const generate = program
    .command('generate')
    .description('generate TypeScript types or an OpenAPI document from the schemas');
  generate
    .command('types')
    .description('TypeScript types of the REST responses of every content-type and component')
    .option('--out <file>', 'write to a file instead of standard output')
    .addHelpText(
      'after',
      `
Example:
  folio generate types --out ../site/src/folio-types.ts`,
    )
    .action(async (o: { out?: string }) => {
      const opts = globals();
      const project = await loadProject(opts);
      const { generateTypes } = await import('../../codegen/ts-types.js');
      const text = generateTypes(project.schemas);
      if (o.out) {
        await writeFileAtomic(o.out, text);
        if (opts.json) printJson({ out: o.out, bytes: Buffer.byteLength(text) });
        else if (!opts.quiet) process.stderr.write(`wrote ${o.out}\n`);
      } else if (opts.json) printJson({ types: text });
      else process.stdout.write(text);
    });
  generate
    .command('openapi')
    .description('an OpenAPI 3.1 document of the REST API (also served at /api/openapi.json)')
    .option('--out <file>', 'write to a file instead of standard output')
    .action(async (o: { out?: string }) => {
      const opts = globals();
      const project = await loadProject(opts);
      const { buildOpenApi } = await import('../../codegen/openapi.js');
      const text = `${JSON.stringify(buildOpenApi(project.schemas), null, 2)}\n`;
      if (o.out) {
        await writeFileAtomic(o.out, text);
        if (opts.json) printJson({ out: o.out, bytes: Buffer.byteLength(text) });
        else if (!opts.quiet) process.stderr.write(`wrote ${o.out}\n`);
      } else process.stdout.write(text); // already one JSON document, with or without --json
    });
}
