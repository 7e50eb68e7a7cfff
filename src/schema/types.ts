/** Strapi `schema.json` shapes, as Folio reads them. */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'blocks',
  'email',
  'password',
  'uid',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'date',
  'time',
  'datetime',
  'timestamp',
  'boolean',
  'enumeration',
  'json',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = [
  'oneToOne',
  'oneToMany',
  'manyToOne',
  'manyToMany',
  'morphToOne',
  'morphToMany',
  'morphOne',
  'morphMany',
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

interface BaseAttribute {
  required?: boolean;
  private?: boolean;
  unique?: boolean;
  default?: unknown;
  configurable?: boolean;
  writable?: boolean;
  pluginOptions?: { i18n?: { localized?: boolean } } & Record<string, unknown>;
}

export interface ScalarAttribute extends BaseAttribute {
  type: ScalarType;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  regex?: string;
  enum?: string[];
  targetField?: string;
}

export interface RelationAttribute extends BaseAttribute {
  type: 'relation';
  relation: RelationKind;
  target: string;
  inversedBy?: string;
  mappedBy?: string;
}

export interface MediaAttribute extends BaseAttribute {
  type: 'media';
  multiple?: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttribute extends BaseAttribute {
  type: 'component';
  component: string;
  repeatable?: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends BaseAttribute {
  type: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute =
  ScalarAttribute | RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

export interface ContentType {
  uid: string; // api::article.article
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  displayName: string;
  description?: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: Record<string, Attribute>;
  /** The schema file as read, written back unchanged by tools that do not edit it. */
  raw: Record<string, unknown>;
  file: string;
}

export interface Component {
  uid: string; // shared.seo
  category: string;
  name: string;
  displayName: string;
  attributes: Record<string, Attribute>;
  raw: Record<string, unknown>;
  file: string;
}

/** Something wrong in a schema file: reported with its file, attribute and what is wrong. */
export interface SchemaProblem {
  file: string;
  attribute?: string;
  message: string;
}

export const isScalar = (a: Attribute): a is ScalarAttribute => (SCALAR_TYPES as readonly string[]).includes(a.type);
export const isRelation = (a: Attribute): a is RelationAttribute => a.type === 'relation';

export const isToMany = (a: RelationAttribute) =>
  a.relation === 'oneToMany' ||
  a.relation === 'manyToMany' ||
  a.relation === 'morphToMany' ||
  a.relation === 'morphMany';

/** The owning side holds the stored link: every relation without `mappedBy`. */
export const isOwningSide = (a: RelationAttribute) => !a.mappedBy;

/**
 * Whether an attribute differs per locale. Relations and uids are always localized (Strapi rule);
 * others only with `pluginOptions.i18n.localized: true`.
 */
export const isLocalizedAttribute = (a: Attribute) =>
  a.type === 'relation' || a.type === 'uid' || a.pluginOptions?.i18n?.localized === true;

/** What a content-type is, as the CLI's `types list` and the package's `types()` tell it. */
export function typeSummary(ct: ContentType) {
  const { uid, kind, singularName, pluralName, displayName, draftAndPublish, localized } = ct;
  return { uid, kind, singularName, pluralName, displayName, draftAndPublish, localized };
}
