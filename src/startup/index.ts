import type { DocumentIndex } from '../documents/doc-index.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { FileStore } from '../store/store.js';
import { type LoadOptions, type LoadReport, loadDocuments } from './fill-index.js';
import { warmDocuments } from './warm.js';
import { StartupFiles } from './files.js';

export type { LoadOptions, LoadReport } from './fill-index.js';
export { servedBody } from './last-good.js';
export { listLargeFolders } from './folder-listing.js';

/** What a start leaves for after the first answer. */
export interface AfterStart {
  /** Decodes, in slices, every document not decoded yet; the slices wait while `busy()`. Resolves with how many. */
  warm(busy?: () => boolean): Promise<number>;
  /** Whether this start read enough files that writing a new start-up snapshot pays. */
  readonly snapshotPending: boolean;
  /** Writes the start-up snapshot this start planned (in the background of a running server). */
  writeSnapshot(): Promise<void>;
}

/**
 * The start path's one door: fills `index` from the document files of `store`'s folders (unchanged ones
 * from the start-up snapshot, large folders on reader threads), and returns what it found and what is
 * left for after the first answer.
 */
export async function fillIndex(
  index: DocumentIndex,
  schemas: SchemaRegistry,
  store: FileStore,
  opts: LoadOptions = {},
): Promise<{ report: LoadReport; after: AfterStart }> {
  const files = new StartupFiles(store, opts.readThreadsFrom);
  const { report, plan } = await loadDocuments(index, schemas, files, opts);
  let pending = plan?.worthWriting ? plan : undefined;
  const after: AfterStart = {
    warm: (busy) => warmDocuments(index, [...schemas.contentTypes.keys()], busy),
    get snapshotPending() {
      return !!pending;
    },
    async writeSnapshot() {
      const planned = pending;
      pending = undefined;
      if (planned) await files.writeSnapshot(await planned.build());
    },
  };
  return { report, after };
}
