import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/project.js';

/**
 * Normalisation for comparing Folio's answers with Strapi's recordings (conformance/README.md):
 * documentIds become placeholders by order of first appearance, timestamps, tokens, upload hashes and
 * URLs become placeholders, and integer ids only count as "an integer".
 */
export class Normaliser {
  private ids = new Map<string, string>();

  value(v: unknown, key?: string): unknown {
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // Strapi re-encodes uploaded images, Folio keeps the bytes as sent: file sizes are not compared.
      const isFile = 'mime' in v && 'hash' in v;
      for (const k of Object.keys(v).sort())
        out[k] =
          isFile && (k === 'size' || k === 'sizeInBytes') ? '<size>' : this.value((v as Record<string, unknown>)[k], k);
      return out;
    }
    if (typeof v === 'number' && (key === 'id' || key === 'refId') && Number.isInteger(v)) return '<int>';
    if (typeof v === 'string') {
      // Refresh tokens are opaque to clients: Strapi's are JWTs, Folio's random keys.
      if (key === 'refreshToken') return '<token>';
      // A session (GET /api/auth/sessions): a random device id and a random 32-hex session id.
      if (key === 'deviceId') return '<device>';
      if (key === 'id' && /^[0-9a-f]{32}$/.test(v)) return '<session>';
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)) return '<ts>';
      if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(v)) return '<jwt>';
      if (key === 'documentId' || /^[a-z][a-z0-9]{23}$/.test(v)) {
        if (!this.ids.has(v)) this.ids.set(v, `<doc${this.ids.size + 1}>`);
        return this.ids.get(v);
      }
      if (key === 'hash' || key === 'url' || (key === 'name' && /_[0-9a-f]{10}/.test(v)))
        return v.replace(/_[0-9a-f]{10}/g, '_<hash>');
    }
    return v;
  }
}

interface Schema {
  attributes: Record<string, { type: string; component?: string; components?: string[] }>;
}
const readSchemas = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as Schema]),
  );
const TYPES = readSchemas(join(FIXTURES, 'types'));
const COMPONENTS = Object.fromEntries(
  readdirSync(join(FIXTURES, 'components')).flatMap((cat) =>
    Object.entries(readSchemas(join(FIXTURES, 'components', cat))).map(([n, s]) => [`${cat}.${n}`, s]),
  ),
);

/**
 * Folio's deliberate difference (folio-decisions.md §1): components and dynamic-zone items carry no `id`.
 * Removes those ids from a recorded entry of content-type `type` (and from populated relations inside it).
 */
export function stripComponentIds(entry: unknown, schema: Schema | undefined): unknown {
  if (!entry || typeof entry !== 'object' || !schema) return entry;
  if (Array.isArray(entry)) return entry.map((e) => stripComponentIds(e, schema));
  const out: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
  // The v4 response format (Strapi-Response-Format: v4) nests the fields under `attributes`.
  if (!schema.attributes.attributes && out.attributes && typeof out.attributes === 'object')
    out.attributes = stripComponentIds(out.attributes, schema);
  for (const [k, v] of Object.entries(out)) {
    const attr = schema.attributes[k];
    if (!attr || v === null || v === undefined) continue;
    if (attr.type === 'component') out[k] = stripComponent(v, COMPONENTS[attr.component!]);
    else if (attr.type === 'dynamiczone')
      out[k] = (v as Array<Record<string, unknown>>).map((item) =>
        stripComponent(item, COMPONENTS[item.__component as string]),
      );
    else if (attr.type === 'relation') {
      const target = (attr as unknown as { target: string }).target.split('.').pop()!;
      // v4 wraps a relation in `{ data }`.
      const v4 = typeof v === 'object' && !Array.isArray(v) && Object.keys(v).join() === 'data';
      out[k] = v4
        ? { data: stripComponentIds((v as { data: unknown }).data, TYPES[target]) }
        : stripComponentIds(v, TYPES[target]);
    }
  }
  if (k(out, 'localizations')) out.localizations = stripComponentIds(out.localizations, schema);
  return out;
}
const k = (o: object, key: string) =>
  Object.prototype.hasOwnProperty.call(o, key) && (o as Record<string, unknown>)[key] != null;

function stripComponent(v: unknown, schema: Schema | undefined): unknown {
  if (Array.isArray(v)) return v.map((x) => stripComponent(x, schema));
  if (!v || typeof v !== 'object') return v;
  const { id: _id, ...rest } = v as Record<string, unknown>;
  return schema ? stripComponentIds(rest, schema) : rest;
}

/** The content-type a path addresses (`/api/articles/...` -> article schema), for stripping component ids. */
export function schemaForPath(path: string): Schema | undefined {
  const seg = path.split('/')[2];
  for (const [name, s] of Object.entries(TYPES)) {
    const info = (s as unknown as { info: { singularName: string; pluralName: string } }).info;
    if (info.pluralName === seg || info.singularName === seg) return TYPES[name];
  }
  return undefined;
}
