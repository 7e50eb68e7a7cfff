import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type FolioConfig } from './config.js';
import { loadSchemas, type SchemaRegistry } from './schema/registry.js';
import { FileStore } from './store/store.js';
import { Checkout } from './store/checkout.js';
import { DocumentService } from './documents/service.js';
import { type AfterStart, type LoadOptions, type LoadReport, fillIndex, servedBody } from './startup/index.js';
import { EventBus } from './documents/events.js';
import type { MediaLibrary } from './documents/media.js';
import { LocalMediaLibrary } from './upload/library.js';
import { loadUploadConfig } from './upload/config.js';

/** A Folio project on disk: the folder that holds `content/`, loaded into schemas, config and documents. */
export interface Project {
  root: string;
  contentDir: string;
  config: FolioConfig;
  schemas: SchemaRegistry;
  documents: DocumentService;
  report: LoadReport;
  /** What the load left for after the first answer: the warm-up, and the start-up snapshot. */
  afterStart: AfterStart;
  /** Document events (webhooks, live stream); the same bus across reloads. */
  events: EventBus;
  /** Rewrites of the checkout by the server's own git commands, and who follows them; the same across reloads. */
  checkout: Checkout;
}

export type { AfterStart, LoadOptions, LoadReport };

export class ProjectError extends Error {}

export function contentDirOf(dir: string) {
  return join(resolve(dir), 'content');
}

/** Loads a project: schemas, `folio.json`, and every document into the in-memory index. */
export async function openProject(
  dir: string,
  opts: { media?: MediaLibrary; load?: LoadOptions } = {},
): Promise<Project> {
  const root = resolve(dir);
  const contentDir = contentDirOf(root);
  if (!existsSync(contentDir)) {
    throw new ProjectError(
      `No Folio project in ${root}: there is no content/ folder. Run "folio init" there, or pass --dir <project>.`,
    );
  }
  const media = opts.media ?? (await LocalMediaLibrary.open(contentDir));
  const loaded = await loadContent(contentDir, media, new EventBus(), opts.load);
  if (media instanceof LocalMediaLibrary) {
    loaded.report.problems.push(...media.problems);
    // The library's writes are told where the documents' are, to whoever follows them (serve --commit).
    media.written.journal = loaded.events;
  }
  return { root, contentDir, ...loaded, checkout: new Checkout() };
}

async function loadContent(contentDir: string, media: MediaLibrary, events: EventBus, load: LoadOptions = {}) {
  const config = loadConfig(contentDir);
  const schemas = loadSchemas(contentDir);
  const store = new FileStore(contentDir);
  const documents = new DocumentService(schemas, config, store, media, events);
  const hooks = documents.loadHooks(load.checkValues !== false);
  const { report, after } = await fillIndex(documents.index, schemas, store, {
    snapshotFrom: config.server.snapshotFrom,
    readThreadsFrom: config.server.readThreadsFrom,
    ...hooks,
    ...load,
  });
  hooks.report = report;
  report.problems.unshift(
    ...schemas.problems.map((p) => ({
      file: join(contentDir, p.file),
      message: p.attribute ? `attribute "${p.attribute}": ${p.message}` : p.message,
    })),
  );
  return { config, schemas, documents, report, afterStart: after, events };
}

/**
 * Reloads config, schemas and every document (after a schema or folio.json change) and swaps them into
 * `project` at once, so requests see either the old or the new state. A broken folio.json keeps the old
 * state and throws.
 */
export async function reloadProject(project: Project): Promise<LoadReport> {
  const served = project.documents;
  // The upload settings are the library's, which outlives reloads: read first, so a broken section keeps all.
  const upload = served.media instanceof LocalMediaLibrary ? loadUploadConfig(project.contentDir) : undefined;
  const loaded = await loadContent(project.contentDir, served.media, project.events, {
    lastGood: (ct, documentId) => servedBody(served.index, served.schemas, ct, documentId),
  });
  Object.assign(project, {
    config: loaded.config,
    schemas: loaded.schemas,
    documents: loaded.documents,
    report: loaded.report,
    afterStart: loaded.afterStart,
  });
  if (upload && served.media instanceof LocalMediaLibrary) served.media.config = upload;
  return loaded.report;
}
