import { FILE_OBJECT_KEYS } from '../documents/media.js';
import type { Attribute, ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import type { Target } from './populate.js';

/**
 * A model as Strapi's populate validator sees it: every attribute of a content-type (its timestamps, `locale`
 * and `localizations`, and the private `createdBy`/`updatedBy` Strapi adds), of a component, or of an upload
 * file; `target` is how the query engine reads it (for nested filters and sort).
 */
export interface PopulateModel {
  uid: string;
  singularName?: string;
  attributes: Record<string, Attribute>;
  target?: Target;
}

const datetime: Attribute = { type: 'datetime' };
const creator: Attribute = { type: 'relation', relation: 'oneToOne', target: 'admin::user', private: true };

/** Made once per content-type object (a schema change makes new ones): a populate is checked on every read. */
const documentModels = new WeakMap<ContentType, PopulateModel>();

function documentModel(ct: ContentType): PopulateModel {
  let model = documentModels.get(ct);
  if (!model) documentModels.set(ct, (model = makeDocumentModel(ct)));
  return model;
}

function makeDocumentModel(ct: ContentType): PopulateModel {
  const attributes: Record<string, Attribute> = {
    ...ct.attributes,
    createdAt: datetime,
    updatedAt: datetime,
    publishedAt: datetime,
    createdBy: creator,
    updatedBy: creator,
  };
  if (ct.localized) {
    attributes.locale = { type: 'string' };
    attributes.localizations = { type: 'relation', relation: 'oneToMany', target: ct.uid };
  }
  return { uid: ct.uid, singularName: ct.singularName, attributes, target: { kind: 'document', ct } };
}

/** The upload plugin's file: the file object's keys, its morph `related`, and its private folder. */
const FILE_TYPES: Record<string, Attribute['type']> = {
  width: 'integer',
  height: 'integer',
  size: 'decimal',
  focalPoint: 'json',
  formats: 'json',
  provider_metadata: 'json',
  alternativeText: 'text',
  caption: 'text',
  url: 'text',
  previewUrl: 'text',
};
const FILE_MODEL: PopulateModel = {
  uid: 'plugin::upload.file',
  singularName: 'file',
  attributes: {
    ...Object.fromEntries(
      FILE_OBJECT_KEYS.filter((k) => k !== 'id' && k !== 'documentId').map((k) => [
        k,
        { type: FILE_TYPES[k] ?? (k.endsWith('At') ? 'datetime' : 'string') } as Attribute,
      ]),
    ),
    related: { type: 'relation', relation: 'morphToMany', target: '' },
    folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', private: true },
    folderPath: { type: 'string', private: true },
    createdBy: creator,
    updatedBy: creator,
  },
  target: { kind: 'media' },
};

/** Models of Strapi's plugins a fragment (`on`) may name; they hold nothing a Folio read populates. */
const PLUGIN_MODELS = [
  'admin::user',
  'plugin::upload.folder',
  'plugin::users-permissions.user',
  'plugin::users-permissions.role',
  'plugin::users-permissions.permission',
  'plugin::i18n.locale',
];

/** The model a uid names (a content-type, a component, the upload file), or undefined: Strapi's `getModel`. */
export function modelOf(ctx: ReadContext, uid: string): PopulateModel | undefined {
  const ct = ctx.schemas.contentTypes.get(uid);
  if (ct) return documentModel(ct);
  const comp = ctx.schemas.components.get(uid);
  if (comp) {
    const target: Target = { kind: 'component', uid, attributes: comp.attributes, top: undefined };
    return { uid, attributes: comp.attributes, target };
  }
  if (uid === FILE_MODEL.uid) return FILE_MODEL;
  if (PLUGIN_MODELS.includes(uid)) return { uid, attributes: {} };
  return undefined;
}

export const modelsOf = (ctx: ReadContext, uids: string[]) =>
  uids.map((uid) => modelOf(ctx, uid)).filter((m): m is PopulateModel => m !== undefined);
