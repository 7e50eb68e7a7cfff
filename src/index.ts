import type { App } from 'h3';
import type { Server } from 'node:http';
import { stringify } from 'qs';
import { FolioError } from './errors.js';
import { openProject, type Project } from './project.js';
import { parseQueryString } from './query/parse-qs.js';
import { Reader } from './query/reader.js';
import { type ContentType, typeSummary } from './schema/types.js';

/**
 * The package's programmatic API (`import { openFolio } from 'folio-cms'`): a project opened as `folio serve`
 * and the CLI open it, its documents read and written through the same services, and the same server or h3
 * app. Documented in docs/api.md; the modules under dist/ are not part of it.
 */

export { FolioError };

/** A query as the REST API takes it: a query string (`sort=title&populate=author`) or the object qs makes of one. */
export type Query = string | Record<string, unknown>;

/** An answer as the REST API gives it. */
export interface Answer<T> {
  data: T;
  meta: Record<string, unknown>;
}

/** A document as the REST API shapes it: `id`, `documentId`, its fields, timestamps, `locale` when localized. */
export type Entry = Record<string, unknown>;

export interface WriteOptions {
  /** `draft` writes the draft only; by default a write on a draft & publish type also publishes. */
  status?: 'draft' | 'published';
  /** The locale written (localized types; default: the project's default locale). */
  locale?: string;
  /** What the answer includes, as the query parameter (`'*'`, `'author'`, or qs's object form). */
  populate?: unknown;
}

/** A content-type of the project, as `GET /api` lists it. */
export interface TypeInfo {
  uid: string;
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  displayName: string;
  draftAndPublish: boolean;
  localized: boolean;
}

export interface ServeOptions {
  /** Default: `server.port` of folio.json (1337); 0 picks a free port. */
  port?: number;
  /** Default: `server.host` of folio.json (localhost). */
  host?: string;
  /** Refuse every write, as `folio serve --read-only`. */
  readOnly?: boolean;
  /** Follow changes under content/ as `folio serve` does (default true). */
  watch?: boolean;
  /** Where the server's messages go (default: standard error). */
  log?: (message: string) => void;
}

export interface AppOptions {
  readOnly?: boolean;
  log?: (message: string) => void;
}

export interface FolioServer {
  /** `http://host:port`, the API under `/api`. */
  url: string;
  port: number;
  server: Server;
  /** Stops taking requests, lets those in flight end (up to 2 s) and stops watching and sending webhooks. */
  close(): Promise<void>;
}

/** An open project: its documents, and the server that serves them. */
export interface Folio {
  /** The folder that holds content/. */
  readonly root: string;
  /** The content-types, in the order of their schema files. */
  types(): TypeInfo[];
  /** A page of documents, as `GET /api/<plural>?<query>` answers it (every locale with `locale: '*'`). */
  find(type: string, query?: Query): Answer<Entry[]>;
  /** One document (a single type's needs no documentId), as `GET /api/<plural>/<documentId>`; null when none. */
  findOne(type: string, documentId?: string | null, query?: Query): Answer<Entry> | null;
  /** Creates a document (publishing it unless `status: 'draft'`), as `POST /api/<plural>`. */
  create(type: string, data: Record<string, unknown>, options?: WriteOptions): Promise<Answer<Entry>>;
  /** Updates a locale of a document (adding it when new), as `PUT /api/<plural>/<documentId>`; null when none. */
  update(
    type: string,
    documentId: string,
    data: Record<string, unknown>,
    options?: WriteOptions,
  ): Promise<Answer<Entry> | null>;
  /** Deletes a locale of a document (`locale: '*'`: all); answers how many versions went. */
  delete(type: string, documentId: string, options?: { locale?: string }): Promise<number>;
  /** Publishes the draft; null when there is no draft. */
  publish(type: string, documentId: string, options?: { locale?: string }): Promise<Answer<Entry> | null>;
  /** Removes the published version, keeping the draft; null when there is none. */
  unpublish(type: string, documentId: string, options?: { locale?: string }): Promise<Answer<Entry> | null>;
  /** Replaces the draft with the published version; null when there is none. */
  discardDraft(type: string, documentId: string, options?: { locale?: string }): Promise<Answer<Entry> | null>;
  /** The h3 app `folio serve` runs (permissions, users, uploads, Studio), to mount in a server of your own. */
  app(options?: AppOptions): Promise<App>;
  /** Serves the project as `folio serve` does: the app, webhooks, and (by default) changes on disk followed. */
  listen(options?: ServeOptions): Promise<FolioServer>;
}

/**
 * Opens the project in `dir` (the folder that holds content/), as every `folio` command does. Reads and
 * writes here are trusted: they follow the API's rules, not content/permissions.json.
 */
