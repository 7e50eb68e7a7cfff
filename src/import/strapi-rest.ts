import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import qs from 'qs';
import { loadConfig } from '../config.js';
import { writeFileAtomic } from '../store/atomic.js';
import { serialize } from '../store/serialize.js';
import { FileStore } from '../store/store.js';
import { loadSchemas, type SchemaRegistry } from '../schema/registry.js';
import { isOwningSide, type Attribute, type ContentType } from '../schema/types.js';
import { storedAttributes } from '../documents/model.js';
import { linkEntry, linksNameLocale } from '../documents/file-format.js';
import { importClashes } from './unique-clashes.js';

type Json = Record<string, unknown>;

/** Where the import reports how far it is (the CLI draws it as a progress line). */
export interface ImportProgress {
  step(label: string, total?: number): void;
  tick(): void;
}

export interface ImportSummary {
  contentTypes: string[];
  components: string[];
  locales: string[];
  documents: Record<string, number>;
  versions: number;
  media: { added: number; kept: number; failed: string[] };
  /** What REST cannot give and so is not imported (private fields, passwords). */
  notImported: string[];
}

/** A failure talking to the source, said so a user can act on it. */
export class ImportError extends Error {}

/**
 * Writes folio.json with the imported locales. When the default locale changes, links already stored in the
 * project name the default locale's versions by a bare documentId, so the project rewrites them in the same write.
 */
export type SaveLocales = (settings: Json, previousDefault: string) => Promise<void>;

/** Adds media files to the project's library, keeping their documentIds; undefined when the library lacks one. */
export interface MediaSink {
  has(documentId: string): boolean;
  add(file: { body: Readable; name: string; info: Json; keep: Record<string, string> }): Promise<void>;
}

