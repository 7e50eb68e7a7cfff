import type { SchemaRegistry } from '../schema/registry.js';
import type { ContentType } from '../schema/types.js';
import type { StartupFiles } from './files.js';
import { decodeDocument, encodeDocument } from '../documents/file-format.js';
import type { DocumentIndex } from '../documents/doc-index.js';
import { typeFingerprint } from './lazy.js';
import type { LoadOptions, LoadReport } from './fill-index.js';

/** Indexes the last good version of each document file that failed to load, when it passes still. */
export function keepLastGood(
  index: DocumentIndex,
  schemas: SchemaRegistry,
  files: StartupFiles,
  report: LoadReport,
  opts: LoadOptions,
) {
  for (const p of report.problems) {
    const m = /(?<![^/\\])([^/\\]+)[/\\]([^/\\]+)\.json$/.exec(p.file);
    const ct = m ? schemas.byPluralName(m[1]) : undefined;
    if (!ct || !m || index.get(ct.uid, m[2]) || files.fileOf(ct.pluralName, m[2]) !== p.file) continue;
    const body = opts.lastGood!(ct, m[2]);
    if (!body || opts.check?.(ct, body, m[2])) continue;
    try {
      index.put(decodeDocument(ct, m[2], body));
      p.message += '; serving the last good version';
    } catch {
      /* not servable under the new schema */
    }
  }
}

/**
 * What `index` serves of a document, as a file body, if its type in `schemas` is unchanged in `ct`: the last
 * good version a reload keeps (see LoadOptions.lastGood).
 */
export function servedBody(
  index: DocumentIndex,
  schemas: SchemaRegistry,
  ct: ContentType,
  documentId: string,
): Record<string, unknown> | undefined {
  const served = schemas.contentTypes.get(ct.uid);
  const doc = served && index.get(ct.uid, documentId);
  if (!served || !doc || typeFingerprint(served) !== typeFingerprint(ct)) return undefined;
  return encodeDocument(served, doc);
}
