import type { SchemaRegistry } from '../schema/registry.js';
import type { DocumentIndex } from './doc-index.js';
import { type DocumentWrites, cloneDocument } from './document-writes.js';
import { versions } from './model.js';

/** A version given a fresh id in its file: where it is in the file (`locales.fr.draft.id`), its old and new id. */
export interface RenumberedVersion {
  uid: string;
  documentId: string;
  path: string;
  from: number;
  to: number;
}

/**
 * Rewrites the file of every document holding a version renumbered in memory (an id clash after a merge, or a
 * version without an id), which gives those versions fresh ids there. Answers each rewritten version.
 */
export async function rewriteRenumbered(
  schemas: SchemaRegistry,
  index: DocumentIndex,
  writes: DocumentWrites,
): Promise<RenumberedVersion[]> {
  const out: RenumberedVersion[] = [];
  for (const ct of schemas.contentTypes.values()) {
    const ids = [...new Set(index.renumberedVersions(ct.uid).map((r) => r.version.documentId))].sort();
    for (const documentId of ids) {
      await writes.writing(ct, documentId, async () => {
        writes.describe({ action: 'give clashing versions fresh ids' });
        const current = writes.current(ct, documentId);
        if (!current || !versions(current).some((v) => index.isRenumbered(ct.uid, v))) return;
        const doc = cloneDocument(current);
        const before = versions(doc).map((v) => v.id);
        await writes.commit(ct, doc, new Map());
        versions(doc).forEach((v, i) => {
          if (v.id === before[i]) return;
          const path = `${v.locale ? `locales.${v.locale}.` : ''}${v.status}.id`;
          out.push({ uid: ct.uid, documentId, path, from: before[i], to: v.id });
        });
      });
    }
  }
  return out;
}
