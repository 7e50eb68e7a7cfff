import type { DocumentIndex } from '../documents/doc-index.js';
import type { AfterStart } from '../documents/service.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { FileStore } from '../store/store.js';
import { type LoadOptions, type LoadReport, loadDocuments, warmDocuments } from './fill-index.js';
import { StartupFiles } from './files.js';

export type { LoadOptions, LoadReport } from './fill-index.js';
export { servedBody } from './fill-index.js';

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
  const files = new StartupFiles(store);
  const { report, plan } = await loadDocuments(index, schemas, files, opts);
  let pending = plan?.worthWriting ? plan : undefined;
  const after: AfterStart = {
    warm: (busy) => warmDocuments(index, [...schemas.contentTypes.keys()], 8, busy),
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
