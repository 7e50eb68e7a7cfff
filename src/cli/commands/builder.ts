import type { Command } from 'commander';
import { existsSync, rmSync } from 'node:fs';
import { fileChanged } from '../../store/atomic.js';
import { join } from 'node:path';
import { FileStore } from '../../store/store.js';
import { checkModelName } from '../../schema/validate-schema.js';
import { loadSchemas } from '../../schema/registry.js';
import { migrateVersions } from '../../documents/migrate.js';
import type { GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable } from '../output.js';
import { prompts, checkWith } from '../prompts.js';
import { askTypeOptions, fieldNameProblem, type TypeOptions } from '../guided.js';
import { withProgress } from '../progress.js';
import { registerComponents } from './components.js';
import { readJson, writeSchema, builderContext, type Json } from './schema-files.js';
import { addField, registerFieldCommands } from './type-fields.js';

export function registerBuilder(program: Command, globals: () => GlobalOptions) {
  const ctx = builderContext(globals);
  const { contentDir, typeFile, findType } = ctx;
  const types = program.commands.find((c) => c.name() === 'types') ?? program.command('types');

  types
    .command('create')
    .description('create a content-type (asks on a terminal for what flags do not say)')
    .option('--display-name <name>')
    .option('--singular <name>')
    .option('--plural <name>')
    .option('--kind <kind>', 'collection or single')
    .option('--draft-and-publish', 'drafts and publishing')
    .option('--no-draft-and-publish', 'no drafts: every write is published')
    .option('--i18n', 'localized')
    .option('--no-i18n', 'one version per document, whatever the locale')
    .option('--description <text>')
    .addHelpText(
      'after',
      `
Examples:
  folio types create --display-name "Blog Post" --draft-and-publish --i18n
  folio types create --display-name Homepage --kind single`,
    )
    .option('-y, --yes', 'never ask: take the defaults for what the flags leave out')
    .action(async (flags: TypeOptions & { yes?: boolean }) => {
      const opts = globals();
      const ui = prompts({ ...opts, yes: flags.yes });
      const reg = loadSchemas(contentDir());
      const o = await askTypeOptions(flags, reg, ui);
      if (!['collection', 'single'].includes(o.kind)) throw new CliError('--kind must be collection or single');
      for (const n of [o.singular, o.plural]) {
        const p = checkModelName(n);
        if (p) throw new CliError(p);
      }
      if (o.singular === o.plural)
        throw new CliError(
          `The singular and plural names must differ: pass --plural (e.g. --plural ${o.plural}-items)`,
        );
      for (const ct of reg.contentTypes.values()) {
        if ([ct.singularName, ct.pluralName].some((n) => n === o.singular || n === o.plural))
          throw new CliError(`The name is already used by ${ct.uid}`);
      }
      const schema: Json = {
        kind: o.kind === 'single' ? 'singleType' : 'collectionType',
        collectionName: o.plural.replace(/-/g, '_'),
        info: {
          singularName: o.singular,
          pluralName: o.plural,
          displayName: o.displayName,
          description: o.description,
        },
        options: { draftAndPublish: o.draftAndPublish },
        pluginOptions: o.i18n ? { i18n: { localized: true } } : {},
        attributes: {},
      };
      const file = typeFile(o.singular);
      if (existsSync(file)) throw new CliError(`${file} already exists`);
      await writeSchema(file, schema);
      if (opts.json) printJson(schema);
      else if (!opts.quiet)
        process.stdout.write(
          `created api::${o.singular}.${o.singular} (${file})` +
            (ui.interactive ? '\n' : `; add fields with "folio types add-field ${o.singular} <name> --type <kind>"\n`),
        );
      // On a terminal, model the fields right away: one question loop per field, until the user is done.
      while (
        ui.interactive &&
        (await ui.ask<boolean>({
          type: 'confirm',
          message: `Add a field to ${o.singular}?`,
          default: Object.keys(readJson(file).attributes as Json).length === 0,
        }))
      ) {
        const current = loadSchemas(contentDir());
        const ct = current.find(o.singular)!;
        const field = await ui.ask<string>({
          type: 'input',
          message: 'Field name',
          validate: checkWith((a) =>
            fieldNameProblem(a, {
              reg: current,
              attributes: readJson(file).attributes as Json,
              isComponent: false,
              draftAndPublish: ct.draftAndPublish,
            }),
          ),
        });
        await addField(ctx, o.singular, field.trim(), {}, opts, ui);
      }
    });

  types
    .command('show <type>')
    .description('show a content-type and its fields')
    .action(async (name: string) => {
      const opts = globals();
      const { ct, schema } = findType(name);
      if (opts.json) return printJson(schema);
      process.stdout.write(
        `${ct.uid}  ${ct.kind}  /api/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}  ` +
          `d&p:${ct.draftAndPublish ? 'yes' : 'no'}  i18n:${ct.localized ? 'yes' : 'no'}\n`,
      );
      printTable(
        ['field', 'type', 'options'],
        Object.entries(ct.attributes).map(([n, a]) => {
          const { type, ...rest } = a as unknown as Json;
          return [
            n,
            String(type),
            Object.entries(rest)
              .filter(([k]) => k !== 'pluginOptions')
              .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
              .join(' '),
          ];
        }),
        80,
      );
    });

  registerFieldCommands(types, globals, ctx);

  types
    .command('delete <type>')
    .description('delete a content-type, its documents, and the relations that point at it')
    .option('--yes', 'do not ask for confirmation')
    .action(async (name: string, o: { yes?: boolean }) => {
      const opts = globals();
      const { reg, ct, file } = findType(name);
      const store = new FileStore(contentDir());
      const count = (await store.loadCollection(ct.pluralName)).documents.length;
      const pointing = [...reg.contentTypes.values()].flatMap((other) =>
        Object.entries(other.attributes)
          .filter(([, a]) => a.type === 'relation' && a.target === ct.uid && other.uid !== ct.uid)
          .map(([field]) => ({ other, field })),
      );
      const fields = pointing.map((p) => `${p.other.singularName}.${p.field}`).join(', ');
      const summary =
        `This deletes ${ct.uid}, its ${count} document(s)` +
        `${pointing.length ? `, and the relation field(s) ${fields}` : ''}.`;
      if (!o.yes) {
        const ui = prompts(opts);
        if (!ui.interactive) throw new CliError(`${summary} Pass --yes to confirm.`);
        if (!(await ui.ask<boolean>({ type: 'confirm', message: `${summary} Continue?`, default: false }))) return;
      }
      for (const { other, field } of pointing) {
        const s = readJson(other.file);
        delete (s.attributes as Json)[field];
        await writeSchema(other.file, s);
        await withProgress(`removing ${field} from ${other.pluralName}`, opts, (bar) =>
          migrateVersions(store, other.pluralName, (v) => (field in v ? (delete v[field], true) : false), bar.update),
        );
      }
      rmSync(file);
      rmSync(join(contentDir(), 'documents', ct.pluralName), { recursive: true, force: true });
      for (const gone of [file, join(contentDir(), 'documents', ct.pluralName)]) fileChanged(gone, null);
      printResult(
        opts,
        { uid: ct.uid, documents: count, removedFields: pointing.map((p) => `${p.other.uid}.${p.field}`) },
        `deleted ${ct.uid}\n`,
      );
    });
  registerComponents(program, globals, ctx);
}
