import pluralizeWord from 'pluralize';
import type { SchemaRegistry } from '../schema/registry.js';
import { checkAttributeName, checkModelName } from '../schema/validate-schema.js';
import { SCALAR_TYPES } from '../schema/types.js';
import { enumValuesProblem } from './names.js';
import { CliError } from './output.js';
import { checkWith, optionalNumber, type Prompts } from './prompts.js';

/** The builder's field flags, as commander gives them (numbers as typed). */
export interface FieldOptions {
  type?: string;
  required?: boolean;
  unique?: boolean;
  private?: boolean;
  default?: string;
  min?: string;
  max?: string;
  minLength?: string;
  maxLength?: string;
  regex?: string;
  enum?: string;
  targetField?: string;
  multiple?: boolean;
  allowedTypes?: string;
  relation?: string;
  target?: string;
  inverse?: string;
  component?: string;
  repeatable?: boolean;
  components?: string;
  localized?: boolean;
}

export const kebab = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** English plurals (Person → people, category → categories), as Strapi's builder suggests them. */
export const pluralize = (s: string) => pluralizeWord(s);

const KIND_HELP: Record<string, string> = {
  string: 'short text (titles, names)',
  text: 'long plain text',
  richtext: 'Markdown',
  blocks: 'rich text as blocks',
  email: 'an e-mail address',
  password: 'a secret, stored hashed',
  uid: 'a URL-safe unique id (slug)',
  integer: 'whole number',
  biginteger: 'large whole number, kept as a string',
  float: 'number with decimals',
  decimal: 'exact decimal number',
  date: 'YYYY-MM-DD',
  time: 'HH:mm:ss',
  datetime: 'date and time',
  timestamp: 'epoch milliseconds',
  boolean: 'yes or no',
  enumeration: 'one value of a fixed list',
  json: 'any JSON',
  media: 'files from the media library',
  relation: 'links to documents of a content-type',
  component: 'a group of fields, reusable',
  dynamiczone: 'a list of components of several kinds',
};
const RELATION_HELP: Record<string, string> = {
  manyToOne: 'many of these belong to one',
  oneToMany: 'has many (each belongs to one)',
  manyToMany: 'has and belongs to many',
  oneToOne: 'has one (and belongs to one)',
};
const UNIQUE_TYPES = [
  'string',
  'text',
  'email',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'date',
  'time',
  'datetime',
];
const NUMBER_TYPES = ['integer', 'biginteger', 'float', 'decimal'];
const LENGTH_TYPES = ['string', 'text', 'richtext', 'password', 'email'];
const DEFAULT_TYPES = ['string', 'text', 'richtext', 'email', 'date', 'time', 'datetime', 'boolean', 'enumeration'];
const MEDIA_TYPES = ['images', 'files', 'videos', 'audios'];

/** What a field is added to: the schemas it may point at, its owner's attributes, and what the owner allows. */
export interface FieldContext {
  reg: SchemaRegistry;
  attributes: Record<string, unknown>;
  isComponent: boolean;
  draftAndPublish: boolean;
}

/** The kinds a field of this owner can be. */
export const fieldKinds = (isComponent: boolean) => [
  ...SCALAR_TYPES,
  'media',
  'relation',
  'component',
  ...(isComponent ? [] : ['dynamiczone']),
];

/** Why `name` cannot be a new field of the owner (undefined when it can). */
export function fieldNameProblem(name: string, ctx: FieldContext): string | undefined {
  if (!name) return 'Enter a field name';
  if (name in ctx.attributes) return `There is already a field "${name}"`;
  return checkAttributeName(name, ctx.draftAndPublish);
}

/**
 * Asks, on a terminal, for every option of a field the flags leave out and its kind uses: required, unique,
 * default, limits, enum values, a relation's kind, target (picked from the types) and inverse, media types,
 * components. Each answer is checked as it is typed (inquirer asks again with the reason). The result is
 * the same flags a script would pass.
 */