export async function openFolio(dir: string): Promise<Folio> {
  const project = await openProject(dir);
  const typeOf = (name: string): ContentType => {
    const ct = project.schemas.find(name);
    if (!ct) throw new FolioError(404, 'NotFoundError', `Unknown content-type "${name}"`, {});
    return ct;
  };
  const written = (ct: ContentType, options: WriteOptions, v: Awaited<ReturnType<Project['documents']['create']>>) => ({
    data: new Reader(project).written(ct, v, options.populate === undefined ? {} : { populate: options.populate }),
    meta: {},
  });
  const lifecycle =
    (step: 'publish' | 'unpublish' | 'discardDraft') =>
    async (type: string, documentId: string, options: { locale?: string } = {}) => {
      const ct = typeOf(type);
      const v = await project.documents[step](ct.uid, documentId, options);
      return v ? written(ct, {}, v) : null;
    };
  return {
    root: project.root,
    types: () => [...project.schemas.contentTypes.values()].map(typeSummary),
    find(type, query = {}) {
      const { data, meta } = new Reader(project).find(typeOf(type), asQuery(query));
      return { data: data as Entry[], meta: meta as Record<string, unknown> };
    },
    findOne(type, documentId, query = {}) {
      const ct = typeOf(type);
      const read = new Reader(project).prepare(ct, asQuery(query), 'findOne');
      const data = documentId ? read.one(documentId) : ct.kind === 'singleType' ? read.single() : undefined;
      return data ? { data, meta: {} } : null;
    },
    async create(type, data, options = {}) {
      const ct = typeOf(type);
      const write = { status: options.status, locale: options.locale };
      // A single type has one document: a create of one that exists updates it, as PUT /api/<singular> does.
      const single = ct.kind === 'singleType' ? project.documents.singleDocument(ct) : undefined;
      const v = single
        ? await project.documents.update(ct.uid, single.documentId, data, write)
        : await project.documents.create(ct.uid, data, write);
      return written(ct, options, v!);
    },
    async update(type, documentId, data, options = {}) {
      const ct = typeOf(type);
      const v = await project.documents.update(ct.uid, documentId, data, {
        status: options.status,
        locale: options.locale,
      });
      return v ? written(ct, options, v) : null;
    },
    delete: (type, documentId, options = {}) => project.documents.delete(typeOf(type).uid, documentId, options),
    publish: lifecycle('publish'),
    unpublish: lifecycle('unpublish'),
    discardDraft: lifecycle('discardDraft'),
    async app(options = {}) {
      const [{ createFolioApp }, { serverOptions }] = await Promise.all([
        import('./http/app.js'),
        import('./http/compose.js'),
      ]);
      const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
      return createFolioApp(project, { ...(await serverOptions(project, { log })), readOnly: options.readOnly, log });
    },
    listen: (options = {}) => listen(project, options),
  };
}

/** A query string parsed as the REST API parses it; an object goes the same way, so the same limits hold. */
function asQuery(query: Query): Record<string, unknown> {
  const text = typeof query === 'string' ? query.replace(/^\?/, '') : stringify(query, { encodeValuesOnly: true });
  return parseQueryString(text);
}

async function listen(project: Project, options: ServeOptions): Promise<FolioServer> {
  const [{ startServer }, { serverOptions }, { WebhookDispatcher }, { LocalMediaLibrary }] = await Promise.all([
    import('./http/server.js'),
    import('./http/compose.js'),
    import('./webhooks/webhooks.js'),
    import('./upload/library.js'),
  ]);
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const composed = await serverOptions(project, { log });
  const running = await startServer(project, {
    ...composed,
    readOnly: options.readOnly,
    log,
    port: options.port ?? project.config.server.port,
    host: options.host ?? project.config.server.host,
  });
  const webhooks = new WebhookDispatcher(project, log);
  const media = project.documents.media;
  const stopWebhooks = webhooks.start(media instanceof LocalMediaLibrary ? media : undefined);
  let watcher: { close(): Promise<void>; ready: Promise<void> } | undefined;
  if (options.watch !== false) {
    const { watchProject } = await import('./watch/watcher.js');
    watcher = await watchProject(project, {
      onChange: (c) => c.problem && log(`${c.file}: ${c.problem}`),
      onPermissions: () => {
        try {
          composed.access.reload();
        } catch (err) {
          log(`${(err as Error).message}; keeping the previous permissions`);
        }
      },
    });
    await watcher.ready;
  }
  return {
    url: running.url,
    port: running.port,
    server: running.server,
    async close() {
      await watcher?.close();
      await running.shutdown(2000);
      await project.documents.idle();
      stopWebhooks();
      await webhooks.idle();
    },
  };
}
