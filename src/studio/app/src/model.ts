import { api } from './api';
import { setRole } from './grants';

export interface Attribute {
  type: string;
  /** A label the schema gives the attribute (else its name is made readable). */
  displayName?: string;
  regex?: string;
  unique?: boolean;
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
  components?: string[];
  repeatable?: boolean;
  target?: string;
  relation?: string;
  allowedTypes?: string[];
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

export interface ComponentType {
  uid: string;
  displayName: string;
  attributes: Record<string, Attribute>;
}

export interface Model {
  types: ContentType[];
  components: Map<string, ComponentType>;
  /** The types the signed-in user may read, in the sidebar. */
  readable: ContentType[];
  /** What the user may do, as permissions.json names actions (`api::article.article.update`…). */
  can(action: string): boolean;
  /** The server refuses every write (`folio serve --read-only`): no write action is granted then. */
  readOnly: boolean;
  locales: Locale[];
  /** The signed-in user's role, as permissions.json names it (for the grant lines the Studio suggests). */
  role?: string;
  /** Signed in as the project's owner: every permission, on the user's own machine. */
  owner?: boolean;
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

/** The role cannot read the content model: the Studio says which actions it lacks and how to grant them. */
export class NoModelAccess extends Error {
  constructor(readonly missing: string[]) {
    super(`The role may not read the content model (it lacks ${missing.join(', ')})`);
  }
}

/**
 * The project's content-types, and what the user may do with them (`/_folio/studio/permissions`), so the
 * sidebar and the buttons show what the role allows and nothing the API would refuse.
 */
export async function loadModel(): Promise<Model> {
  const { data: granted, meta } = await api<{
    data: string[];
    meta?: { readOnly?: boolean; role?: string | null; owner?: boolean };
  }>('GET', '/_folio/studio/permissions');
  setRole(meta?.role ?? undefined);
  const can = (action: string) => granted.includes(action);
  const lacking = MODEL_PERMISSIONS.filter((p) => !can(p));
  if (lacking.length) throw new NoModelAccess(lacking);
  const [{ data }, components] = await Promise.all([
    api<{ data: TypeView[] }>('GET', '/api/content-type-builder/content-types'),
    api<{ data: { uid: string; schema: Omit<ComponentType, 'uid'> }[] }>('GET', '/api/content-type-builder/components'),
  ]);
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
  let locales: Locale[] = [];
  if (can('plugin::i18n.locales.listLocales'))
    try {
      locales = await api<Locale[]>('GET', '/api/i18n/locales');
    } catch {
      // Without the locales the Studio works in the default locale only.
    }
  return {
    types,
    components: new Map(components.data.map((c) => [c.uid, { uid: c.uid, ...c.schema }])),
    readable: types.filter((t) => can(`${t.uid}.find`)),
    can,
    readOnly: meta?.readOnly === true,
    locales,
    role: meta?.role ?? undefined,
    owner: meta?.owner === true,
  };
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
  'password',
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

/**
 * The populate parameters that read everything the editor shows and sends back whole: relations and media, and
 * components and dynamic zones with what they hold, at any depth (a component is always sent in full).
 */
export function populateParams(model: Model, attributes: Record<string, Attribute>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (attrs: Record<string, Attribute>, prefix: string, seen: Set<string>) => {
    for (const [name, a] of Object.entries(attrs)) {
      if (a.private) continue;
      const key = `${prefix}[${name}]`;
      if (a.type === 'relation' || a.type === 'media') out[key] = 'true';
      else if (a.type === 'component' && a.component) nested(a.component, key, seen);
      else if (a.type === 'dynamiczone') for (const uid of a.components ?? []) nested(uid, `${key}[on][${uid}]`, seen);
    }
  };
  const nested = (uid: string, key: string, seen: Set<string>) => {
    const c = model.components.get(uid);
    const before = Object.keys(out).length;
    // A component that holds itself would populate without end: it is read one level deep there.
    if (c && !seen.has(uid)) walk(c.attributes, `${key}[populate]`, new Set(seen).add(uid));
    if (Object.keys(out).length === before) out[key] = 'true';
  };
  walk(attributes, 'populate', new Set());
  return out;
}
