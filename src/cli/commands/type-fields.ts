import type { Command } from 'commander';
import { FileStore } from '../../store/store.js';
import { checkAttribute } from '../../schema/validate-schema.js';
import { migrateVersions, renameKey } from '../../documents/migrate.js';
import type { GlobalOptions } from '../context.js';
import { CliError, printResult } from '../output.js';
import { prompts, type Prompts } from '../prompts.js';
import type { FieldOptions } from '../guided.js';
import { withProgress } from '../progress.js';
import { INVERSE, buildAttribute, fieldFlags } from './attribute-flags.js';
import { readJson, writeSchema, type BuilderContext, type Json } from './schema-files.js';

/** Adds a field to a content-type (asking on a terminal for what `flags` leave out), migrating documents. */
export async function addField(
  { contentDir, findType }: BuilderContext,
  name: string,
  field: string,
  flags: FieldOptions,
  opts: GlobalOptions,
  ui: Prompts,
) {
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

/** `types add-field`, `remove-field` and `rename-field`: a change to one field, in the schema and the documents. */
export function registerFieldCommands(types: Command, globals: () => GlobalOptions, ctx: BuilderContext) {
  const { contentDir, findType } = ctx;
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
      await addField(ctx, name, field, o, opts, prompts({ ...opts, yes: o.yes }));
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
}
