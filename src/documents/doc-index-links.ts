import { linkDocumentId } from './file-format.js';
import { type DocumentRecord, versions } from './model.js';
import type { TypeIndex } from './doc-index-type.js';

/** The documentIds `doc`'s owning relation `attr` points at, in any version. */
function relationTargets(doc: DocumentRecord, attr: string): string[] {
  const out: string[] = [];
  for (const v of versions(doc)) {
    const value = v.data[attr];
    if (typeof value === 'string') out.push(linkDocumentId(value));
    else if (Array.isArray(value)) for (const x of value) if (typeof x === 'string') out.push(linkDocumentId(x));
  }
  return out;
}

/** Records `doc` among the referrers of every target of its owning relations. */
export function linkRelations(t: TypeIndex, doc: DocumentRecord) {
  for (const [attr, map] of t.reverse) {
    for (const target of relationTargets(doc, attr)) {
      let set = map.get(target);
      if (!set) map.set(target, (set = new Set()));
      set.add(doc.documentId);
    }
  }
}

/** Takes `doc` out of the referrers of every target of its owning relations. */
export function unlinkRelations(t: TypeIndex, doc: DocumentRecord) {
  for (const [attr, map] of t.reverse) {
    for (const target of relationTargets(doc, attr)) map.get(target)?.delete(doc.documentId);
  }
}
