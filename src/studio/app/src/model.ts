import { api, ApiError, query } from './api';

export interface Attribute {
  type: string;
  required?: boolean;
  private?: boolean;
  enum?: string[];
  targetField?: string;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  multiple?: boolean;
  component?: string;
  repeatable?: boolean;
  target?: string;
  relation?: string;
  default?: unknown;
  pluginOptions?: { i18n?: { localized?: boolean } };
}

export interface ContentType {
  uid: string;
  kind: 'collectionType' | 'singleType';
  displayName: string;
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: Record<string, Attribute>;
}

export interface Locale {
  code: string;
  name: string;
  isDefault: boolean;
}

export interface Model {
  types: ContentType[];
  /** The types the signed-in user may read, in the sidebar. */
  readable: ContentType[];
  locales: Locale[];
}

/** The permissions the Studio needs to read the model, named as in content/permissions.json. */
export const MODEL_PERMISSIONS = [
  'plugin::content-type-builder.content-types.getContentTypes',
  'plugin::content-type-builder.components.getComponents',
];

interface TypeView {
  uid: string;
  plugin?: string;
  schema: {
    kind: 'collectionType' | 'singleType';
    displayName: string;
    singularName: string;
    pluralName: string;
    draftAndPublish?: boolean;
    pluginOptions?: { i18n?: { localized?: boolean } };
    attributes: Record<string, Attribute>;
  };
}

/** Where a type's documents are: `/api/<pluralName>` for a collection, `/api/<singularName>` for a single type. */
export const endpoint = (t: ContentType) => `/api/${t.kind === 'singleType' ? t.singularName : t.pluralName}`;

/**
 * The project's content-types, and those the user may read: a type whose list answers 403 is left out, so
 * the sidebar shows what the role allows and nothing the API would refuse.
 */
export async function loadModel(): Promise<Model> {
  const { data } = await api<{ data: TypeView[] }>('GET', '/api/content-type-builder/content-types');
  // Components are not edited in this slice yet, but reading them is part of the model the role must allow.
  await api('GET', '/api/content-type-builder/components');
  const types: ContentType[] = data
    .filter((t) => t.uid.startsWith('api::'))
    .map((t) => ({
      uid: t.uid,
      kind: t.schema.kind,
      displayName: t.schema.displayName,
      singularName: t.schema.singularName,
      pluralName: t.schema.pluralName,
      draftAndPublish: t.schema.draftAndPublish === true,
      localized: t.schema.pluginOptions?.i18n?.localized === true,
      attributes: t.schema.attributes,
    }))
    .sort((a, b) => a.displayName.localeCompare(b.displayName));
  const allowed = await Promise.all(
    types.map(async (t) => {
      try {
        await api('GET', `${endpoint(t)}${t.kind === 'collectionType' ? query({ 'pagination[pageSize]': 1 }) : ''}`);
        return true;
      } catch (err) {
        // A single type not written yet answers 404: it is readable, and its form creates it.
        return err instanceof ApiError && err.status === 404;
      }
    }),
  );
  let locales: Locale[] = [];
  try {
    locales = await api<Locale[]>('GET', '/api/i18n/locales');
  } catch {
    // Without the locales permission the Studio works in the default locale only.
  }
  return { types, readable: types.filter((_, i) => allowed[i]), locales };
}

/** Attribute kinds the editor has a field for; the others are kept as they are and shown read-only. */
export const EDITABLE = new Set([
  'string',
  'text',
  'email',
  'uid',
  'richtext',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'enumeration',
  'date',
  'time',
  'datetime',
  'json',
]);

/** Kinds that fit a list column. */
export const LISTABLE = new Set([
  'string',
  'email',
  'uid',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'enumeration',
  'date',
  'time',
  'datetime',
]);
