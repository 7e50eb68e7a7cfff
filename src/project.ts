import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type FolioConfig } from './config.js';
import { loadSchemas, type SchemaRegistry } from './schema/registry.js';
import { FileStore } from './store/store.js';
import { DocumentService, type LoadReport } from './documents/service.js';
import type { MediaLibrary } from './documents/media.js';
import { LocalMediaLibrary } from './upload/library.js';

/** A Folio project on disk: the folder that holds `content/`, loaded into schemas, config and documents. */
export interface Project {
  root: string;
  contentDir: string;
  config: FolioConfig;
  schemas: SchemaRegistry;
  documents: DocumentService;
  report: LoadReport;
}

export class ProjectError extends Error {}

export function contentDirOf(dir: string) {
  return join(resolve(dir), 'content');
}

/** Loads a project: schemas, `folio.json`, and every document into the in-memory index. */
export async function openProject(dir: string, opts: { media?: MediaLibrary } = {}): Promise<Project> {
  const root = resolve(dir);
  const contentDir = contentDirOf(root);
  if (!existsSync(contentDir)) {
    throw new ProjectError(`No Folio project in ${root}: there is no content/ folder. Run "folio init" there, or pass --dir <project>.`);
  }
  const config = loadConfig(contentDir);
  const schemas = loadSchemas(contentDir);
  const store = new FileStore(contentDir);
  await store.cleanup([...schemas.contentTypes.values()].map((ct) => ct.pluralName));
  const media = opts.media ?? await LocalMediaLibrary.open(contentDir);
  const documents = new DocumentService(schemas, config, store, media);
  const report = documents.load();
  if (media instanceof LocalMediaLibrary) report.problems.push(...media.problems);
  report.problems.unshift(...schemas.problems.map((p) => ({
    file: join(contentDir, p.file),
    message: p.attribute ? `attribute "${p.attribute}": ${p.message}` : p.message,
  })));
  return { root, contentDir, config, schemas, documents, report };
}
