import type { SchemaRegistry } from '../schema/registry.js';
import type { Attribute, ContentType } from '../schema/types.js';

/**
 * Strapi's v4 response shape, sent when a client asks with `Strapi-Response-Format: v4`: entries become
 * `{ id, documentId, attributes }` and relations and media are wrapped in `{ data }`. Components and
 * dynamic-zone items stay flat, with their relations and media wrapped.
 */
export function toV4Body(schemas: SchemaRegistry, ct: ContentType, body: { data: unknown; meta: unknown }) {
  const data = Array.isArray(body.data)
    ? body.data.map((d) => entry(schemas, ct.attributes, d as Record<string, unknown>, ct))
    : body.data
      ? entry(schemas, ct.attributes, body.data as Record<string, unknown>, ct)
      : body.data;
  return { data, meta: body.meta };
}

const isCount = (v: unknown) =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && 'count' in (v as object);

function entry(
  schemas: SchemaRegistry,
  attrs: Record<string, Attribute>,
  obj: Record<string, unknown>,
  ct?: ContentType,
) {
  const { id, documentId, ...rest } = obj;
  const out: Record<string, unknown> = { id };
  if (documentId !== undefined) out.documentId = documentId;
  out.attributes = values(schemas, attrs, rest, ct);
  return out;
}

function file(obj: Record<string, unknown>) {
  const { id, documentId, ...attributes } = obj;
  return { id, documentId, attributes };
}

function values(
  schemas: SchemaRegistry,
  attrs: Record<string, Attribute>,
  obj: Record<string, unknown>,
  ct?: ContentType,
) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const attr = attrs[k];
    if (k === 'localizations' && ct) {
      out[k] = isCount(v)
        ? v
        : { data: (v as Array<Record<string, unknown>>).map((x) => entry(schemas, ct.attributes, x, ct)) };
      continue;
    }
    if (!attr || isCount(v)) {
      out[k] = v;
      continue;
    }
    switch (attr.type) {
      case 'relation': {
        const target = schemas.contentTypes.get(attr.target);
        const one = (x: Record<string, unknown>) => (target ? entry(schemas, target.attributes, x, target) : x);
        out[k] = {
          data: Array.isArray(v)
            ? v.map((x) => one(x as Record<string, unknown>))
            : v
              ? one(v as Record<string, unknown>)
              : null,
        };
        break;
      }
      case 'media':
        out[k] = {
          data: Array.isArray(v)
            ? v.map((x) => file(x as Record<string, unknown>))
            : v
              ? file(v as Record<string, unknown>)
              : null,
        };
        break;
      case 'component': {
        const comp = schemas.components.get(attr.component);
        const one = (x: Record<string, unknown>) => (comp ? values(schemas, comp.attributes, x) : x);
        out[k] = Array.isArray(v)
          ? v.map((x) => one(x as Record<string, unknown>))
          : v
            ? one(v as Record<string, unknown>)
            : null;
        break;
      }
      case 'dynamiczone':
        out[k] = (v as Array<Record<string, unknown>>).map((x) => {
          const comp = schemas.components.get(x.__component as string);
          return comp ? values(schemas, comp.attributes, x) : x;
        });
        break;
      default:
        out[k] = v;
    }
  }
  return out;
}
