import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { serialize } from '../../store/serialize.js';
import { checkAttribute } from '../../schema/validate-schema.js';
import { loadSchemas } from '../../schema/registry.js';
import type { GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable } from '../output.js';
import { prompts } from '../prompts.js';
import { didYouMean } from '../suggest.js';
import { pluralize, type FieldOptions } from '../guided.js';
import { buildAttribute, fieldFlags } from './attribute-flags.js';
import { readJson, writeSchema, type BuilderContext, type Json } from './schema-files.js';

const unknownComponent = (uid: string, uids: Iterable<string>) =>
  new CliError(`Unknown component "${uid}".${didYouMean(uid, uids)} See "folio components list".`);

/** `folio components …`: list, create, show, and add a field to a component. */
export function registerComponents(program: Command, globals: () => GlobalOptions, { contentDir }: BuilderContext) {
  const components = program
    .command('components')
    .description('components (content/components/<category>/<name>.json)');
  components
    .command('list')
    .description('list components')
    .action(async () => {
      const opts = globals();
      const reg = loadSchemas(contentDir());
      const list = [...reg.components.values()].map((c) => ({
        uid: c.uid,
        displayName: c.displayName,
        fields: Object.keys(c.attributes).length,
      }));
      if (opts.json) return printJson(list);
      printTable(
        ['uid', 'name', 'fields'],
        list.map((c) => [c.uid, c.displayName, String(c.fields)]),
      );
    });
  components
    .command('create <uid>')
    .description('create a component, e.g. "shared.hero"')
    .option('--display-name <name>')
    .option('--icon <icon>')
    .action(async (uid: string, o: { displayName?: string; icon?: string }) => {
      const opts = globals();
      const m = /^([a-z0-9-]+)\.([a-z0-9-]+)$/.exec(uid);
      if (!m) throw new CliError('A component uid is <category>.<name> in kebab-case, e.g. shared.hero');
      const file = join(contentDir(), 'components', m[1], `${m[2]}.json`);
      if (existsSync(file)) throw new CliError(`${file} already exists`);
      const displayName =
        o.displayName ??
        m[2]
          .split('-')
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join(' ');
      const schema = {
        collectionName: `components_${m[1]}_${pluralize(m[2]).replace(/-/g, '_')}`,
        info: { displayName, icon: o.icon ?? 'cube', description: '' },
        options: {},
        attributes: {},
      };
      await writeFileAtomic(file, serialize(schema));
      printResult(opts, { uid, file, schema }, `created component ${uid} (${file})\n`);
    });
  components
    .command('show <uid>')
    .description('show a component and its fields')
    .action(async (uid: string) => {
      const opts = globals();
      const comp = loadSchemas(contentDir()).components.get(uid);
      if (!comp) throw unknownComponent(uid, loadSchemas(contentDir()).components.keys());
      if (opts.json) return printJson(comp.raw);
      printTable(
        ['field', 'type'],
        Object.entries(comp.attributes).map(([n, a]) => [n, a.type]),
      );
    });
  fieldFlags(components.command('add-field <uid> <name>').description('add a field to a component'))
    .option('-y, --yes', 'never ask: what the flags leave out is left out')
    .action(async (uid: string, field: string, o: FieldOptions & { yes?: boolean }) => {
      const opts = globals();
      const reg = loadSchemas(contentDir());
      const comp = reg.components.get(uid);
      if (!comp) throw unknownComponent(uid, reg.components.keys());
      const schema = readJson(comp.file);
      const attrs = schema.attributes as Json;
      if (field in attrs) throw new CliError(`${uid} already has a field "${field}"`);
      const { attr } = await buildAttribute(
        o,
        { reg, attributes: attrs, isComponent: true, draftAndPublish: false, localizedType: false },
        prompts({ ...opts, yes: o.yes }),
      );
      const known = { contentTypes: new Set(reg.contentTypes.keys()), components: new Set(reg.components.keys()) };
      const problems = checkAttribute(comp.file, field, attr, known, {
        draftAndPublish: false,
        allowDynamicZone: false,
        attributes: { ...attrs, [field]: attr },
      });
      if (problems.length) throw new CliError(problems.map((p) => p.message).join('; '));
      attrs[field] = attr;
      await writeSchema(comp.file, schema);
      printResult(opts, { uid, field, attribute: attr }, `added ${field} (${attr.type}) to ${uid}\n`);
    });
}