export async function askFieldOptions(o: FieldOptions, ctx: FieldContext, ui: Prompts): Promise<FieldOptions> {
  const out: FieldOptions = { ...o };
  const kinds = fieldKinds(ctx.isComponent);
  const type =
    out.type ??
    (await ui.ask<string>({
      type: 'list',
      message: 'Field type',
      choices: kinds.map((k) => ({ name: `${k.padEnd(12)} ${KIND_HELP[k] ?? ''}`, value: k })),
      pageSize: 12,
    }));
  out.type = type;
  const str = (v: string) => (v.trim() === '' ? undefined : v.trim());
  if (type === 'enumeration' && out.enum === undefined)
    out.enum = await ui.ask<string>({
      type: 'input',
      message: 'Values (comma-separated)',
      validate: checkWith((a) => enumValuesProblem(splitList(a))),
    });
  if (type === 'relation') {
    out.relation ??= await ui.ask<string>({
      type: 'list',
      message: 'Relation',
      choices: Object.entries(RELATION_HELP).map(([value, help]) => ({ name: `${value.padEnd(11)} ${help}`, value })),
    });
    if (out.target === undefined) {
      const types = [...ctx.reg.contentTypes.values()];
      if (!types.length) throw new CliError('There is no content-type to link to yet: create one first');
      out.target = await ui.ask<string>({
        type: 'list',
        message: 'Target content-type',
        choices: types.map((t) => ({ name: `${t.singularName} (${t.uid})`, value: t.uid })),
      });
    }
    if (out.inverse === undefined && !ctx.isComponent) {
      const target = ctx.reg.find(out.target);
      out.inverse = str(
        await ui.ask<string>({
          type: 'input',
          message: `Field on ${target?.singularName ?? out.target} that links back (empty: none)`,
          validate: checkWith((a) =>
            a === ''
              ? undefined
              : a in (target?.attributes ?? {})
                ? `${target!.singularName} already has a field "${a}"`
                : checkAttributeName(a, target?.draftAndPublish ?? false),
          ),
        }),
      );
    }
    return out;
  }
  if (type !== 'json' && type !== 'blocks')
    out.required ??= await ui.ask<boolean>({ type: 'confirm', message: 'Required?', default: false });
  if (UNIQUE_TYPES.includes(type))
    out.unique ??= await ui.ask<boolean>({ type: 'confirm', message: 'Unique?', default: false });
  if (NUMBER_TYPES.includes(type)) {
    out.min ??= str(
      await ui.ask<string>({ type: 'input', message: 'Minimum (empty: none)', validate: optionalNumber() }),
    );
    const min = out.min === undefined ? undefined : Number(out.min);
    out.max ??= str(
      await ui.ask<string>({ type: 'input', message: 'Maximum (empty: none)', validate: optionalNumber(min) }),
    );
  }
  if (LENGTH_TYPES.includes(type)) {
    out.minLength ??= str(
      await ui.ask<string>({ type: 'input', message: 'Minimum length (empty: none)', validate: optionalNumber(0) }),
    );
    const min = out.minLength === undefined ? 0 : Number(out.minLength);
    out.maxLength ??= str(
      await ui.ask<string>({ type: 'input', message: 'Maximum length (empty: none)', validate: optionalNumber(min) }),
    );
  }
  if (out.default === undefined && (DEFAULT_TYPES.includes(type) || NUMBER_TYPES.includes(type))) {
    if (type === 'boolean' || type === 'enumeration') {
      const choices = type === 'boolean' ? ['true', 'false'] : splitList(out.enum ?? '');
      const picked = await ui.ask<string>({ type: 'list', message: 'Default', choices: ['(none)', ...choices] });
      out.default = picked === '(none)' ? undefined : picked;
    } else {
      out.default = str(
        await ui.ask<string>({
          type: 'input',
          message: 'Default value (empty: none)',
          validate: NUMBER_TYPES.includes(type)
            ? optionalNumber(out.min === undefined ? undefined : Number(out.min))
            : undefined,
        }),
      );
    }
  }
  if (type === 'uid' && out.targetField === undefined) {
    const sources = Object.entries(ctx.attributes)
      .filter(([, a]) => ['string', 'text'].includes((a as { type?: string }).type ?? ''))
      .map(([n]) => n);
    if (sources.length) {
      const picked = await ui.ask<string>({
        type: 'list',
        message: 'Made from the field',
        choices: ['(none)', ...sources],
      });
      out.targetField = picked === '(none)' ? undefined : picked;
    }
  }
  if (type === 'media') {
    out.multiple ??= await ui.ask<boolean>({ type: 'confirm', message: 'Several files?', default: false });
    out.allowedTypes ??= (
      await ui.ask<string[]>({
        type: 'checkbox',
        message: 'Allowed types',
        choices: MEDIA_TYPES.map((t) => ({ name: t, value: t, checked: true })),
        validate: (a: readonly unknown[]) => (a.length ? true : 'Pick at least one'),
      })
    ).join(',');
  }
  const components = [...ctx.reg.components.keys()];
  if ((type === 'component' || type === 'dynamiczone') && !components.length)
    throw new CliError('There is no component yet: create one with "folio components create <category>.<name>"');
  if (type === 'component') {
    out.component ??= await ui.ask<string>({ type: 'list', message: 'Component', choices: components });
    out.repeatable ??= await ui.ask<boolean>({ type: 'confirm', message: 'Repeatable?', default: false });
  }
  if (type === 'dynamiczone' && out.components === undefined)
    out.components = (
      await ui.ask<string[]>({
        type: 'checkbox',
        message: 'Allowed components',
        choices: components,
        validate: (a: readonly unknown[]) => (a.length ? true : 'Pick at least one'),
      })
    ).join(',');
  return out;
}