/** The REST client of the source Strapi: every request with the token, errors made plain. */
function client(base: string, token: string) {
  const root = base.replace(/(?<!\/)\/+$/, '');
  const get = async (path: string, query?: Json): Promise<Response> => {
    const url = `${root}${path}${query ? `?${qs.stringify(query, { encodeValuesOnly: true })}` : ''}`;
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    } catch (err) {
      throw new ImportError(`Cannot reach ${root}: ${(err as Error).message} (is the Strapi server running?)`);
    }
    if (res.status === 401 || res.status === 403)
      throw new ImportError(
        `${root} refused the token on GET ${path} (HTTP ${res.status}): use a full-access API token`,
      );
    return res;
  };
  const json = async (path: string, query?: Json): Promise<unknown> => {
    const res = await get(path, query);
    if (!res.ok) throw new ImportError(`GET ${path} answered HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  return { root, get, json };
}

/** A content-type as Strapi's content-type-builder API gives it, as a Folio schema file. */
function typeFile(schema: Json): Json {
  return {
    kind: schema.kind,
    collectionName: schema.collectionName,
    info: {
      singularName: schema.singularName,
      pluralName: schema.pluralName,
      displayName: schema.displayName,
      description: schema.description ?? '',
    },
    options: { draftAndPublish: schema.draftAndPublish === true },
    pluginOptions: (schema.pluginOptions as Json | undefined) ?? {},
    attributes: cleanAttributes(schema.attributes as Json),
  };
}

/** Attributes without what the builder API adds for its own UI (`targetAttribute`). */
function cleanAttributes(attributes: Json): Json {
  const out: Json = {};
  for (const [name, raw] of Object.entries(attributes ?? {})) {
    const { targetAttribute: _ui, ...a } = raw as Json;
    out[name] = a;
  }
  return out;
}

/**
 * The populate that returns what a stored version holds: documentIds of links and media, components deep, and
 * the locale of each version linked from a type without locales (`ct`) to a localized one.
 */
export function populateFor(attributes: Record<string, Attribute>, reg: SchemaRegistry, ct?: ContentType): Json {
  const p: Json = {};
  for (const [name, a] of Object.entries(attributes)) {
    if (a.type === 'relation') {
      const target = reg.contentTypes.get(a.target);
      const fields = ct && target && linksNameLocale(ct, target) ? ['documentId', 'locale'] : ['documentId'];
      if (isOwningSide(a) && !a.relation.startsWith('morph')) p[name] = { fields };
    } else if (a.type === 'media') p[name] = { fields: ['documentId'] };
    else if (a.type === 'component') {
      const inner = populateFor(reg.components.get(a.component)?.attributes ?? {}, reg);
      p[name] = Object.keys(inner).length ? { populate: inner } : true;
    } else if (a.type === 'dynamiczone') {
      const on: Json = {};
      for (const uid of a.components) {
        const inner = populateFor(reg.components.get(uid)?.attributes ?? {}, reg);
        on[uid] = Object.keys(inner).length ? { populate: inner } : { populate: '*' };
      }
      p[name] = { on };
    }
  }
  return p;
}

/**
 * A value as the REST API returns it, as a document file stores it (links and media by documentId, a link to
 * another locale than `defaultLocale` with its locale: see file-format.ts).
 */
function storedValue(a: Attribute, v: unknown, reg: SchemaRegistry, defaultLocale = ''): unknown {
  if (v === null || v === undefined) return v;
  const idOf = (x: unknown) => {
    if (!x || typeof x !== 'object') return x;
    const { documentId, locale } = x as Json;
    return typeof locale === 'string' ? linkEntry(String(documentId), locale, defaultLocale) : documentId;
  };
  if (a.type === 'relation' || a.type === 'media') return Array.isArray(v) ? v.map(idOf) : idOf(v);
  if (a.type === 'component') {
    const comp = reg.components.get(a.component);
    const one = (x: unknown) => storedObject(comp?.attributes ?? {}, x as Json, reg);
    return Array.isArray(v) ? v.map(one) : one(v);
  }
  if (a.type === 'dynamiczone' && Array.isArray(v))
    return v.map((item) => {
      const uid = (item as Json).__component as string;
      return { __component: uid, ...storedObject(reg.components.get(uid)?.attributes ?? {}, item as Json, reg) };
    });
  return v;
}

function storedObject(attributes: Record<string, Attribute>, raw: Json, reg: SchemaRegistry): Json {
  const out: Json = {};
  for (const [name, a] of Object.entries(attributes)) if (name in raw) out[name] = storedValue(a, raw[name], reg);
  return out;
}

/** One version from a REST answer, in the file format's key order (id, attributes, timestamps). */
function storedVersion(ct: ContentType, raw: Json, reg: SchemaRegistry, defaultLocale: string): Json {
  const out: Json = { id: raw.id };
  for (const name of storedAttributes(ct))
    out[name] = storedValue(ct.attributes[name], raw[name], reg, defaultLocale) ?? null;
  out.createdAt = raw.createdAt;
  out.updatedAt = raw.updatedAt;
  out.publishedAt = raw.publishedAt ?? null;
  return out;
}

/**
 * Imports a running Strapi 5 into `contentDir` over its REST API: content-types and components (from the
 * content-type-builder routes), locales, the media library (files and their metadata, documentIds kept),
 * and every document in every locale and status with its relations. Documents keep their documentIds, so
 * running it again updates the same files and never duplicates anything.
 */
export async function importFromStrapi(
  contentDir: string,
  source: { url: string; token: string },
  openMedia: () => Promise<MediaSink | undefined>,
  progress: ImportProgress,
  saveLocales: SaveLocales = (settings) => writeFileAtomic(join(contentDir, 'folio.json'), serialize(settings)),
): Promise<ImportSummary> {
  const api = client(source.url, source.token);
  const summary: ImportSummary = {
    contentTypes: [],
    components: [],
    locales: [],
    documents: {},
    versions: 0,
    media: { added: 0, kept: 0, failed: [] },
    notImported: [],
  };

  progress.step('reading the model');
  const typesAnswer = (await api.json('/api/content-type-builder/content-types')) as { data: Array<Json> };
  const compsAnswer = (await api.json('/api/content-type-builder/components')) as { data: Array<Json> };

  progress.step('reading the locales');
  const locales = (await api.json('/api/i18n/locales')) as Array<{ code: string; name: string; isDefault?: boolean }>;
  // The locales the project uses now, defaults included: bare links in its files name `current.defaultLocale`'s
  // versions. Saved before the model is written, so the links are rewritten under the model they were stored with.
  let current;
  try {
    current = loadConfig(contentDir);
  } catch (err) {
    throw new ImportError((err as Error).message);
  }
  const configFile = join(contentDir, 'folio.json');
  const config = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as Json) : {};
  const known = new Map(current.locales.map((l) => [l.code, l]));
  for (const l of locales) known.set(l.code, { code: l.code, name: l.name });
  config.locales = [...known.values()];
  config.defaultLocale = locales.find((l) => l.isDefault)?.code ?? current.defaultLocale;
  await saveLocales(config, current.defaultLocale);
  summary.locales = locales.map((l) => l.code);

  for (const c of compsAnswer.data) {
    const uid = String(c.uid);
    const [category, name] = uid.split('.');
    const schema = c.schema as Json;
    const file = join(contentDir, 'components', category, `${name}.json`);
    mkdirSync(join(contentDir, 'components', category), { recursive: true });
    await writeFileAtomic(
      file,
      serialize({
        collectionName: schema.collectionName,
        info: { displayName: schema.displayName, icon: schema.icon ?? 'cube', description: schema.description ?? '' },
        options: {},
        attributes: cleanAttributes(schema.attributes as Json),
      }),
    );
    summary.components.push(uid);
  }
  mkdirSync(join(contentDir, 'types'), { recursive: true });
  for (const t of typesAnswer.data) {
    const uid = String(t.uid);
    if (!uid.startsWith('api::')) continue;
    const schema = t.schema as Json;
    await writeFileAtomic(
      join(contentDir, 'types', `${String(schema.singularName)}.json`),
      serialize(typeFile(schema)),
    );
    summary.contentTypes.push(uid);
  }

  const reg = loadSchemas(contentDir);
  if (reg.problems.length)
    throw new ImportError(
      `The imported model has problems: ${reg.problems.map((p) => `${p.file}: ${p.message}`).join('; ')}`,
    );
  for (const ct of reg.contentTypes.values())
    for (const [name, a] of Object.entries(ct.attributes))
      if (a.type === 'password' || a.private) summary.notImported.push(`${ct.singularName}.${name}`);

  const files = (await api.json('/api/upload/files')) as Array<Json>;
  const media = files.length ? await openMedia() : undefined;
  progress.step('copying the media library', files.length);
  for (const f of files) {
    progress.tick();
    const documentId = String(f.documentId);
    if (!media) break;
    if (media.has(documentId)) {
      summary.media.kept++;
      continue;
    }
    // Local uploads are paths on the Strapi server; a provider's (S3, Cloudinary…) are absolute URLs elsewhere,
    // fetched without the token, which is for the Strapi server only.
    const where = new URL(String(f.url), `${api.root}/`);
    const res =
      where.origin === new URL(api.root).origin
        ? await api.get(where.pathname + where.search)
        : await fetch(where).catch(() => undefined);
    if (!res?.ok || !res.body) {
      summary.media.failed.push(`${String(f.name)} (${res ? `HTTP ${res.status}` : `cannot reach ${where.origin}`})`);
      continue;
    }
    await media.add({
      body: Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
      name: String(f.name),
      info: { name: f.name, alternativeText: f.alternativeText ?? null, caption: f.caption ?? null },
      keep: Object.fromEntries(
        ['documentId', 'createdAt', 'updatedAt', 'publishedAt']
          .filter((k) => typeof f[k] === 'string')
          .map((k) => [k, String(f[k])]),
      ),
    });
    summary.media.added++;
  }

  const store = new FileStore(contentDir);
  const codes = locales.map((l) => l.code);
  const imported: Array<[ContentType, Map<string, Json>]> = [];
  for (const ct of reg.contentTypes.values()) {
    const statuses = ct.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const);
    const perLocale = ct.localized ? codes : [undefined];
    const bodies = new Map<string, Json>();
    const populate = populateFor(ct.attributes, reg, ct);
    progress.step(`copying ${ct.pluralName}`, perLocale.length * statuses.length);
    for (const locale of perLocale) {
      for (const status of statuses) {
        progress.tick();
        const rows: Json[] = [];
        const query = (page: number): Json => ({
          ...(locale ? { locale } : {}),
          status,
          populate,
          pagination: { page, pageSize: 100 },
        });
        if (ct.kind === 'singleType') {
          const res = await api.get(`/api/${ct.singularName}`, query(1));
          if (res.status === 404) continue;
          if (!res.ok) throw new ImportError(`GET /api/${ct.singularName} answered HTTP ${res.status}`);
          const body = (await res.json()) as { data: Json | null };
          if (body.data) rows.push(body.data);
        } else {
          for (let page = 1, pageCount = 1; page <= pageCount; page++) {
            const body = (await api.json(`/api/${ct.pluralName}`, query(page))) as {
              data: Json[];
              meta: { pagination?: { pageCount?: number } };
            };
            rows.push(...body.data);
            pageCount = body.meta.pagination?.pageCount ?? 1;
          }
        }
        for (const row of rows) {
          const documentId = String(row.documentId);
          const body = bodies.get(documentId) ?? (ct.localized ? { documentId, locales: {} } : { documentId });
          bodies.set(documentId, body);
          const slotHolder = ct.localized ? (body.locales as Json) : undefined;
          const slot = slotHolder ? ((slotHolder[locale!] as Json | undefined) ?? (slotHolder[locale!] = {})) : body;
          (slot as Json)[status] = storedVersion(ct, row, reg, String(config.defaultLocale));
          summary.versions++;
        }
      }
    }
    imported.push([ct, bodies]);
  }
  // Unique values are checked before any document is written: all of them are imported, or none.
  const clashes = await importClashes(store, reg, imported);
  if (clashes.length)
    throw new ImportError(
      `No document was imported: these values of unique fields would be held twice in a locale (uid and unique ` +
        `fields are unique per type and locale):\n  ${clashes.join('\n  ')}\n` +
        'Change one of each in the project (or in Strapi) and import again; the model, locales and media are in.',
    );
  for (const [ct, bodies] of imported) {
    for (const [documentId, body] of bodies) await store.write(ct.pluralName, documentId, body);
    summary.documents[ct.pluralName] = bodies.size;
  }
  return summary;
}
