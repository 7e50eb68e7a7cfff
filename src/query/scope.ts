import { invalidKey } from '../errors.js';
import type { ReadLimits } from '../config.js';
import type { Version } from '../documents/model.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import { FILE_FILTER_KEYS } from '../documents/media.js';
import {
  type ReadContext,
  NULL_ROW,
  holderLocale,
  inHolderLocale,
  mediaFiles,
  relatedVersions,
  targetsByIds,
} from './context.js';

/**
 * What a key inside `filters` or `sort` names, on a document, a component or a media file: a scalar
 * with its kind (how operands are cast), or a nested scope reached through a relation, component or media.
 */
export type Field =
  | { kind: 'scalar'; type: string; get: (row: unknown) => unknown }
  | {
      kind: 'nested';
      many: boolean;
      get: (row: unknown) => unknown[];
      scope: Scope;
      idType: string;
      /** What a left join gives when nothing is related: a row whose every value is null (`{}` if unset). */
      empty?: unknown;
    };

const EMPTY_ROW = Object.freeze({});

/**
 * Where Strapi says an unknown key is: the attribute path leading to it (the key itself is no attribute),
 * null at the top. A key that is an attribute but may not be used is named with its own path.
 */
const parentPath = (path: string[]) => (path.length > 1 ? path.slice(0, -1).join('.') : null);

export interface Scope {
  /** The read's bounds, for the depth of filter and sort paths through relations and components. */
  limits?: ReadLimits;
  /** Resolves `key`, or throws 400 `Invalid key` with the attribute path and the query parameter name. */
  field(key: string, path: string[], param: string): Field;
}

const SYSTEM_FIELDS: Record<string, string> = {
  id: 'integer',
  documentId: 'string',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  publishedAt: 'datetime',
};

const rowValue = (type: string, v: unknown) => {
  if (v === undefined) return null;
  if (v === null) return null;
  if (type === 'biginteger' || type === 'timestamp') return Number(v);
  if (type === 'json' || type === 'blocks') return JSON.stringify(v);
  return v;
};

function attributeField(
  ctx: ReadContext,
  name: string,
  attr: Attribute,
  path: string[],
  param: string,
  read: (row: unknown) => unknown,
  owner: { ct?: ContentType; top?: ContentType },
): Field {
  if (attr.private || attr.type === 'password')
    throw invalidKey(name, { path: path.join('.'), source: 'query', param });
  if (isScalar(attr)) return { kind: 'scalar', type: attr.type, get: (row) => rowValue(attr.type, read(row)) };
  switch (attr.type) {
    case 'relation': {
      if (attr.relation.startsWith('morph')) throw invalidKey(name, { path: path.join('.'), source: 'query', param });
      const target = ctx.schemas.contentTypes.get(attr.target);
      if (!target || !ctx.canFind(target.uid)) throw invalidKey(name, { path: path.join('.'), source: 'query', param });
      const many = ['oneToMany', 'manyToMany'].includes(attr.relation);
      const ct = owner.ct;
      return {
        kind: 'nested',
        many,
        idType: 'integer',
        // Relations inside components are plain target lists; resolved the same way as owning relations.
        get: (row) =>
          ct
            ? relatedVersions(ctx, ct, row as Version, name, attr)
            : targetsByIds(ctx, target, read(row), holderLocale(row), owner.top),
        scope: documentScope(ctx, target),
        empty: NULL_ROW,
      };
    }
    case 'media':
      return {
        kind: 'nested',
        many: attr.multiple === true,
        idType: 'integer',
        get: (row) => mediaFiles(ctx, read(row)),
        scope: mediaScope(),
        empty: EMPTY_ROW,
      };
    case 'component': {
      const comp = ctx.schemas.components.get(attr.component);
      if (!comp) throw invalidKey(name, { path: path.join('.'), source: 'query', param });
      const top = owner.ct ?? owner.top;
      const ct = owner.ct;
      return {
        kind: 'nested',
        many: attr.repeatable === true,
        idType: 'integer',
        get: (row) => {
          const v = read(row);
          const items = Array.isArray(v) ? v : v ? [v] : [];
          if (!top?.localized) return items;
          // The relations inside resolve in the locale of the document version holding the component.
          const locale = ct ? ((row as Version).locale ?? null) : holderLocale(row);
          return items.map((item) => inHolderLocale(item, locale));
        },
        scope: componentScope(ctx, comp.attributes, top),
        empty: EMPTY_ROW,
      };
    }
    case 'dynamiczone':
      throw invalidKey(name, { path: path.join('.'), source: 'query', param });
  }
  throw invalidKey(name, { path: path.join('.'), source: 'query', param });
}

export function documentScope(ctx: ReadContext, ct: ContentType): Scope {
  return {
    limits: ctx.config.read,
    field(key, path, param) {
      if (Object.prototype.hasOwnProperty.call(SYSTEM_FIELDS, key)) {
        const type = SYSTEM_FIELDS[key];
        return { kind: 'scalar', type, get: (row) => (row as Record<string, unknown>)[key] ?? null };
      }
      if (key === 'locale' && ct.localized)
        return { kind: 'scalar', type: 'string', get: (row) => (row as Version).locale ?? null };
      const attr = Object.prototype.hasOwnProperty.call(ct.attributes, key) ? ct.attributes[key] : undefined;
      if (!attr) throw invalidKey(key, { path: parentPath(path), source: 'query', param });
      return attributeField(ctx, key, attr, path, param, (row) => (row as Version).data[key], { ct });
    },
  };
}

/** The fields of a component value; `top`: the type of the document it is in. */
export function componentScope(
  ctx: ReadContext,
  attributes: Record<string, Attribute>,
  top: ContentType | undefined,
): Scope {
  return {
    limits: ctx.config.read,
    field(key, path, param) {
      if (key === 'id') return { kind: 'scalar', type: 'integer', get: () => null };
      const attr = Object.prototype.hasOwnProperty.call(attributes, key) ? attributes[key] : undefined;
      if (!attr) throw invalidKey(key, { path: parentPath(path), source: 'query', param });
      return attributeField(ctx, key, attr, path, param, (row) => (row as Record<string, unknown>)[key], { top });
    },
  };
}

export function mediaScope(): Scope {
  return {
    field(key, path, param) {
      if (!FILE_FILTER_KEYS.includes(key)) throw invalidKey(key, { path: parentPath(path), source: 'query', param });
      const type = ['id', 'width', 'height', 'size'].includes(key)
        ? 'float'
        : key.endsWith('At')
          ? 'datetime'
          : 'string';
      return { kind: 'scalar', type, get: (row) => (row as Record<string, unknown>)[key] ?? null };
    },
  };
}
