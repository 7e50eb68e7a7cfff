import type { Command } from 'commander';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { serialize } from '../../store/serialize.js';
import { FileStore } from '../../store/store.js';
import { checkAttribute, checkModelName } from '../../schema/validate-schema.js';
import { SCALAR_TYPES, RELATION_KINDS } from '../../schema/types.js';
import { loadSchemas } from '../../schema/registry.js';
import { migrateVersions, renameKey } from '../../documents/migrate.js';
import { contentDirOf } from '../../project.js';
import type { GlobalOptions } from '../context.js';
import { CliError, printJson, printResult, printTable } from '../output.js';
import { enumValuesProblem } from '../names.js';
import { prompts, type Prompts } from '../prompts.js';
import {
  askFieldOptions,
  askTypeOptions,
  fieldKinds,
  fieldNameProblem,
  pluralize,
  splitList,
  type FieldContext,
  type FieldOptions,
  type TypeOptions,
} from '../guided.js';
import { checkWith } from '../prompts.js';
import { withProgress } from '../progress.js';

type Json = Record<string, unknown>;

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const ORDER = ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes'];
/** Schema files keep Strapi's key order, so a change is a small diff. */
const ordered = (schema: Json) => {
  const out: Json = {};
  for (const k of ORDER) if (k in schema) out[k] = schema[k];
  for (const [k, v] of Object.entries(schema)) if (!(k in out)) out[k] = v;
  return out;
};
const writeSchema = (file: string, schema: Json) => writeFileAtomic(file, serialize(ordered(schema)));

/** Builds a Strapi attribute definition from the builder's flags (asking on a terminal for what is missing). */
async function buildAttribute(
  flags: FieldOptions,
  ctx: FieldContext & { localizedType: boolean },
  ui: Prompts,
): Promise<{ attr: Json; o: FieldOptions }> {
  const o = ui.interactive ? await askFieldOptions(flags, ctx, ui) : flags;
  const need = ui.need.bind(ui);
  const kinds = fieldKinds(ctx.isComponent);
  const type = await need(o.type, '--type', { type: 'list', message: 'Field type', choices: kinds });
  if (!kinds.includes(type)) throw new CliError(`--type must be one of: ${kinds.join(', ')}`);
  const a: Json = { type };
  const num = (v: string | undefined, flag: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new CliError(`${flag} must be a number`);
    return n;
  };
  if (o.required) a.required = true;
  if (o.unique) a.unique = true;
  if (o.private) a.private = true;
  if (type === 'enumeration') {
    const values = await need(o.enum, '--enum', { type: 'input', message: 'Values (comma-separated)' });
    a.enum = splitList(values);
    const problem = enumValuesProblem(a.enum as string[]);
    if (problem) throw new CliError(problem);
  }
  if (o.default !== undefined) {
    a.default = ['integer', 'float', 'decimal'].includes(type)
      ? num(o.default, '--default')
      : type === 'boolean'
        ? o.default === 'true'
        : o.default;
  }
  for (const [flag, key, v] of [
    ['--min', 'min', o.min],
    ['--max', 'max', o.max],
    ['--min-length', 'minLength', o.minLength],
    ['--max-length', 'maxLength', o.maxLength],
  ] as const) {
    const n = num(v, flag);
    if (n !== undefined) a[key] = n;
  }
  if (o.regex) a.regex = o.regex;
  if (type === 'uid' && o.targetField) a.targetField = o.targetField;
  if (type === 'media') {
    a.multiple = o.multiple === true;
    a.allowedTypes = (o.allowedTypes ?? 'images,files,videos,audios').split(',').map((x) => x.trim());
  }
  if (type === 'relation') {
    a.relation = await need(o.relation, '--relation', {
      type: 'list',
      message: 'Relation kind',
      choices: RELATION_KINDS.filter((k) => !k.startsWith('morph')),
    });
    const target = await need(o.target, '--target', { type: 'input', message: 'Target content-type (singular name)' });
    a.target = target.includes('::') ? target : `api::${target}.${target}`;
  }
  if (type === 'component') {
    a.component = await need(o.component, '--component', { type: 'input', message: 'Component uid (category.name)' });
    a.repeatable = o.repeatable === true;
  }
  if (type === 'dynamiczone') {
    const list = await need(o.components, '--components', {
      type: 'input',
      message: 'Allowed components (comma-separated uids)',
    });
    a.components = list
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  }
  if (ctx.localizedType && type !== 'relation' && type !== 'uid')
    a.pluginOptions = { i18n: { localized: o.localized !== false } };
  return { attr: a, o };
}

