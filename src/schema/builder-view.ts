import type { SchemaRegistry } from './registry.js';
import type { Component, ContentType } from './types.js';
import builtinTypes from './strapi-builtin-types.json' with { type: 'json' };

/**
 * The model as Strapi's content-type-builder read routes show it (`GET /api/content-type-builder/…`):
 * tools such as static-site loaders read it before any content. Shapes follow Strapi 5.54's answers.
 */

type Json = Record<string, unknown>;

export interface ContentTypeView {
  uid: string;
  plugin?: string;
  apiID: string;
  schema: Json;
}

export interface ComponentView {
  uid: string;
  category: string;
  apiId: string;
  schema: Json;
}

/**
 * Strapi's own types (upload, i18n, users & permissions, admin…), whose schemas do not depend on the
 * project: Strapi lists the plugin ones before the project's types and the admin ones after.
 */
const BUILTIN = builtinTypes as ContentTypeView[];
const BEFORE_PROJECT = BUILTIN.filter((t) => t.uid.startsWith('plugin::'));
const AFTER_PROJECT = BUILTIN.filter((t) => !t.uid.startsWith('plugin::'));

/** Attributes Strapi adds to every type and leaves out of the builder's view. */
const SYSTEM_ATTRIBUTES = new Set([
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
]);

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One attribute as the builder shows it: media and relations are completed, the others kept as written. */
function formatAttribute(attr: Json): Json {
  const configurable = attr.configurable === false ? { configurable: false } : {};
  const pluginOptions = attr.pluginOptions === undefined ? {} : { pluginOptions: attr.pluginOptions };
  if (attr.type === 'media') {
    return {
      type: 'media',
      multiple: attr.multiple === true,
      required: attr.required === true,
      ...configurable,
      private: attr.private === true,
      ...(attr.allowedTypes === undefined ? {} : { allowedTypes: attr.allowedTypes }),
      ...pluginOptions,
    };
  }
  if (attr.type === 'relation') {
    const { configurable: _c, pluginOptions: _p, ...rest } = attr;
    return {
      ...rest,
      targetAttribute: attr.inversedBy ?? attr.mappedBy ?? null,
      ...configurable,
      required: attr.required === true,
      private: attr.private === true,
      ...pluginOptions,
    };
  }
  return attr;
}

function formatAttributes(attributes: Record<string, unknown>): Json {
  const out: Json = {};
  for (const [name, attr] of Object.entries(attributes)) {
    if (SYSTEM_ATTRIBUTES.has(name) || !isObject(attr) || attr.visible === false) continue;
    out[name] = formatAttribute(attr);
  }
  return out;
}

export function formatContentType(ct: ContentType): ContentTypeView {
  const raw = ct.raw;
  const options = isObject(raw.options) ? raw.options : {};
  const pluginOptions = isObject(raw.pluginOptions) ? raw.pluginOptions : undefined;
  const builder = isObject(pluginOptions?.['content-type-builder']) ? pluginOptions['content-type-builder'] : {};
  const visible = builder.visible === undefined || builder.visible === true;
  return {
    uid: ct.uid,
    apiID: ct.singularName,
    schema: {
      draftAndPublish: false,
      ...options,
      displayName: ct.displayName,
      singularName: ct.singularName,
      pluralName: ct.pluralName,
      description: ct.description ?? '',
      ...(pluginOptions ? { pluginOptions } : {}),
      kind: ct.kind,
      collectionName: typeof raw.collectionName === 'string' ? raw.collectionName : ct.pluralName.replace(/-/g, '_'),
      attributes: formatAttributes(ct.attributes),
      visible,
      // Strapi restricts relations to hidden types (none) and to no others (null).
      restrictRelationsTo: visible ? null : [],
    },
  };
}

export function formatComponent(c: Component): ComponentView {
  const raw = c.raw;
  const info = isObject(raw.info) ? raw.info : {};
  return {
    uid: c.uid,
    category: c.category,
    apiId: c.name,
    schema: {
      displayName: c.displayName,
      description: typeof info.description === 'string' ? info.description : '',
      ...(info.icon === undefined ? {} : { icon: info.icon }),
      collectionName:
        typeof raw.collectionName === 'string'
          ? raw.collectionName
          : `components_${c.category}_${c.name}`.replace(/-/g, '_'),
      ...(isObject(raw.pluginOptions) ? { pluginOptions: raw.pluginOptions } : {}),
      attributes: formatAttributes(c.attributes),
    },
  };
}

/** Every content-type, Strapi's own included (those carry `plugin`), optionally of one kind. */
export function listContentTypes(schemas: SchemaRegistry, kind?: 'collectionType' | 'singleType'): ContentTypeView[] {
  const project = [...schemas.contentTypes.values()].map(formatContentType);
  const all = [...BEFORE_PROJECT, ...project, ...AFTER_PROJECT];
  return kind ? all.filter((t) => t.schema.kind === kind) : all;
}

export function findContentType(schemas: SchemaRegistry, uid: string): ContentTypeView | undefined {
  const ct = schemas.contentTypes.get(uid);
  if (ct) return formatContentType(ct);
  return BUILTIN.find((t) => t.uid === uid);
}

export function listComponents(schemas: SchemaRegistry): ComponentView[] {
  return [...schemas.components.values()].map(formatComponent);
}

export function findComponent(schemas: SchemaRegistry, uid: string): ComponentView | undefined {
  const c = schemas.components.get(uid);
  return c ? formatComponent(c) : undefined;
}
