import type { SchemaRegistry } from '../schema/registry.js';
import type { Attribute, ContentType } from '../schema/types.js';
import { isScalar } from '../schema/types.js';
import { pascal } from './names.js';
import { pluginPaths, pluginSchemas } from './openapi-plugins.js';

type Json = Record<string, unknown>;

const SCALAR: Record<string, Json> = {
  string: { type: 'string' },
  text: { type: 'string' },
  richtext: { type: 'string' },
  email: { type: 'string', format: 'email' },
  uid: { type: 'string' },
  password: { type: 'string', format: 'password' },
  enumeration: { type: 'string' },
  integer: { type: 'integer' },
  float: { type: 'number' },
  decimal: { type: 'number' },
  biginteger: { type: 'string', pattern: '^-?\\d+$' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string' },
  datetime: { type: 'string', format: 'date-time' },
  timestamp: { type: 'string' },
  json: {},
  blocks: { type: 'array', items: { type: 'object' } },
};
const nullable = (s: Json): Json => ({ anyOf: [s, { type: 'null' }] });
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function attrSchema(reg: SchemaRegistry, attr: Attribute, input: boolean): Json | undefined {
  if (isScalar(attr)) {
    const base = { ...SCALAR[attr.type] };
    if (attr.type === 'enumeration' && attr.enum) base.enum = attr.enum;
    if (attr.maxLength !== undefined) base.maxLength = attr.maxLength;
    return nullable(base);
  }
  switch (attr.type) {
    case 'relation': {
      const target = reg.contentTypes.get(attr.target);
      const many = ['oneToMany', 'manyToMany'].includes(attr.relation);
      if (input)
        return {
          description: 'documentIds, or { connect, disconnect, set }',
          oneOf: [
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
            { type: 'object' },
            { type: 'null' },
          ],
        };
      const item = target ? ref(pascal(target.singularName)) : {};
      return many ? { type: 'array', items: item } : nullable(item);
    }
    case 'media':
      if (input)
        return {
          oneOf: [
            { type: 'integer' },
            { type: 'string' },
            { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] } },
            { type: 'null' },
          ],
        };
      return attr.multiple ? { type: 'array', items: ref('MediaFile') } : nullable(ref('MediaFile'));
    case 'component': {
      const item = ref(pascal(attr.component));
      return attr.repeatable ? { type: 'array', items: item } : nullable(item);
    }
    case 'dynamiczone':
      return { type: 'array', items: { oneOf: attr.components.map((c) => ref(pascal(c))) } };
  }
  return undefined;
}

function objectSchema(
  reg: SchemaRegistry,
  attrs: Record<string, Attribute>,
  input: boolean,
  extra: Json = {},
  required: string[] = [],
): Json {
  const properties: Json = { ...extra };
  for (const [name, attr] of Object.entries(attrs)) {
    if (!input && (attr.private || attr.type === 'password')) continue;
    const s = attrSchema(reg, attr, input);
    if (s) properties[name] = s;
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(input ? { additionalProperties: false } : {}),
  };
}

const queryParams = (list: boolean, ct: ContentType): Json[] => {
  const p = (name: string, description: string, schema: Json = { type: 'string' }) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
  });
  const out = [
    p('fields', 'Fields to return (comma list or fields[0]=...)'),
    p('populate', 'Relations, media, components, zones to include ("*", a list, or the object syntax)'),
  ];
  if (list)
    out.push(
      p('filters', 'Filters in the qs bracket syntax, e.g. filters[title][$eq]=Hello', { type: 'object' }),
      p('sort', 'e.g. title:asc or views:desc,title'),
      p('pagination[page]', 'Page (page style)', { type: 'integer' }),
      p('pagination[pageSize]', 'Page size (max from folio.json)', { type: 'integer' }),
      p('pagination[start]', 'Offset (offset style)', { type: 'integer' }),
      p('pagination[limit]', 'Limit (offset style)', { type: 'integer' }),
      p('pagination[withCount]', 'Include the total', { type: 'boolean' }),
      p('_q', 'Free-text search'),
    );
  if (ct.draftAndPublish)
    out.push(p('status', 'published (default) or draft', { type: 'string', enum: ['published', 'draft'] }));
  if (ct.localized) out.push(p('locale', 'Locale code (default: the default locale; "*" on lists for all)'));
  return out;
};

