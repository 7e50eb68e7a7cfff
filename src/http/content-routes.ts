import type { H3Event } from 'h3';
import { invalidKey, notFound, validationError } from '../errors.js';
import type { DocumentService } from '../documents/service.js';
import type { ContentType } from '../schema/types.js';
import type { Reader } from '../query/reader.js';
import type { PageBody } from '../query/bodies.js';
import type { RouteKind } from '../query/read.js';
import { dataOf } from '../http-kit/body.js';
import type { Actor } from '../documents/write-record.js';

export interface RouteInput {
  event: H3Event;
  ct: ContentType;
  documentId?: string;
  query: Record<string, unknown>;
  body: () => Promise<unknown>;
  /** The caller's reads: every query of the route is checked and run through it. */
  read: Reader;
  /** Who the caller is, as the author of a write. */
  actor?: Actor;
  /**
   * The caller's permission-set key when the answer is wanted as Strapi v5 JSON bytes (see `RouteResult.bytes`):
   * a list answer is then assembled from documents shaped before.
   */
  bytesFor?: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** The body already as JSON bytes, with a digest of them for its ETag (see `RouteInput.bytesFor`). */
  bytes?: PageBody;
}

const single = (data: unknown): RouteResult => ({ status: 200, body: { data, meta: {} } });

/** A relation in a write body to a type the caller may not `find` is refused, as Strapi refuses it. */
function checkRelationPermissions(read: RouteInput['read'], ct: ContentType, data: Record<string, unknown>) {
  for (const key of Object.keys(data)) {
    const attr = Object.prototype.hasOwnProperty.call(ct.attributes, key) ? ct.attributes[key] : undefined;
    if (attr?.type === 'relation' && !read.canFind(attr.target)) throw invalidKey(key, { path: key, source: 'body' });
  }
}
const writeLocale = (q: Record<string, unknown>) => (typeof q.locale === 'string' ? q.locale : undefined);
const writeStatus = (q: Record<string, unknown>) => (q.status === 'draft' ? ('draft' as const) : undefined);

/** A delete names a configured locale (or `*`), as every other write must: an unknown one is a 400, not a no-op. */
function checkWriteLocale(read: RouteInput['read'], ct: ContentType, query: Record<string, unknown>) {
  const code = writeLocale(query);
  if (!ct.localized || code === undefined || code === '*') return;
  const locales = read.config.locales.map((l) => l.code);
  if (!locales.includes(code))
    throw validationError(`Invalid locale "${code}": it is not one of the configured locales (${locales.join(', ')})`, {
      locale: code,
    });
}

/** The five core actions of a content-type, as Strapi's core controllers answer them. */
export class ContentRoutes {
  constructor(private docs: DocumentService) {}

  async find({ ct, query, read, bytesFor }: RouteInput): Promise<RouteResult> {
    const prepared = read.prepare(ct, query, 'find');
    if (bytesFor !== undefined) return { status: 200, bytes: await prepared.findBody(bytesFor) };
    return { status: 200, body: await prepared.findLater() };
  }

  async findOne({ ct, documentId, query, read }: RouteInput): Promise<RouteResult> {
    const data = await read.prepare(ct, query, 'findOne').oneLater(documentId!);
    if (!data) throw notFound();
    return single(data);
  }

  /** Single types: the one document of the type in the addressed locale and status. */
  async findSingle({ ct, query, read }: RouteInput): Promise<RouteResult> {
    const data = await read.prepare(ct, query, 'findOne').singleLater();
    if (!data) throw notFound();
    return single(data);
  }

  async create(input: RouteInput): Promise<RouteResult> {
    const { ct, query, read } = input;
    read.prepare(ct, query, 'write');
    const data = dataOf(await input.body());
    checkRelationPermissions(read, ct, data);
    const v = await this.docs.create(ct.uid, data, {
      status: writeStatus(query),
      locale: writeLocale(query),
      actor: input.actor,
    });
    const shaped = read.written(ct, v, query);
    delete (shaped as Record<string, unknown>).id; // Folio: the create response carries no id
    return { status: 201, body: { data: shaped, meta: {} } };
  }

  async update(input: RouteInput): Promise<RouteResult> {
    const { ct, documentId, query, read } = input;
    read.prepare(ct, query, 'write');
    const data = dataOf(await input.body());
    checkRelationPermissions(read, ct, data);
    const v = await this.docs.update(ct.uid, documentId!, data, {
      status: writeStatus(query),
      locale: writeLocale(query),
      actor: input.actor,
    });
    if (!v) throw notFound();
    return single(read.written(ct, v, query));
  }

  /** Single types: PUT creates the document when there is none (still 200), else updates it. */
  async upsertSingle(input: RouteInput): Promise<RouteResult> {
    const { ct, query, read } = input;
    read.prepare(ct, query, 'write');
    const data = dataOf(await input.body());
    checkRelationPermissions(read, ct, data);
    const doc = this.docs.singleDocument(ct);
    const opts = { status: writeStatus(query), locale: writeLocale(query), actor: input.actor };
    const v = doc
      ? await this.docs.update(ct.uid, doc.documentId, data, opts)
      : await this.docs.create(ct.uid, data, opts);
    if (!v) throw notFound();
    return single(read.written(ct, v, query));
  }

  async delete({ ct, documentId, query, read, actor }: RouteInput): Promise<RouteResult> {
    if (query.status === 'draft') {
      throw validationError(
        "Invalid parameter at 'status': a draft cannot be deleted on its own; " +
          'DELETE without status removes every version of the locale',
      );
    }
    read.prepare(ct, { ...query, status: undefined }, 'delete');
    checkWriteLocale(read, ct, query);
    await this.docs.delete(ct.uid, documentId!, { locale: writeLocale(query), actor });
    return { status: 204 };
  }

  async deleteSingle(input: RouteInput): Promise<RouteResult> {
    checkWriteLocale(input.read, input.ct, input.query);
    const doc = this.docs.singleDocument(input.ct);
    if (!doc) return { status: 204 };
    return this.delete({ ...input, documentId: doc.documentId });
  }
}

export type { RouteKind };