const fieldFlags = (c: Command) =>
  c
    .option('--type <kind>', `attribute kind: ${[...SCALAR_TYPES].join(', ')}, media, relation, component, dynamiczone`)
    .option('--required')
    .option('--unique')
    .option('--private')
    .option('--default <value>')
    .option('--min <n>')
    .option('--max <n>')
    .option('--min-length <n>')
    .option('--max-length <n>')
    .option('--regex <pattern>')
    .option('--enum <values>', 'enumeration values, comma-separated')
    .option('--target-field <field>', 'uid: the field it is made from')
    .option('--multiple', 'media: several files')
    .option('--allowed-types <list>', 'media: images,videos,files,audios')
    .option('--relation <kind>', 'oneToOne, oneToMany, manyToOne, manyToMany')
    .option('--target <type>', 'relation target (singular name)')
    .option('--inverse <field>', 'relation: name of the field on the target that points back')
    .option('--component <uid>')
    .option('--repeatable')
    .option('--components <uids>', 'dynamic zone: allowed components')
    .option('--no-localized', 'on a localized type: share this field across locales');

const INVERSE: Record<string, string> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

export function registerBuilder(program: Command, globals: () => GlobalOptions) {
  const contentDir = () => contentDirOf(globals().dir ?? process.cwd());
  const typeFile = (singular: string) => join(contentDir(), 'types', `${singular}.json`);
  const findType = (name: string) => {
    const reg = loadSchemas(contentDir());
    const ct = reg.find(name);
    if (!ct) throw new CliError(`Unknown content-type "${name}" (see "folio types list")`);
    return { reg, ct, file: ct.file, schema: readJson(ct.file) };
  };
  const types = program.commands.find((c) => c.name() === 'types') ?? program.command('types');

  /** Adds a field to a content-type (asking on a terminal for what `flags` leave out), migrating documents. */
  async function addField(name: string, field: string, flags: FieldOptions, opts: GlobalOptions, ui: Prompts) {
    const { reg, ct, file, schema } = findType(name);
    const attrs = schema.attributes as Json;
    if (field in attrs) throw new CliError(`${ct.uid} already has a field "${field}"`);
    const { attr, o } = await buildAttribute(
      flags,
      { reg, attributes: attrs, isComponent: false, draftAndPublish: ct.draftAndPublish, localizedType: ct.localized },
      ui,
    );
    if (attr.type === 'relation' && o.inverse) {
      if (attr.relation === 'manyToOne' || attr.relation === 'oneToOne') attr.inversedBy = o.inverse;
      else if (attr.relation === 'manyToMany') attr.inversedBy = o.inverse;
      else attr.mappedBy = o.inverse; // oneToMany: the target's manyToOne owns the link
    }
    const known = { contentTypes: new Set(reg.contentTypes.keys()), components: new Set(reg.components.keys()) };
    const problems = checkAttribute(file, field, attr, known, {
      draftAndPublish: ct.draftAndPublish,
      allowDynamicZone: true,
      attributes: { ...attrs, [field]: attr },
    });
    if (problems.length) throw new CliError(problems.map((p) => p.message).join('; '));
    attrs[field] = attr;
    if (attr.type === 'relation' && o.inverse) {
      const target = reg.contentTypes.get(attr.target as string)!;
      // A relation to its own type gets its other side in the same schema (written once, below).
      const self = target.uid === ct.uid;
      const targetSchema = self ? schema : readJson(target.file);
      const tAttrs = targetSchema.attributes as Json;
      if (o.inverse in tAttrs || (self && o.inverse === field))
        throw new CliError(`${target.uid} already has a field "${o.inverse}"`);
      const back: Json = { type: 'relation', relation: INVERSE[attr.relation as string], target: ct.uid };
      if (attr.mappedBy) back.inversedBy = field;
      else back.mappedBy = field;
      tAttrs[o.inverse] = back;
      if (!self) await writeSchema(target.file, targetSchema);
    }
    await writeSchema(file, schema);
    let filled = 0;
    // A new required field: say which documents lack it, and fill them when a default is given.
    if (
      attr.required &&
      [
        'string',
        'text',
        'integer',
        'float',
        'decimal',
        'boolean',
        'enumeration',
        'email',
        'uid',
        'date',
        'richtext',
      ].includes(attr.type as string)
    ) {
      const store = new FileStore(contentDir());
      if (o.default !== undefined) {
        filled = await withProgress(`filling ${field} in ${ct.pluralName}`, opts, (bar) =>
          migrateVersions(
            store,
            ct.pluralName,
            (v) => {
              if (v[field] === undefined || v[field] === null) {
                v[field] = attr.default;
                return true;
              }
              return false;
            },
            bar.update,
          ),
        );
        if (!opts.quiet && !opts.json && filled)
          process.stdout.write(`filled ${field} with the default in ${filled} document(s)\n`);
      } else {
        const { documents } = await store.loadCollection(ct.pluralName);
        if (documents.length && !opts.quiet && !opts.json)
          process.stderr.write(
            `${documents.length} existing document(s) have no ${field}: they cannot be published until it is set. ` +
              'Re-run with --default <value> to fill them.\n',
          );
      }
    }
    printResult(
      opts,
      { uid: ct.uid, field, attribute: attr, inverse: o.inverse ?? null, filled },
      `added ${field} (${attr.type}) to ${ct.uid}\n`,
    );
  }

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
        await addField(o.singular, field.trim(), {}, opts, ui);
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

  fieldFlags(types.command('add-field <type> <name>').description('add a field to a content-type'))
    .addHelpText(
      'after',
      `
Examples:
  folio types add-field article subtitle --type string --max-length 120
  folio types add-field article editor --type relation --relation manyToOne --target author --inverse editedArticles
  folio types add-field article gallery --type media --multiple --allowed-types images
  folio types add-field article rating --type integer --required --default 0     (fills existing documents)`,
    )
    .option('-y, --yes', 'never ask: what the flags leave out is left out')
    .action(async (name: string, field: string, o: FieldOptions & { yes?: boolean }) => {
      const opts = globals();
      await addField(name, field, o, opts, prompts({ ...opts, yes: o.yes }));
    });

  types
    .command('remove-field <type> <name>')
    .description('remove a field and drop it from the stored documents')
    .action(async (name: string, field: string) => {
      const opts = globals();
      const { reg, ct, file, schema } = findType(name);
      const attrs = schema.attributes as Json;
      const attr = attrs[field] as Json | undefined;
      if (!attr) throw new CliError(`${ct.uid} has no field "${field}"`);
      delete attrs[field];
      await writeSchema(file, schema);
      if (attr.type === 'relation' && (attr.inversedBy || attr.mappedBy)) {
        const target = reg.contentTypes.get(attr.target as string);
        const other = (attr.inversedBy ?? attr.mappedBy) as string;
        if (target) {
          const ts = readJson(target.file);
          const tAttr = (ts.attributes as Json)[other] as Json | undefined;
          if (tAttr) {
            delete tAttr.inversedBy;
            delete tAttr.mappedBy;
            await writeSchema(target.file, ts);
          }
        }
      }
      const n = await withProgress(`removing ${field} from ${ct.pluralName}`, opts, (bar) =>
        migrateVersions(
          new FileStore(contentDir()),
          ct.pluralName,
          (v) => (field in v ? (delete v[field], true) : false),
          bar.update,
        ),
      );
      printResult(
        opts,
        { uid: ct.uid, field, documentFiles: n },
        `removed ${field} from ${ct.uid} and from ${n} document file(s)\n`,
      );
    });

  types
    .command('rename-field <type> <from> <to>')
    .description('rename a field, in the schema and in every stored document')
    .action(async (name: string, from: string, to: string) => {
      const opts = globals();
      const { reg, ct, file, schema } = findType(name);
      const attrs = schema.attributes as Json;
      if (!(from in attrs)) throw new CliError(`${ct.uid} has no field "${from}"`);
      if (to in attrs) throw new CliError(`${ct.uid} already has a field "${to}"`);
      const known = { contentTypes: new Set(reg.contentTypes.keys()), components: new Set(reg.components.keys()) };
      const problems = checkAttribute(file, to, attrs[from], known, {
        draftAndPublish: ct.draftAndPublish,
        allowDynamicZone: true,
        attributes: attrs,
      });
      if (problems.length) throw new CliError(problems.map((p) => p.message).join('; '));
      schema.attributes = renameKey(attrs, from, to);
      const attr = attrs[from] as Json;
      // The other side of a bidirectional relation names this field: follow the rename there.
      if (attr.type === 'relation' && (attr.inversedBy || attr.mappedBy)) {
        const target = reg.contentTypes.get(attr.target as string);
        if (target) {
          const ts = readJson(target.file);
          const tAttr = (ts.attributes as Json)[(attr.inversedBy ?? attr.mappedBy) as string] as Json | undefined;
          if (tAttr?.mappedBy === from) tAttr.mappedBy = to;
          if (tAttr?.inversedBy === from) tAttr.inversedBy = to;
          await writeSchema(target.file, ts);
        }
      }
      // A uid made from the renamed field follows it.
      for (const [, a] of Object.entries(schema.attributes as Json)) {
        const x = a as Json;
        if (x.type === 'uid' && x.targetField === from) x.targetField = to;
      }
      await writeSchema(file, schema);
      const n = await withProgress(`renaming ${from} in ${ct.pluralName}`, opts, (bar) =>
        migrateVersions(
          new FileStore(contentDir()),
          ct.pluralName,
          (v) => {
            if (!(from in v)) return false;
            const renamed = renameKey(v, from, to);
            for (const k of Object.keys(v)) delete v[k];
            Object.assign(v, renamed);
            return true;
          },
          bar.update,
        ),
      );
      printResult(
        opts,
        { uid: ct.uid, from, to, documentFiles: n },
        `renamed ${from} to ${to} in ${ct.uid} and in ${n} document file(s)\n`,
      );
    });

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
      printResult(
        opts,
        { uid: ct.uid, documents: count, removedFields: pointing.map((p) => `${p.other.uid}.${p.field}`) },
        `deleted ${ct.uid}\n`,
      );
    });

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
      if (!comp) throw new CliError(`Unknown component "${uid}" (see "folio components list")`);
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
      if (!comp) throw new CliError(`Unknown component "${uid}"`);
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
