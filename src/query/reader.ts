import type { FolioConfig } from '../config.js';
import type { Version } from '../documents/model.js';
import type { DocumentService } from '../documents/service.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from './context.js';
import { ReadBudget } from './bounds.js';
import { finish, shapingJobs } from './ready.js';
import { shapeDocument } from './output.js';
import { parsePopulate } from './populate.js';
import {
  type ReadQuery,
  type RouteKind,
  parseReadQuery,
  runFind,
  runFindLater,
  runFindBody,
  shapeOne,
} from './read.js';

/** What a read needs of an open project (a `Project` is one). */
export interface ReadSource {
  schemas: SchemaRegistry;
  config: FolioConfig;
  documents: Pick<DocumentService, 'index' | 'media' | 'findVersion' | 'singleDocument'>;
}

/**
 * The one entry to reading documents, for the content API, `folio docs`, `folio export` and webhooks: it builds
 * the read context once, for one caller (`canFind`: the content-types whose documents it may see through
 * relations; everything when left out), and every read goes through the same parse, check, pick and shape.
 */
export class Reader {
  private readonly context: Omit<ReadContext, 'status'>;
  private readonly documents: ReadSource['documents'];

  constructor(source: ReadSource, canFind: (uid: string) => boolean = () => true) {
    this.context = {
      schemas: source.schemas,
      index: source.documents.index,
      config: source.config,
      media: source.documents.media,
      canFind,
    };
    this.documents = source.documents;
  }

  get config(): FolioConfig {
    return this.context.config;
  }

  /** Whether the caller may `find` a content-type (a relation to it in a write body is refused otherwise). */
  canFind(uid: string): boolean {
    return this.context.canFind(uid);
  }

  /** Checks a query's parameters for a route of `kind` (400s as Strapi gives them), and prepares the read. */
  prepare(ct: ContentType, q: Record<string, unknown>, kind: RouteKind): PreparedRead {
    const { query, context } = parseReadQuery(this.context, ct, q, kind);
    return new PreparedRead(this.documents, ct, query, context);
  }

  /** A list read: the page of `q` as `{ data, meta }`, and the checked query (its status and locale). */
  find(ct: ContentType, q: Record<string, unknown>) {
    const read = this.prepare(ct, q, 'find');
    return { ...read.find(), query: read.query };
  }

  /** A written version shaped with the query's `fields` and `populate`, read in the version's own status. */
  written(ct: ContentType, v: Version, q: Record<string, unknown> = {}): Record<string, unknown> {
    const status = v.status === 'draft' && ct.draftAndPublish ? 'draft' : 'published';
    return this.prepare(ct, { ...q, status }, 'write').shape(v, { filtered: false })!;
  }

  /**
   * A version as an event carries it: in its own status, populated one level (or not at all), outside any
   * request's read bounds.
   */
  entry(ct: ContentType, v: Version, opts: { populate: boolean }): Record<string, unknown> {
    const ctx: ReadContext = { ...this.context, status: v.status };
    const populate = opts.populate ? parsePopulate(ctx, { kind: 'document', ct }, '*') : new Map();
    return shapeDocument(ctx, ct, v, { populate });
  }
}

/**
 * A checked query of one content-type, ready to run once or many times (`folio export` reads every document
 * with one). Each run is one answer, bounded on its own by folio.json's `read` limits.
 */
export class PreparedRead {
  constructor(
    private documents: ReadSource['documents'],
    readonly ct: ContentType,
    readonly query: ReadQuery,
    private context: ReadContext,
  ) {}

  /** Whether the parsed context's budget was handed to a run (parsing spends none of it). */
  private spent = false;

  /** The context of one run: the parsed one, with a fresh budget (its own for the first run). */
  private run(): ReadContext {
    const limits = this.context.budget && this.context.config.read;
    if (!limits) return this.context;
    if (!this.spent) {
      this.spent = true;
      return this.context;
    }
    return { ...this.context, budget: new ReadBudget(limits) };
  }

  /**
   * The same read outside folio.json's `read` limits, which bound what one HTTP answer may cost: for the
   * CLI's own reads (`folio export`), which answer no request.
   */
  unbounded(): PreparedRead {
    return new PreparedRead(this.documents, this.ct, this.query, { ...this.context, budget: undefined });
  }

  /** The page the query asks for, as `{ data, meta }`. */
  find() {
    return runFind(this.run(), this.ct, this.query);
  }

  /**
   * `findLater`'s answer as JSON bytes with their digest, its documents' bytes reused from earlier answers (see
   * bodies.ts); `who` names the caller's permissions.
   */
  findBody(who: string) {
    return runFindBody(this.run(), this.ct, this.query, who);
  }

  /** `find` without holding the event loop: long work (building an index, a scan) runs in slices. */
  findLater() {
    return runFindLater(this.run(), this.ct, this.query);
  }

  /** One document in the query's status and locale, shaped; undefined when it has no such version or is filtered. */
  one(documentId: string): Record<string, unknown> | undefined {
    const { status, locale } = this.query;
    const v = locale === '*' ? undefined : this.documents.findVersion(this.ct, documentId, status, locale ?? undefined);
    return this.shape(v);
  }

  /** `one`, once the types it reads are ready (see ready.ts), without reading a whole type on the event loop. */
  async oneLater(documentId: string): Promise<Record<string, unknown> | undefined> {
    await finish(this.context, shapingJobs(this.context, this.ct, this.query.selection.populate, true));
    return this.one(documentId);
  }

  /** `single`, as `oneLater` reads it. */
  async singleLater(): Promise<Record<string, unknown> | undefined> {
    await finish(this.context, shapingJobs(this.context, this.ct, this.query.selection.populate, true));
    return this.single();
  }

  /** The single type's document, as `one` reads it. */
  single(): Record<string, unknown> | undefined {
    return this.one(this.documents.singleDocument(this.ct)?.documentId ?? '');
  }

  /** A version shaped with the query's selection; `filtered: false` skips the query's `filters`. */
  shape(v: Version | undefined, opts: { filtered?: boolean } = {}): Record<string, unknown> | undefined {
    const query = opts.filtered === false ? { ...this.query, filter: undefined } : this.query;
    return shapeOne(this.run(), this.ct, v, query);
  }
}