/** An OpenAPI 3.1 document of the project's generated REST API (the same one `GET /api/openapi.json` serves). */
export function buildOpenApi(reg: SchemaRegistry, info: { title?: string; version?: string } = {}): Json {
  const schemas: Json = {
    Error: {
      type: 'object',
      properties: {
        data: { type: 'null' },
        error: {
          type: 'object',
          properties: {
            status: { type: 'integer' },
            name: { type: 'string' },
            message: { type: 'string' },
            details: { type: 'object' },
          },
          required: ['status', 'name', 'message'],
        },
      },
      required: ['data', 'error'],
    },
    PagePagination: {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        pageSize: { type: 'integer' },
        pageCount: { type: 'integer' },
        total: { type: 'integer' },
      },
    },
    MediaFile: {
      type: 'object',
      properties: Object.fromEntries(
        [
          'name',
          'alternativeText',
          'caption',
          'hash',
          'ext',
          'mime',
          'url',
          'previewUrl',
          'provider',
          'createdAt',
          'updatedAt',
          'publishedAt',
        ]
          .map((k) => [k, nullable({ type: 'string' })])
          .concat([
            ['id', { type: 'integer' }],
            ['documentId', { type: 'string' }],
            ['width', nullable({ type: 'integer' })],
            ['height', nullable({ type: 'integer' })],
            ['size', { type: 'number' }],
            ['formats', nullable({ type: 'object' })],
          ]),
      ),
    },
  };
  for (const comp of reg.components.values())
    schemas[pascal(comp.uid)] = objectSchema(reg, comp.attributes, false, {}, []);
  const paths: Json = {};
  const errors = (codes: number[]) =>
    Object.fromEntries(
      codes.map((c) => [
        String(c),
        {
          description: {
            400: 'Invalid request',
            401: 'Missing or invalid credentials',
            403: 'Forbidden',
            404: 'Not Found',
          }[c],
          content: { 'application/json': { schema: ref('Error') } },
        },
      ]),
    );
  for (const ct of reg.contentTypes.values()) {
    const name = pascal(ct.singularName);
    const timestamps = {
      id: { type: 'integer' },
      documentId: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      publishedAt: nullable({ type: 'string', format: 'date-time' }),
      ...(ct.localized ? { locale: { type: 'string' } } : {}),
    };
    schemas[name] = objectSchema(reg, ct.attributes, false, timestamps, ['id', 'documentId']);
    schemas[`${name}Input`] = objectSchema(reg, ct.attributes, true);
    schemas[`${name}Response`] = { type: 'object', properties: { data: ref(name), meta: { type: 'object' } } };
    schemas[`${name}ListResponse`] = {
      type: 'object',
      properties: {
        data: { type: 'array', items: ref(name) },
        meta: { type: 'object', properties: { pagination: ref('PagePagination') } },
      },
    };
    const body = {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { data: ref(`${name}Input`) }, required: ['data'] },
        },
      },
    };
    const one = (description: string, status = '200') => ({
      [status]: { description, content: { 'application/json': { schema: ref(`${name}Response`) } } },
    });
    const tags = [ct.displayName];
    if (ct.kind === 'collectionType') {
      paths[`/api/${ct.pluralName}`] = {
        get: {
          tags,
          operationId: `list${name}`,
          summary: `List ${ct.pluralName}`,
          parameters: queryParams(true, ct),
          responses: {
            200: { description: 'OK', content: { 'application/json': { schema: ref(`${name}ListResponse`) } } },
            ...errors([400, 401, 403]),
          },
        },
        post: {
          tags,
          operationId: `create${name}`,
          summary: `Create a ${ct.singularName}`,
          parameters: queryParams(false, ct),
          requestBody: body,
          responses: { ...one('Created', '201'), ...errors([400, 401, 403]) },
        },
      };
      const id = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };
      paths[`/api/${ct.pluralName}/{documentId}`] = {
        get: {
          tags,
          operationId: `get${name}`,
          parameters: [id, ...queryParams(false, ct)],
          responses: { ...one('OK'), ...errors([400, 401, 403, 404]) },
        },
        put: {
          tags,
          operationId: `update${name}`,
          parameters: [id, ...queryParams(false, ct)],
          requestBody: body,
          responses: { ...one('OK'), ...errors([400, 401, 403, 404]) },
        },
        delete: {
          tags,
          operationId: `delete${name}`,
          parameters: [id],
          responses: { 204: { description: 'Deleted' }, ...errors([400, 401, 403]) },
        },
      };
    } else {
      paths[`/api/${ct.singularName}`] = {
        get: {
          tags,
          operationId: `get${name}`,
          parameters: queryParams(false, ct),
          responses: { ...one('OK'), ...errors([400, 401, 403, 404]) },
        },
        put: {
          tags,
          operationId: `update${name}`,
          parameters: queryParams(false, ct),
          requestBody: body,
          responses: { ...one('OK'), ...errors([400, 401, 403]) },
        },
        delete: {
          tags,
          operationId: `delete${name}`,
          responses: { 204: { description: 'Deleted' }, ...errors([401, 403]) },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Folio REST API',
      version: info.version ?? '1.0.0',
      description: "The Strapi v5 REST API served by Folio over this project's content.",
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }, {}],
    paths: { ...paths, ...pluginPaths(errors) },
    components: {
      schemas: { ...schemas, ...pluginSchemas },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token or a user JWT' } },
    },
  };
}
