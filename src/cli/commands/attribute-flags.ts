import type { Command } from 'commander';
import { SCALAR_TYPES, RELATION_KINDS } from '../../schema/types.js';
import { CliError } from '../output.js';
import { enumValuesProblem } from '../names.js';
import type { Prompts } from '../prompts.js';
import { askFieldOptions, fieldKinds, splitList, type FieldContext, type FieldOptions } from '../guided.js';
import type { Json } from './schema-files.js';

/** Builds a Strapi attribute definition from the builder's flags (asking on a terminal for what is missing). */
export async function buildAttribute(
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

export const fieldFlags = (c: Command) =>
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

/** The kind of the other side of a bidirectional relation. */
export const INVERSE: Record<string, string> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};