export const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The options of `types create`, as commander gives them. */
export interface TypeOptions {
  displayName?: string;
  singular?: string;
  plural?: string;
  kind?: string;
  draftAndPublish?: boolean;
  i18n?: boolean;
  description?: string;
}

/**
 * The names and options of a new content-type: the flags, then answers on a terminal for what they leave
 * out (each checked as typed: kebab-case, not reserved, not taken), then defaults. The result is checked by
 * the caller either way, so flags get the same rules as answers.
 */
export async function askTypeOptions(
  o: TypeOptions,
  reg: SchemaRegistry,
  ui: Prompts,
): Promise<Required<Omit<TypeOptions, 'description'>> & { description: string }> {
  const taken = (n: string) =>
    [...reg.contentTypes.values()].find((ct) => ct.singularName === n || ct.pluralName === n)?.uid;
  const nameProblem = (n: string) => {
    if (!n) return 'Enter a name';
    const p = checkModelName(n);
    if (p) return p;
    const uid = taken(n);
    return uid ? `"${n}" is already used by ${uid}` : undefined;
  };
  const displayName = await ui.need(o.displayName, '--display-name', {
    type: 'input',
    message: 'Display name',
    validate: checkWith((a) => (kebab(a) ? undefined : 'Enter a name with letters or digits, e.g. Blog Post')),
  });
  const singular = await ui.maybe(o.singular, kebab(displayName), {
    type: 'input',
    message: 'Singular API id',
    default: kebab(displayName),
    validate: checkWith(nameProblem),
  });
  const plural = await ui.maybe(o.plural, pluralize(singular), {
    type: 'input',
    message: 'Plural API id',
    default: pluralize(singular),
    validate: checkWith((a) => (a === singular ? 'The plural must differ from the singular' : nameProblem(a))),
  });
  const kind = await ui.maybe(o.kind, 'collection', {
    type: 'list',
    message: 'Kind',
    choices: [
      { name: 'collection  many documents (articles, authors)', value: 'collection' },
      { name: 'single      one document (homepage, settings)', value: 'single' },
    ],
  });
  const draftAndPublish = await ui.maybe(o.draftAndPublish, false, {
    type: 'confirm',
    message: 'Draft & publish?',
    default: true,
  });
  const i18n = await ui.maybe(o.i18n, false, { type: 'confirm', message: 'Localized (i18n)?', default: false });
  return { displayName, singular, plural, kind, draftAndPublish, i18n, description: o.description ?? '' };
}
