import { decodeDocument } from '../documents/file-format.js';
import type { DocumentRecord } from '../documents/model.js';
import { uniqueClashes } from '../documents/unique-values.js';
import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { Store } from '../store/store.js';

/**
 * What an import would leave held twice: the values of unique fields (and uids) that an imported document's
 * published version shares with another imported one or with a document the project already has (one the
 * import does not replace). One line per clash, e.g. `articles.slug "hello" (en): abc (imported), def (in the
 * project)`; none when the import may be written.
 */
export async function importClashes(
  store: Store,
  schemas: SchemaRegistry,
  imported: Array<[ContentType, Map<string, Record<string, unknown>>]>,
) {
  const lines: string[] = [];
  for (const [ct, bodies] of imported) {
    const docs: DocumentRecord[] = [];
    const { documents } = await store.loadCollection(ct.pluralName);
    const kept = documents
      .filter((raw) => !bodies.has(raw.documentId))
      .map((raw) => [raw.documentId, raw.body] as const);
    for (const [documentId, body] of [...bodies, ...kept]) {
      try {
        docs.push(decodeDocument(ct, documentId, body));
      } catch {
        // A file the project cannot read holds nothing it serves; `folio validate` reports it.
      }
    }
    for (const c of uniqueClashes(schemas, ct, docs)) {
      const who = c.documentIds.map((id) => `${id} (${bodies.has(id) ? 'imported' : 'in the project'})`);
      lines.push(
        `${ct.pluralName}.${c.field} ${JSON.stringify(c.value)}${c.locale ? ` (${c.locale})` : ''}: ${who.join(', ')}`,
      );
    }
  }
  return lines;
}
